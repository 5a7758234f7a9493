// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// transB is an indexing map, not a transposed copy of the weights; beta * C
// initializes the accumulator.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @gemm_trans_b
// CHECK: %[[INIT:.*]] = linalg.generic
// CHECK:   arith.mulf
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<3x4xf32>) outs(%[[INIT]] : tensor<2x3xf32>)
func.func @gemm_trans_b(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Gemm(%a, %b, %c) {beta = 0.5 : f32, transB = 1 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// alpha != 1 scales the product after the contraction.
// CHECK-LABEL: func @gemm_alpha
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic
// CHECK:   arith.constant 2.000000e+00
// CHECK:   arith.mulf
func.func @gemm_alpha(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Gemm(%a, %b) {alpha = 2.0 : f32, transA = 1 : i64} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Batch dimensions broadcast: B is shared by every batch of A.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-LABEL: func @matmul_batched
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @matmul_batched(%a: tensor<5x2x4xf32>, %b: tensor<4x3xf32>) -> tensor<5x2x3xf32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<5x2x4xf32>, tensor<4x3xf32>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// -----

// A vector operand is a 1-row matrix.
// CHECK-LABEL: func @matmul_vector
// CHECK: tensor.expand_shape {{.*}} into tensor<1x4xf32>
// CHECK: linalg.generic
// CHECK: return %{{.*}} : tensor<3xf32>
func.func @matmul_vector(%a: tensor<4xf32>, %b: tensor<4x3xf32>) -> tensor<3xf32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
