// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json; t = {n: {'min': -1.0, 'max': 1.0} for n in ['x', 'mul', 'relu', 'conv9']}; json.dump({'tensors': t}, open('%t/extra.json', 'w'))"
// RUN: %python -c "import json; t = {n: {'min': -1.0, 'max': 1.0} for n in ['x']}; json.dump({'tensors': t}, open('%t/missing.json', 'w'))"
// RUN: %python -c "import json; t = {'x': {'min': 2.0, 'max': 1.0}}; json.dump({'tensors': t}, open('%t/inverted.json', 'w'))"
// RUN: printf '{"tensors": ' > %t/truncated.json
// RUN: onnx-quant-opt %s --onnx-annotate-ranges="file=%t/extra.json" -verify-diagnostics
// RUN: not onnx-quant-opt %s --onnx-annotate-ranges="file=%t/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not onnx-quant-opt %s --onnx-annotate-ranges="file=%t/inverted.json" 2>&1 | FileCheck %s --check-prefix=INVERTED
// RUN: not onnx-quant-opt %s --onnx-annotate-ranges="file=%t/truncated.json" 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not onnx-quant-opt %s --onnx-annotate-ranges="file=%t/none.json" 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not onnx-quant-opt %s --onnx-annotate-ranges 2>&1 | FileCheck %s --check-prefix=NOOPTION
// A range table must match the graph exactly.

// MISSING: error: onnx-annotate-ranges: '{{.*}}missing.json' has no range for 2 tensors of the graph: 'mul', 'relu' (re-run --onnx-calibrate with the same passes before it)
// INVERTED: error: ranges file '{{.*}}inverted.json': tensor 'x' needs finite "min" <= "max"
// TRUNCATED: error: ranges file '{{.*}}truncated.json' is not valid JSON
// NOFILE: error: cannot read ranges file '{{.*}}none.json'
// NOOPTION: error: onnx-annotate-ranges: give the table with file=FILE

// expected-error-re @+1 {{onnx-annotate-ranges: '{{.*}}extra.json' names 1 tensors that are not in the graph: 'conv9' (was it saved for another model or before other passes?)}}
module {
  func.func @main_graph(%x: tensor<1x4xf32> {onnx.name = "x"}) -> tensor<1x4xf32> {
    %c = onnx.Constant dense<[[1.0, -2.0, 3.0, -4.0]]> : tensor<1x4xf32>
    %m = onnx.Mul(%x, %c) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> loc("mul")
    %y = onnx.Relu(%m) : (tensor<1x4xf32>) -> tensor<1x4xf32> loc("relu")
    return %y : tensor<1x4xf32>
  }
}
