// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func @reshape_flatten
// CHECK: tensor.collapse_shape
// CHECK: tensor.expand_shape {{.*}} into tensor<2x12xf32>
// CHECK-NOT: onnx.
func.func @reshape_flatten(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %shape = onnx.Constant dense<[2, 12]> : tensor<2xi64>
  %0 = onnx.Reshape(%x, %shape) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// CHECK-LABEL: func @transpose
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = onnx.Transpose(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func @concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x5x2xf32>
// CHECK: %[[S:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0] [1, 2, 2] [1, 1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[S]][0, 2, 0] [1, 3, 2] [1, 1, 1]
func.func @concat(%a: tensor<1x2x2xf32>, %b: tensor<1x3x2xf32>) -> tensor<1x5x2xf32> {
  %0 = onnx.Concat(%a, %b) {axis = 1 : i64} : (tensor<1x2x2xf32>, tensor<1x3x2xf32>) -> tensor<1x5x2xf32>
  return %0 : tensor<1x5x2xf32>
}

// -----

// Out-of-range ends are clamped, negative starts count from the end.
// CHECK-LABEL: func @slice
// CHECK: tensor.extract_slice %{{.*}}[0, 7] [4, 2] [1, 2] : tensor<4x10xf32> to tensor<4x2xf32>
func.func @slice(%x: tensor<4x10xf32>) -> tensor<4x2xf32> {
  %starts = onnx.Constant dense<[-3]> : tensor<1xi64>
  %ends = onnx.Constant dense<[1000]> : tensor<1xi64>
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %steps = onnx.Constant dense<[2]> : tensor<1xi64>
  %0 = onnx.Slice(%x, %starts, %ends) axes(%axes) steps(%steps) : (tensor<4x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func @pad
// CHECK: %[[V:.*]] = tensor.extract
// CHECK: tensor.pad %{{.*}} low[0, 1] high[2, 0]
// CHECK:   tensor.yield %[[V]]
func.func @pad(%x: tensor<2x2xf32>, %v: tensor<f32>) -> tensor<4x3xf32> {
  %pads = onnx.Constant dense<[0, 1, 2, 0]> : tensor<4xi64>
  %0 = onnx.Pad(%x, %pads, %v) : (tensor<2x2xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Negative indices wrap around the gathered axis.
// CHECK-LABEL: func @gather
// CHECK: linalg.generic
// CHECK:   arith.index_cast
// CHECK:   arith.cmpi slt
// CHECK:   arith.select
// CHECK:   tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<5x3xf32>
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = onnx.Gather(%x, %i) : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @forwarding
// CHECK-NEXT: return %arg0
func.func @forwarding(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = onnx.Identity(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = onnx.Dropout(%0) : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func @shape_and_constants
// CHECK: arith.constant dense<[3, 4]> : tensor<2xi64>
func.func @shape_and_constants(%x: tensor<2x3x4xf32>) -> tensor<2xi64> {
  %0 = onnx.Shape(%x) {start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Dropout's mask at inference time: nothing is dropped.
// CHECK-LABEL: func @dropout_mask
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[MASK:.*]] = linalg.fill ins(%[[TRUE]] : i1) outs(%{{.*}} : tensor<4xi1>)
// CHECK: return %[[X]], %[[MASK]]
func.func @dropout_mask(%x: tensor<4xf32>, %r: tensor<f32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %0:2 = onnx.Dropout(%x) ratio(%r) : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xi1>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi1>
}

// -----

// Results without elements compute nothing (and an extract_slice at offset 0
// of a size-0 dim would not verify): they are empty tensors.
// CHECK-LABEL: func @split_zero_size
// CHECK-NOT: tensor.extract_slice
// CHECK-COUNT-2: tensor.empty() : tensor<0xf32>
// CHECK-NOT: onnx.Split
func.func @split_zero_size(%x: tensor<0xf32>, %split: tensor<2xi64>) -> (tensor<0xf32>, tensor<0xf32>) {
  %0:2 = onnx.Split(%x, %split) : (tensor<0xf32>, tensor<2xi64>) -> (tensor<0xf32>, tensor<0xf32>)
  return %0#0, %0#1 : tensor<0xf32>, tensor<0xf32>
}

// -----

// CHECK-LABEL: func @reshape_zero_size
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4x0xf32>
// CHECK: return %[[E]]
func.func @reshape_zero_size(%x: tensor<0x3x4xf32>, %shape: tensor<3xi64>) -> tensor<3x4x0xf32> {
  %0 = onnx.Reshape(%x, %shape) {allowzero = 1 : i64} : (tensor<0x3x4xf32>, tensor<3xi64>) -> tensor<3x4x0xf32>
  return %0 : tensor<3x4x0xf32>
}

// -----

// GatherElements: the indices (same shape as the result) pick the index along
// the axis; the other coordinates are the output's own.
// CHECK-LABEL: func @gather_elements
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x2xi64>)
// CHECK: %[[I:.*]] = arith.index_cast
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]]
// CHECK: %[[UP:.*]] = arith.addi %[[I]], %{{.*}}
// CHECK: %[[WRAPPED:.*]] = arith.select %[[NEG]], %[[UP]], %[[I]]
// Clamped into [0, 2]: never read outside (onnxq-check-indices reports it).
// CHECK: %[[LOW:.*]] = arith.maxsi %[[WRAPPED]], %c0
// CHECK: %[[IDX:.*]] = arith.minsi %[[LOW]], %c2
// CHECK: %[[ROW:.*]] = linalg.index 0
// CHECK: tensor.extract %{{.*}}[%[[ROW]], %[[IDX]]] : tensor<2x3xf32>
func.func @gather_elements(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = onnx.GatherElements(%x, %i) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Tile reads index mod size along the repeated axes only.
// CHECK-LABEL: func @tile
// CHECK: linalg.generic
// CHECK: %[[R:.*]] = linalg.index 0
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: %[[CM:.*]] = arith.remui %[[C]], %{{.*}} : index
// CHECK: tensor.extract %{{.*}}[%[[R]], %[[CM]]] : tensor<2x3xf32>
func.func @tile(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %r = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  %0 = onnx.Tile(%x, %r) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
