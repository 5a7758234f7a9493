// RUN: rm -rf %t && mkdir %t && split-file %s %t
// RUN: onnx-quant-opt %t/weights4.mlir --emit=onnx -o %t/w4.onnx
// RUN: onnx-quant-opt %t/w4.onnx | FileCheck %s --check-prefix=W4
// RUN: not onnx-quant-opt %t/weights4.mlir --emit=onnx --opset=17 -o %t/w4-17.onnx 2>&1 | FileCheck %s --check-prefix=OPSET17
// RUN: test ! -e %t/w4-17.onnx
// RUN: not onnx-quant-opt %t/blocked8.mlir --emit=onnx --opset=17 -o %t/b8.onnx 2>&1 | FileCheck %s --check-prefix=BLOCKED17
// RUN: not onnx-quant-opt %t/weights4.mlir --emit=onnx --opset=19 -o %t/w4-19.onnx 2>&1 | FileCheck %s --check-prefix=OPSET19
// RUN: onnx-quant-opt %t/newer-forms.mlir --emit=onnx --opset=21 -o %t/forms.onnx
// RUN: onnx-quant-opt %t/forms.onnx | FileCheck %s --check-prefix=FORMS

// 4-bit weights and blocked scales are opset 21's: --emit=onnx writes opset
// 21 for them (int4 two a byte, IR version 10) and reads them back as they
// were.
// W4: %[[W:.*]] = onnx.Constant dense<{{\[\[}}-8, 7, 1, -1], [0, 3, -3, 5]]> : tensor<2x4xi4>
// W4: %[[S:.*]] = onnx.Constant dense<{{\[\[}}5.000000e-01, 2.500000e-01], [1.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// W4: %[[Z:.*]] = onnx.Constant dense<0> : tensor<2x2xi4>
// W4: %[[U:.*]] = onnx.Constant dense<[0, 15, 8]> : tensor<3xui4>
// W4: onnx.DequantizeLinear(%[[W]], %[[S]], %[[Z]]) {block_size = 2 : i64} : (tensor<2x4xi4>, tensor<2x2xf32>, tensor<2x2xi4>) -> tensor<2x4xf32>
// W4: onnx.DequantizeLinear(%[[U]], %{{.*}}, %{{.*}}) : (tensor<3xui4>, tensor<f32>, tensor<ui4>) -> tensor<3xf32>

// Asked for opset 17, they are an error naming the node and the option that
// made them, and nothing is written.
// OPSET17: error: cannot export a DequantizeLinear of 4-bit weights (weights=s4|u4 of --onnx-quantize) (opset 21) in an opset 17 model; write opset 21 (--opset=21)
// BLOCKED17: error: cannot export a DequantizeLinear with blocked scales (block-size= of --onnx-quantize) (opset 21) in an opset 17 model; write opset 21 (--opset=21)
// OPSET19: error: --opset=19 cannot be written (17 or 21)

// Opset 21 writes the forms that changed after 17: a reduction's axes are
// an input (read back as the dialect's attribute), Split gets num_outputs.
// FORMS: onnx.ReduceMean(%arg0) {axes = [1], keepdims = 0 : i64}
// FORMS: onnx.ReduceMax(%arg0) : (tensor<2x4xf32>) -> tensor<1x1xf32>
// FORMS: onnx.Split(%arg0) {axis = 1 : i64} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)

//--- weights4.mlir
func.func @main_graph(%x: tensor<4x2xf32>) -> (tensor<2x4xf32>, tensor<3xf32>) {
  %w = onnx.Constant dense<[[-8, 7, 1, -1], [0, 3, -3, 5]]> : tensor<2x4xi4>
  %s = onnx.Constant dense<[[0.5, 0.25], [1.0, 2.0]]> : tensor<2x2xf32>
  %z = onnx.Constant dense<0> : tensor<2x2xi4>
  %y = onnx.DequantizeLinear(%w, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<2x4xi4>, tensor<2x2xf32>, tensor<2x2xi4>) -> tensor<2x4xf32>
  %u = onnx.Constant dense<[0, 15, 8]> : tensor<3xui4>
  %us = onnx.Constant dense<0.5> : tensor<f32>
  %uz = onnx.Constant dense<8> : tensor<ui4>
  %v = onnx.DequantizeLinear(%u, %us, %uz) : (tensor<3xui4>, tensor<f32>, tensor<ui4>) -> tensor<3xf32>
  return %y, %v : tensor<2x4xf32>, tensor<3xf32>
}

//--- blocked8.mlir
func.func @main_graph() -> tensor<2x32xf32> {
  %w = onnx.Constant dense<1> : tensor<2x32xi8>
  %s = onnx.Constant dense<0.5> : tensor<2x2xf32>
  %y = onnx.DequantizeLinear(%w, %s) {axis = 1 : i64, block_size = 16 : i64} : (tensor<2x32xi8>, tensor<2x2xf32>) -> tensor<2x32xf32>
  return %y : tensor<2x32xf32>
}

//--- newer-forms.mlir
func.func @main_graph(%x: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<1x1xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %m = onnx.ReduceMean(%x) {axes = [1], keepdims = 0 : i64} : (tensor<2x4xf32>) -> tensor<2xf32>
  %a = onnx.ReduceMax(%x) : (tensor<2x4xf32>) -> tensor<1x1xf32>
  %p:2 = onnx.Split(%x) {axis = 1 : i64} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return %m, %a, %p#0, %p#1 : tensor<2xf32>, tensor<1x1xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
