// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize -split-input-file | FileCheck %s
// ConvInteger and MatMulInteger: each operand widened to int32 less its zero
// point (per tensor, per filter of w, per column of B), the convolution's
// input padded with 0 (its zero point, centered), then a plain int32
// multiply-add contraction.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1, d2, d3) -> ()>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3) -> (d0)>
// CHECK-LABEL: func @conv_integer
// CHECK: %[[X:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]], #[[ID]]], {{.*}} ins(%arg0, %arg2 : tensor<1x4x5x5xi8>, tensor<i8>) outs(%{{.*}} : tensor<1x4x5x5xi32>)
// CHECK:   arith.extui
// CHECK:   arith.extui
// CHECK:   arith.subi
// CHECK: %[[W:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[FILTER]], #[[ID]]], {{.*}} ins(%arg1, %arg3 : tensor<3x4x3x3xi8>, tensor<3xi8>) outs(%{{.*}} : tensor<3x4x3x3xi32>)
// CHECK:   arith.extsi
// CHECK:   arith.extsi
// CHECK:   arith.subi
// CHECK: tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:   tensor.yield %c0_i32
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x3x5x5xi32>)
// CHECK:   arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:   arith.addi
func.func @conv_integer(%x: tensor<1x4x5x5xui8>, %w: tensor<3x4x3x3xi8>, %xz: tensor<ui8>, %wz: tensor<3xi8>) -> tensor<1x3x5x5xi32> {
  %y = onnx.ConvInteger(%x, %w) x_zero_point(%xz) w_zero_point(%wz) {pads = [1, 1, 1, 1]} : (tensor<1x4x5x5xui8>, tensor<3x4x3x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<1x3x5x5xi32>
  return %y : tensor<1x3x5x5xi32>
}

// -----

// A 3-D A is a matrix of its rows; B's zero point per column.
// CHECK-DAG: #[[COLUMN:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @matmul_integer
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{.*}} into tensor<6x4xi8>
// CHECK: linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<6x4xi8>, tensor<i8>) outs(%{{.*}} : tensor<6x4xi32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COLUMN]], #{{.*}}], {{.*}} ins(%arg1, %arg3 : tensor<4x5xi8>, tensor<5xi8>) outs(%{{.*}} : tensor<4x5xi32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<6x5xi32>)
// CHECK:   arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 3, 5]
func.func @matmul_integer(%a: tensor<2x3x4xui8>, %b: tensor<4x5xui8>, %az: tensor<ui8>, %bz: tensor<5xui8>) -> tensor<2x3x5xi32> {
  %y = onnx.MatMulInteger(%a, %b) a_zero_point(%az) b_zero_point(%bz) : (tensor<2x3x4xui8>, tensor<4x5xui8>, tensor<ui8>, tensor<5xui8>) -> tensor<2x3x5xi32>
  return %y : tensor<2x3x5xi32>
}

// -----

// Constant B (what dynamic quantization gives): its zero point subtracted
// at compile time (B' = B - 1 per column), A's -- known when the model runs
// -- joins the accumulator's start as (0 - a_zp) * sum(B') per column
// (B's column sums 0, -1, -4), and the product multiplies the
// 8-bit operands (B' stored as i8).
// CHECK-LABEL: func @matmul_integer_constant_b
// CHECK-DAG: %[[B:.*]] = arith.constant dense<{{\[\[}}0, -1, -2], [0, 0, -1], [0, 0, -1], [0, 0, 0]]> : tensor<4x3xi8>
// CHECK-DAG: %[[SUMS:.*]] = arith.constant dense<[0, -1, -4]> : tensor<3xi32>
// CHECK: %[[START:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[SUMS]] : tensor<i8>, tensor<3xi32>) outs(%{{.*}} : tensor<3xi32>)
// CHECK:   %[[ZP:.*]] = arith.extui
// CHECK:   %[[NEG:.*]] = arith.subi %c0_i32, %[[ZP]] : i32
// CHECK:   arith.muli %[[NEG]], %{{.*}} : i32
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} ins(%[[START]] : tensor<3xi32>) outs(%{{.*}} : tensor<2x3xi32>)
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[B]] : tensor<2x4xi8>, tensor<4x3xi8>) outs(%[[ACC]] : tensor<2x3xi32>)
// CHECK:   arith.extui %{{.*}} : i8 to i32
// CHECK:   arith.extsi %{{.*}} : i8 to i32
func.func @matmul_integer_constant_b(%a: tensor<2x4xui8>, %az: tensor<ui8>) -> tensor<2x3xi32> {
  %b = onnx.Constant dense<[[1, 0, -1], [1, 1, 0], [1, 1, 0], [1, 1, 1]]> : tensor<4x3xi8>
  %bz = onnx.Constant dense<[1, 1, 1]> : tensor<3xi8>
  %y = onnx.MatMulInteger(%a, %b) a_zero_point(%az) b_zero_point(%bz) : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}
