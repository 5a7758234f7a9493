// RUN: onnx-quant-opt %s --onnxq-widen-f16 | FileCheck %s

// float16 stays at the interface; inside, everything is float32.
// CHECK-LABEL: func @main_graph
// CHECK-SAME: (%[[X:.*]]: tensor<4xf16>) -> tensor<4xf16>
// CHECK-DAG: %[[C:.*]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[XW:.*]] = onnx.Cast(%[[X]]) {to = 1 : i64} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[S:.*]] = onnx.Add(%[[XW]], %[[C]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = onnx.Relu(%[[S]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[Y:.*]] = onnx.Cast(%[[R]]) {to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: return %[[Y]] : tensor<4xf16>
func.func @main_graph(%x: tensor<4xf16>) -> tensor<4xf16> {
  %c = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf16>
  %0 = onnx.Add(%x, %c) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %1 = onnx.Relu(%0) : (tensor<4xf16>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}
