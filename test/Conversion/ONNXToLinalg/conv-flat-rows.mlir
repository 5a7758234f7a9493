// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=512" --canonicalize -split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=128" --canonicalize -split-input-file | FileCheck %s --check-prefix=NEON
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize -split-input-file | FileCheck %s --check-prefix=NONE
// vector-bits: a convolution whose output rows are short for the target's
// vectors is computed with its rows flattened. Stride 1: output pixel (oh,
// ow) is at flat position p = oh * Wp + ow of an accumulator whose rows are
// as wide as the padded input (Wp), which reads the input at p + kh * Wp +
// kw: one loop p across rows. The contraction covers p < (OH - 1) * Wp + OW
// (the last row's extra columns would read past the input): the bias start
// and the contraction run over those positions, whose result is inserted
// into a tensor of whole rows, less its columns past OW. Strided ones read
// 2 * p, over the padded input or over its rows gathered per tap row.

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

// Rows that fill whole vectors (16 wide) and unpadded 1x1 convolutions (the
// kernel stage merges their rows itself) keep their rows.
// CHECK-LABEL: func @conv_kept
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x16x16xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x16x16xf32>)
// CHECK-NOT: tensor.extract_slice
func.func @conv_kept(%x: tensor<1x4x16x16xf32>, %w: tensor<4x4x3x3xf32>, %w1: tensor<4x4x1x1xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>) {
  %a = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  %c = onnx.Conv(%x, %w1) : (tensor<1x4x16x16xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x16x16xf32>
  return %a, %c : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>
}

// -----

// Stride 2, 7x7 output of a 16-wide padded input: 7 vectors by rows, 7 flat
// over the padded input (its rows are read two at a time: pitch 16), 4 flat
// over the input rows each tap row reads, gathered as (KH, OH, 16) = (3, 7,
// 16): pitch 8, p read at 2 * p + kh * 7 * 16 + kw (55 positions).
// CHECK-DAG: #[[GATHER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4 * 2 + d3, d5)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d3 * 2 + d5 * 112 + d6)>
// CHECK-LABEL: func @conv_gathered
// CHECK: %[[ROWS:.*]] = linalg.generic {indexing_maps = [#[[GATHER]], {{.*}} ins(%{{.*}} : tensor<1x1x8x16x16xf32>) outs(%{{.*}} : tensor<1x1x8x3x7x16xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[ROWS]] {{.*}} into tensor<1x1x8x336xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.*}} ins(%[[FLAT]], %{{.*}} : tensor<1x1x8x336xf32>, tensor<1x8x8x3x3xf32>) outs(%{{.*}} : tensor<1x1x8x55xf32>)
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 8, 7, 8]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 8, 7, 7] [1, 1, 1, 1]
func.func @conv_gathered(%x: tensor<1x8x14x14xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %y = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x8x14x14xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  return %y : tensor<1x8x7x7xf32>
}

// -----

// Stride 2 on an 11-wide padded input: gathered rows would be 12 wide, past
// the input, so the flat loop runs over the padded input, pitch 11 (49
// positions, 4 vectors; 5 by rows). A depthwise convolution (one filter per
// group) does not gather: the copy would cost more than the lanes it saves;
// its 7x7 output ties (7 vectors) over the padded input.
// CHECK-DAG: #[[ODD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d3 * 2 + d5 * 11 + d6)>
// CHECK-DAG: #[[DW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d3 * 2 + d5 * 16 + d6)>
// CHECK-LABEL: func @conv_strided_padded
// CHECK-NOT: tensor<1x1x8x3x
// CHECK: linalg.generic {indexing_maps = [#[[ODD]], {{.*}} outs(%{{.*}} : tensor<1x1x8x49xf32>)
// CHECK-NOT: tensor<1x8x1x3x
// CHECK: linalg.generic {indexing_maps = [#[[DW]], {{.*}} outs(%{{.*}} : tensor<1x8x1x103xf32>)
func.func @conv_strided_padded(%x: tensor<1x8x9x9xf32>, %w: tensor<8x8x3x3xf32>, %x14: tensor<1x8x14x14xf32>, %dw: tensor<8x1x3x3xf32>) -> (tensor<1x8x5x5xf32>, tensor<1x8x7x7xf32>) {
  %a = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x8x9x9xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x5x5xf32>
  %b = onnx.Conv(%x14, %dw) {pads = [1, 1, 1, 1], strides = [2, 2], group = 8 : i64} : (tensor<1x8x14x14xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x7x7xf32>
  return %a, %b : tensor<1x8x5x5xf32>, tensor<1x8x7x7xf32>
}

// -----

// A 28x28 stride-2 output (two vectors a row) keeps its rows: 56 vectors,
// 51 gathered, and the copy costs more.
// CHECK-LABEL: func @conv_wide_strided
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x8x28x28xf32>)
func.func @conv_wide_strided(%x: tensor<1x8x56x56xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x28x28xf32> {
  %y = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x8x56x56xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x28x28xf32>
  return %y : tensor<1x8x28x28xf32>
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
