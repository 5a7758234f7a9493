// RUN: onnx-quant-opt %s --convert-onnx-to-linalg | FileCheck %s
// The pass as a whole: every onnx op is lowered (the op families have their
// own files here), and unsigned ONNX integers become signless in the
// function's signature and body (linalg and arith compute on signless
// integers; the ops say how to extend). Errors: convert-onnx-to-linalg-invalid.mlir.

// CHECK-LABEL: func.func @signature
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi8>, %{{.*}}: tensor<2x3xf32>) -> (tensor<2x3xi8>, tensor<2x3xf32>)
// CHECK-NOT: onnx.
// CHECK-NOT: ui8
// CHECK: return %[[X]], %{{.*}} : tensor<2x3xi8>, tensor<2x3xf32>
func.func @signature(%x: tensor<2x3xui8>, %y: tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<2x3xf32>) {
  %0 = onnx.Identity(%x) : (tensor<2x3xui8>) -> tensor<2x3xui8>
  %1 = onnx.Relu(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xui8>, tensor<2x3xf32>
}
