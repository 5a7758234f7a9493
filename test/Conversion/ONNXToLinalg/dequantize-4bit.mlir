// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// A 4-bit constant stays two values a byte (byte i holds values i and
// i + 65 of the 130, low nibble first) and is spread to a byte each when
// the model runs, in two contiguous rows: row 0 shifted up by 4 and down
// again, row 1 only down, arithmetically for int4. The blocked
// DequantizeLinear repeats each block's scale over its 32 rows; the last
// block (65 = 2 * 32 + 1) is cut short.
// CHECK-LABEL: func @weights_s4
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i8
// CHECK-DAG: %[[PACKED:.*]] = arith.constant dense<[120, 23, -15, 47, {{.*}}]> : tensor<65xi8>
// CHECK: %[[SPREAD:.*]] = linalg.generic {{.*}} ins(%[[PACKED]] : tensor<65xi8>) outs(%{{.*}} : tensor<2x65xi8>)
// CHECK: %[[HIGH:.*]] = linalg.index 0
// CHECK: %[[H8:.*]] = arith.index_cast %[[HIGH]] : index to i8
// CHECK: %[[H4:.*]] = arith.muli %[[H8]], %[[FOUR]]
// CHECK: %[[UP:.*]] = arith.subi %[[FOUR]], %[[H4]]
// CHECK: %[[SHL:.*]] = arith.shli %{{.*}}, %[[UP]]
// CHECK: arith.shrsi %[[SHL]], %[[FOUR]]
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[SPREAD]] {{\[\[}}0, 1]] : tensor<2x65xi8> into tensor<130xi8>
// CHECK: %[[W:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [65, 2] : tensor<130xi8> into tensor<65x2xi8>
// CHECK: %[[SCALES:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<3x2xf32>) outs(%{{.*}} : tensor<3x32x2xf32>)
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[SCALES]] {{\[\[}}0, 1], [2]] : tensor<3x32x2xf32> into tensor<96x2xf32>
// CHECK: %[[CUT:.*]] = tensor.extract_slice %[[ROWS]][0, 0] [65, 2] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[W]], %[[CUT]], %{{.*}} : tensor<65x2xi8>, tensor<65x2xf32>, tensor<65x2xi8>)
// CHECK: arith.extsi
// CHECK: arith.sitofp
// CHECK: arith.mulf
func.func @weights_s4(%x: tensor<1x65xf32>) -> tensor<65x2xf32> {
  %w = onnx.Constant dense<[[-8, 7], [1, -1], [2, -2], [3, -3], [4, -4], [5, -5], [6, -6], [7, -7], [0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [-8, 7], [1, -1], [2, -2], [3, -3], [4, -4], [5, -5], [6, -6], [7, -7], [0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [-8, 7], [1, -1], [2, -2], [3, -3], [4, -4], [5, -5], [6, -6], [7, -7], [0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [-8, 7], [1, -1], [2, -2], [3, -3], [4, -4], [5, -5], [6, -6], [7, -7], [0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [-1, 1]]> : tensor<65x2xi4>
  %s = onnx.Constant dense<[[0.5, 0.25], [1.0, 2.0], [4.0, 8.0]]> : tensor<3x2xf32>
  %z = onnx.Constant dense<0> : tensor<3x2xi4>
  %y = onnx.DequantizeLinear(%w, %s, %z) {axis = 0 : i64, block_size = 32 : i64} : (tensor<65x2xi4>, tensor<3x2xf32>, tensor<3x2xi4>) -> tensor<65x2xf32>
  return %y : tensor<65x2xf32>
}

// -----

// uint4, blocks dividing the axis: the nibbles come down logically, x is
// viewed as (rows, blocks, 16) and the (rows, blocks) scales and zero points
// broadcast over each block; the small zero point is a byte per value.
// CHECK-LABEL: func @weights_u4
// CHECK-DAG: %[[ZP:.*]] = arith.constant dense<8> : tensor<2x2xi8>
// CHECK: arith.shrui
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 2, 16] : tensor<2x32xi8> into tensor<2x2x16xi8>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %{{.*}}, %[[ZP]] : tensor<2x2x16xi8>, tensor<2x2xf32>, tensor<2x2xi8>)
// CHECK: arith.extui
// CHECK: tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2]] : tensor<2x2x16xf32> into tensor<2x32xf32>
func.func @weights_u4() -> tensor<2x32xf32> {
  %w = onnx.Constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]> : tensor<2x32xui4>
  %s = onnx.Constant dense<[[0.5, 0.25], [1.0, 2.0]]> : tensor<2x2xf32>
  %z = onnx.Constant dense<8> : tensor<2x2xui4>
  %y = onnx.DequantizeLinear(%w, %s, %z) {axis = 1 : i64, block_size = 16 : i64} : (tensor<2x32xui4>, tensor<2x2xf32>, tensor<2x2xui4>) -> tensor<2x32xf32>
  return %y : tensor<2x32xf32>
}
