// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s
// Tensors generated from shapes, when they were not folded: ConstantOfShape
// is a fill (folded only up to 64 elements: a larger splat constant would be
// stored element by element in the object), Range computes start + i * delta from the index, Expand is a
// broadcast.

// CHECK-LABEL: func @constant_of_shape
// CHECK: %[[V:.*]] = arith.constant 7 : i32
// CHECK: linalg.fill ins(%[[V]] : i32) outs(%{{.*}} : tensor<2x70xi32>)
func.func @constant_of_shape(%s: tensor<2xi64>) -> tensor<2x70xi32> {
  %shape = onnx.Constant dense<[2, 70]> : tensor<2xi64>
  %c = onnx.ConstantOfShape(%shape) {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x70xi32>
  return %c : tensor<2x70xi32>
}

// -----

// CHECK-LABEL: func @range_float
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>) outs(%{{.*}} : tensor<96xf32>)
// CHECK:   %[[I:.*]] = linalg.index 0 : index
// CHECK:   %[[I64:.*]] = arith.index_castui %[[I]] : index to i64
// CHECK:   %[[F:.*]] = arith.uitofp %[[I64]] : i64 to f32
// CHECK:   %[[M:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// CHECK:   arith.addf %{{.*}}, %[[M]] : f32
func.func @range_float(%start: tensor<f32>, %limit: tensor<f32>, %delta: tensor<f32>) -> tensor<96xf32> {
  %r = onnx.Range(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<96xf32>
  return %r : tensor<96xf32>
}

// -----

// CHECK-LABEL: func @range_int
// CHECK: linalg.generic
// CHECK:   %[[I:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK:   %[[M:.*]] = arith.muli %[[I]], %{{.*}} : i64
// CHECK:   arith.addi %{{.*}}, %[[M]] : i64
func.func @range_int(%start: tensor<i64>, %limit: tensor<i64>, %delta: tensor<i64>) -> tensor<80xi64> {
  %r = onnx.Range(%start, %limit, %delta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<80xi64>
  return %r : tensor<80xi64>
}

// -----

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @expand
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], {{.*}} ins(%[[X]] : tensor<80xf32>) outs(%{{.*}} : tensor<80x96xf32>)
func.func @expand(%x: tensor<80x1xf32>) -> tensor<80x96xf32> {
  %shape = onnx.Constant dense<[80, 96]> : tensor<2xi64>
  %e = onnx.Expand(%x, %shape) : (tensor<80x1xf32>, tensor<2xi64>) -> tensor<80x96xf32>
  return %e : tensor<80x96xf32>
}
