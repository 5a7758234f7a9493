// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=512" --canonicalize -split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=128" --canonicalize -split-input-file | FileCheck %s --check-prefix=NEON
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize -split-input-file | FileCheck %s --check-prefix=NONE
// vector-bits: a stride-1 convolution whose output rows are short for the
// target's vectors is computed over the padded width. Output pixel (oh, ow)
// is at flat position p = oh * Wp + ow of an accumulator whose rows are as
// wide as the padded input (Wp), which reads the input at p + kh * Wp + kw:
// one loop p across rows. The contraction covers p < (OH - 1) * Wp + OW
// (the last row's extra columns would read past the input): the bias start
// and the contraction run over those positions, whose result is inserted
// into a tensor of whole rows, less its columns past OW.

// 7x7 output, Wp = 9: 7 vectors of 16 lanes by rows, 4 flat (61 positions).
// With 4-lane vectors (NEON) 14 by rows and 16 flat: rows kept.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d3 + d5 * 9 + d6)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d4, d5, d6)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func @conv_7x7
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x61xf32>)
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x1x8x81xf32>, tensor<1x4x8x3x3xf32>) outs(%[[INIT]] : tensor<1x1x4x61xf32>)
// CHECK: %[[ROWS:.*]] = tensor.empty() : tensor<1x1x4x63xf32>
// CHECK: tensor.insert_slice %[[CONV]] into %[[ROWS]][0, 0, 0, 0] [1, 1, 4, 61] [1, 1, 1, 1]
// CHECK: %[[WIDE:.*]] = tensor.expand_shape %{{.*}} output_shape [1, 4, 7, 9]
// CHECK: %[[Y:.*]] = tensor.extract_slice %[[WIDE]][0, 0, 0, 0] [1, 4, 7, 7] [1, 1, 1, 1]
// CHECK: return %[[Y]]
// NEON-LABEL: func @conv_7x7
// NEON-NOT: tensor.extract_slice
// NEON: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x7x7xf32>)
// NONE-LABEL: func @conv_7x7
// NONE-NOT: tensor.extract_slice
// NONE: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x7x7xf32>)
func.func @conv_7x7(%x: tensor<1x8x7x7xf32>, %w: tensor<4x8x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x7x7xf32> {
  %y = onnx.Conv(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x8x7x7xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  return %y : tensor<1x4x7x7xf32>
}

// -----

// Dilation 2 (Wp = 11): the taps step 2 * Wp rows and 2 columns.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d3 + d5 * 22 + d6 * 2)>
// CHECK-LABEL: func @conv_dilated
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x1x121xf32>, tensor<2x1x1x3x3xf32>) outs(%{{.*}} : tensor<1x2x1x73xf32>)
func.func @conv_dilated(%x: tensor<1x2x7x7xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x7x7xf32> {
  %y = onnx.Conv(%x, %w) {pads = [2, 2, 2, 2], dilations = [2, 2], group = 2 : i64} : (tensor<1x2x7x7xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x7x7xf32>
  return %y : tensor<1x2x7x7xf32>
}

// -----

// Rows that fill whole vectors (16 wide), strided windows and unpadded 1x1
// convolutions (the kernel stage merges their rows itself) keep their rows.
// CHECK-LABEL: func @conv_kept
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x16x16xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x8x8xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x16x16xf32>)
// CHECK-NOT: tensor.extract_slice
func.func @conv_kept(%x: tensor<1x4x16x16xf32>, %w: tensor<4x4x3x3xf32>, %w1: tensor<4x4x1x1xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x4x8x8xf32>, tensor<1x4x16x16xf32>) {
  %a = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  %b = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %c = onnx.Conv(%x, %w1) : (tensor<1x4x16x16xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x16x16xf32>
  return %a, %b, %c : tensor<1x4x16x16xf32>, tensor<1x4x8x8xf32>, tensor<1x4x16x16xf32>
}

// -----

// 14x14 (Wp = 16): 14 vectors by rows or flat (222 positions); flat, the
// kernel's tiles get their second vector.
// CHECK-LABEL: func @conv_tie
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x222xf32>)
func.func @conv_tie(%x: tensor<1x4x14x14xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x14x14xf32> {
  %y = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x4x14x14xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x14x14xf32>
  return %y : tensor<1x4x14x14xf32>
}
