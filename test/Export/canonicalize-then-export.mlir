// RUN: onnx-quant-opt %s --canonicalize --emit=onnx -o %t.onnx
// RUN: %python %S/Inputs/dump_onnx.py %t.onnx | FileCheck %s
// Passes run before the export: the Identity and the no-op Transpose are
// folded away, so the model has a single Relu node.

// CHECK: input x FLOAT [2,3]
// CHECK-NOT: node
// CHECK: node {{.*}} ai.onnx.Relu (x) -> (y) {}
// CHECK-NOT: node
// CHECK: output y FLOAT [2,3]

func.func @main_graph(%x: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
  %0 = onnx.Identity(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Transpose(%0) {perm = [0, 1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Relu(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
