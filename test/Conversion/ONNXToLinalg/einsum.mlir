// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// A batched matmul: loops (b, i, k) parallel then j reduced; each input read
// at its labels' loops, the product added to the zero-filled result.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func @batch_matmul
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = onnx.Einsum(%a, %b) {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A repeated label reads the diagonal; an implicit output keeps the ellipsis
// axes and the labels used once.
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0, d1) -> (d0, d1, d1)>
// CHECK-LABEL: func @batch_diagonal
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], {{.*}}], iterator_types = ["parallel", "parallel"]}
func.func @batch_diagonal(%x: tensor<3x5x5xf32>) -> tensor<3x5xf32> {
  %0 = onnx.Einsum(%x) {equation = "...ii ->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A scalar result: every loop reduces.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func @inner_product
// CHECK: linalg.generic {indexing_maps = [{{.*}}, {{.*}}, #[[SCALAR]]], iterator_types = ["reduction"]}
func.func @inner_product(%a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<f32> {
  %0 = onnx.Einsum(%a, %b) {equation = "i,i"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
