// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// Upper: keep x[..., i, j] where j - i >= k, with a runtime k.
// CHECK-LABEL: func @trilu_upper
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<i64>)
// CHECK:   ^bb0(%[[X:.*]]: f32, %[[K:.*]]: i64, %{{.*}}: f32):
// CHECK:   %[[J:.*]] = linalg.index 2
// CHECK:   %[[J64:.*]] = arith.index_cast %[[J]]
// CHECK:   %[[I:.*]] = linalg.index 1
// CHECK:   %[[I64:.*]] = arith.index_cast %[[I]]
// CHECK:   %[[D:.*]] = arith.subi %[[J64]], %[[I64]]
// CHECK:   %[[KEEP:.*]] = arith.cmpi sge, %[[D]], %[[K]]
// CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   arith.select %[[KEEP]], %[[X]], %[[ZERO]]
func.func @trilu_upper(%x: tensor<2x3x4xf32>, %k: tensor<1xi64>) -> tensor<2x3x4xf32> {
  %0 = onnx.Trilu(%x, %k) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Lower, default k = 0: keep j - i <= 0.
// CHECK-LABEL: func @trilu_lower
// CHECK:   arith.subi
// CHECK:   %[[K:.*]] = arith.constant 0 : i64
// CHECK:   arith.cmpi sle, %{{.*}}, %[[K]]
func.func @trilu_lower(%x: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %0 = onnx.Trilu(%x) {upper = 0 : i64} : (tensor<3x4xi32>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}
