// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.25 min-elements=0 quiet=true" | FileCheck %s --check-prefix=ABS
// RUN: onnx-quant-opt %s --onnx-prune="mode=relative threshold=0.5 min-elements=0 quiet=true" | FileCheck %s --check-prefix=REL
// RUN: onnx-quant-opt %s --onnx-prune="mode=sparsity sparsity=0.5 min-elements=0 quiet=true" | FileCheck %s --check-prefix=LAYER
// RUN: onnx-quant-opt %s --onnx-prune="mode=sparsity sparsity=0.5 scope=global min-elements=0 quiet=true" | FileCheck %s --check-prefix=GLOBAL
// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.25 min-elements=5 quiet=true" | FileCheck %s --check-prefix=MIN
// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.25 min-elements=0 exclude=fc quiet=true" | FileCheck %s --check-prefix=EXCL
// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.25 min-elements=0 report=%t.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=TABLE < %t.txt
// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.25 min-elements=0 exclude=fc report=%t.json quiet=true" -o /dev/null
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['layers'][0]['node'], r['layers'][0]['zeros_after'], r['layers'][1]['skipped'], r['total']['zeros_after'])" %t.json | FileCheck %s --check-prefix=JSON
// The weights of Conv, Gemm and MatMul are pruned; biases never.

// SUMMARY: onnx-prune: 2 of 2 weight tensors changed (mode=absolute threshold=0.25 min-elements=0)
// SUMMARY-NEXT: onnx-prune: 8 weights, zeros 0 -> 3 (sparsity 0.00% -> 37.50%)

// TABLE: # onnx-prune report (mode=absolute threshold=0.25 min-elements=0)
// TABLE: conv  Conv  4x1x1x1  4  0  1  25.00%
// TABLE-NEXT: fc  Gemm  2x2  4  0  2  50.00%
// TABLE-NEXT: total  8  0  3  37.50%

// JSON: conv 1 excluded 1

// ABS-LABEL: func @net
// ABS-DAG: onnx.Constant dense<[0.000000e+00, 5.000000e-01, 0.000000e+00, 1.000000e+00]> : tensor<4xf32>
// ABS-DAG: onnx.Constant dense<{{\[\[\[\[}}0.000000e+00]]], {{\[\[\[}}2.500000e-01]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}-4.000000e+00]]]]> : tensor<4x1x1x1xf32>
// ABS-DAG: onnx.Constant dense<{{\[\[}}0.000000e+00, 0.000000e+00], [3.000000e-01, -2.000000e+00]]> : tensor<2x2xf32>
// ABS-DAG: onnx.Constant dense<1.000000e-01> : tensor<2xf32>

// Relative: |w| < 0.5 max|w| per tensor (cut 2 for the conv, 1 for the gemm).
// REL-LABEL: func @net
// REL-DAG: onnx.Constant dense<{{\[\[\[\[}}0.000000e+00]]], {{\[\[\[}}0.000000e+00]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}-4.000000e+00]]]]> : tensor<4x1x1x1xf32>
// REL-DAG: onnx.Constant dense<{{\[\[}}0.000000e+00, 0.000000e+00], [0.000000e+00, -2.000000e+00]]> : tensor<2x2xf32>

// Half of each tensor: the two smallest magnitudes.
// LAYER-LABEL: func @net
// LAYER-DAG: onnx.Constant dense<{{\[\[\[\[}}0.000000e+00]]], {{\[\[\[}}0.000000e+00]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}-4.000000e+00]]]]> : tensor<4x1x1x1xf32>
// LAYER-DAG: onnx.Constant dense<{{\[\[}}0.000000e+00, 0.000000e+00], [3.000000e-01, -2.000000e+00]]> : tensor<2x2xf32>

// Half of all 8 weights together: 0.1 (twice), 0.2 and 0.25.
// GLOBAL-LABEL: func @net
// GLOBAL-DAG: onnx.Constant dense<{{\[\[\[\[}}0.000000e+00]]], {{\[\[\[}}0.000000e+00]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}-4.000000e+00]]]]> : tensor<4x1x1x1xf32>
// GLOBAL-DAG: onnx.Constant dense<{{\[\[}}0.000000e+00, 0.000000e+00], [3.000000e-01, -2.000000e+00]]> : tensor<2x2xf32>

// MIN-LABEL: func @net
// MIN-DAG: onnx.Constant dense<{{\[\[\[\[}}1.000000e-01]]], {{\[\[\[}}2.500000e-01]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}-4.000000e+00]]]]> : tensor<4x1x1x1xf32>

// EXCL-LABEL: func @net
// EXCL-DAG: onnx.Constant dense<{{\[\[\[\[}}0.000000e+00]]], {{\[\[\[}}2.500000e-01]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}-4.000000e+00]]]]> : tensor<4x1x1x1xf32>
// EXCL-DAG: onnx.Constant dense<{{\[\[}}1.000000e-01, 2.000000e-01], [3.000000e-01, -2.000000e+00]]> : tensor<2x2xf32>
func.func @net(%x: tensor<1x1x1x1xf32>) -> tensor<1x2xf32> {
  %w2 = onnx.Constant dense<[[[[0.1]]], [[[0.25]]], [[[3.0]]], [[[-4.0]]]]> : tensor<4x1x1x1xf32>
  %b = onnx.Constant dense<[0.0, 0.5, 0.0, 1.0]> : tensor<4xf32>
  %g = onnx.Constant dense<[[0.1, 0.2], [0.3, -2.0]]> : tensor<2x2xf32>
  %gb = onnx.Constant dense<0.1> : tensor<2xf32>
  %c = onnx.Conv(%x, %w2, %b) : (tensor<1x1x1x1xf32>, tensor<4x1x1x1xf32>, tensor<4xf32>) -> tensor<1x4x1x1xf32> loc("conv")
  %f = onnx.Flatten(%c) : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %s = onnx.Constant dense<[0, 1]> : tensor<2xi64>
  %two = onnx.Gather(%f, %s) {axis = 1 : i64} : (tensor<1x4xf32>, tensor<2xi64>) -> tensor<1x2xf32>
  %y = onnx.Gemm(%two, %g, %gb) : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<1x2xf32> loc("fc")
  return %y : tensor<1x2xf32>
}
