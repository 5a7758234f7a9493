// RUN: onnx-quant-opt %s --onnxq-bufferize | FileCheck %s

// Tensor constants get their globals in program order, named by first use,
// whatever order one-shot bufferization visits the functions in (it depends
// on their addresses): the same model gives the same object every time.
// Equal constants share one global, in both functions.
// CHECK: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_1 : memref<2xf32> = dense<[5.000000e+00, 6.000000e+00]> {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @first
// CHECK: memref.get_global @__constant_2xf32 :
// CHECK: memref.get_global @__constant_2xf32_0 :
// CHECK-LABEL: func.func @second
// CHECK: memref.get_global @__constant_2xf32_1 :
// CHECK: memref.get_global @__constant_2xf32 :
func.func @first() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}
func.func @second() -> (tensor<2xf32>, tensor<2xf32>) {
  %c = arith.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c, %a : tensor<2xf32>, tensor<2xf32>
}
