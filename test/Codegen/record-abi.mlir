// RUN: onnx-quant-opt %s --onnxq-record-abi="entry=tiny" | FileCheck %s

// CHECK: module attributes {onnx.abi = {entry = "tiny", function = "main_graph",
// CHECK-SAME: inputs = [{dtype = 1 : i64, element_bytes = 4 : i64, name = "x", shape = array<i64: 1, 4>}, {dtype = 2 : i64, element_bytes = 1 : i64, name = "input_1", shape = array<i64: 3>}]
// CHECK-SAME: outputs = [{dtype = 7 : i64, element_bytes = 8 : i64, name = "y", shape = array<i64: 2>}]
// CHECK-SAME: workspace_size = 0 : i64}
func.func @main_graph(%x: tensor<1x4xf32> {onnx.name = "x"}, %u: tensor<3xui8>) -> (tensor<2xi64> {onnx.name = "y"}) {
  %0 = onnx.Shape(%x) : (tensor<1x4xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
