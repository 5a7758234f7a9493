// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize -split-input-file | FileCheck %s

// ScatterND: a loop over the index tuples carries the output (starting as
// the data); each tuple's index is wrapped (negative from the end) and
// checked, and its update slice inserted.
// CHECK-LABEL: func @scatternd
// CHECK-SAME: (%[[DATA:.*]]: tensor<4x5x3xf32>, %[[IDX:.*]]: tensor<2x1xi64>, %[[UPD:.*]]: tensor<2x5x3xf32>)
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %[[DATA]])
// CHECK: %[[RAW:.*]] = tensor.extract %[[IDX]][%[[U]], %{{.*}}] : tensor<2x1xi64>
// CHECK: %[[I:.*]] = arith.index_cast %[[RAW]]
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]]
// CHECK: %[[WRAPPED:.*]] = arith.select %[[NEG]]
// CHECK: %[[LO:.*]] = arith.cmpi sge, %[[WRAPPED]]
// CHECK: %[[HI:.*]] = arith.cmpi slt, %[[WRAPPED]]
// CHECK: %[[INSIDE:.*]] = arith.andi %[[LO]], %[[HI]]
// CHECK: scf.if %[[INSIDE]]
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[UPD]][%[[U]], 0, 0] [1, 5, 3] [1, 1, 1] : tensor<2x5x3xf32> to tensor<5x3xf32>
// CHECK: tensor.insert_slice %[[SLICE]] into %[[OUT]][%[[WRAPPED]], 0, 0] [1, 5, 3] [1, 1, 1]
// CHECK: } else {
// CHECK: scf.yield %[[OUT]]
func.func @scatternd(%x: tensor<4x5x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x5x3xf32>) -> tensor<4x5x3xf32> {
  %0 = onnx.ScatterND(%x, %i, %u) : (tensor<4x5x3xf32>, tensor<2x1xi64>, tensor<2x5x3xf32>) -> tensor<4x5x3xf32>
  return %0 : tensor<4x5x3xf32>
}

// -----

// A reduction combines in place: a generic reading the update slice and
// updating the output's own slice.
// CHECK-LABEL: func @scatternd_add
// CHECK: scf.for
// CHECK: %[[CUR:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [1, 5] [1, 1] : tensor<4x5xf32> to tensor<5xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<5xf32>) outs(%[[CUR]] : tensor<5xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[OLD:.*]]: f32):
// CHECK: arith.addf %[[OLD]], %[[IN]]
// CHECK: tensor.insert_slice
func.func @scatternd_add(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %u: tensor<2x5xf32>) -> tensor<4x5xf32> {
  %0 = onnx.ScatterND(%x, %i, %u) {reduction = "add"} : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Full index tuples (k = rank) and multi-dim tuple batches: the tuples are
// flattened to (count, k), the updates to (count), one element per slice.
// CHECK-LABEL: func @scatternd_elements_max
// CHECK: %[[IDX:.*]] = tensor.collapse_shape %{{.*}} : tensor<2x2x2xi64> into tensor<4x2xi64>
// CHECK: scf.for {{.*}} = %{{.*}} to %c4
// CHECK-COUNT-2: tensor.extract %[[IDX]]
// CHECK: scf.if
// CHECK: arith.maxsi
func.func @scatternd_elements_max(%x: tensor<3x3xi32>, %i: tensor<2x2x2xi64>, %u: tensor<2x2xi32>) -> tensor<3x3xi32> {
  %0 = onnx.ScatterND(%x, %i, %u) {reduction = "max"} : (tensor<3x3xi32>, tensor<2x2x2xi64>, tensor<2x2xi32>) -> tensor<3x3xi32>
  return %0 : tensor<3x3xi32>
}

// -----

// ScatterElements: a loop per index dim; the index replaces the coordinate
// along `axis`.
// CHECK-LABEL: func @scatter_elements
// CHECK-SAME: (%[[DATA:.*]]: tensor<3x4xf32>, %[[IDX:.*]]: tensor<2x4xi64>, %[[UPD:.*]]: tensor<2x4xf32>)
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%{{.*}} = %[[DATA]])
// CHECK: scf.for %[[C:.*]] = {{.*}} iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK: tensor.extract %[[IDX]][%[[R]], %[[C]]]
// CHECK: %[[WRAPPED:.*]] = arith.select
// CHECK: scf.if
// CHECK: %[[V:.*]] = tensor.extract %[[UPD]][%[[R]], %[[C]]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[OUT]][%[[WRAPPED]], %[[C]]]
// CHECK: %[[SUM:.*]] = arith.mulf %[[OLD]], %[[V]]
// CHECK: tensor.insert %[[SUM]] into %[[OUT]][%[[WRAPPED]], %[[C]]]
func.func @scatter_elements(%x: tensor<3x4xf32>, %i: tensor<2x4xi64>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = onnx.ScatterElements(%x, %i, %u) {reduction = "mul"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
