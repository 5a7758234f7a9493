// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// A 3x3 convolution is nine 1x1 contractions over strided windows of the
// padded input, accumulating into the bias-initialized output.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3, d4)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @conv_pads_bias
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 2, 2] : tensor<1x3x10x10xf32> to tensor<1x3x4x4xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [4, 3, 1, 1] [1, 1, 1, 1] : tensor<4x3x3x3xf32> to tensor<4x3x1x1xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK:   arith.mulf
// CHECK:   arith.addf
// CHECK-COUNT-8: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]]
// CHECK: return %{{.*}} : tensor<1x4x4x4xf32>
func.func @conv_pads_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = onnx.Conv(%x, %w, %b) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// SAME_UPPER puts the odd padding at the end.
// CHECK-LABEL: func @conv_same_upper
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK-COUNT-4: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @conv_same_upper(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %0 = onnx.Conv(%x, %w) {auto_pad = "SAME_UPPER"} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Depthwise: eight groups of one channel each.
// CHECK-LABEL: func @conv_depthwise
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x1x4x4xf32>, tensor<8x1x1xf32>) outs(%{{.*}} : tensor<1x8x1x4x4xf32>)
func.func @conv_depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = onnx.Conv(%x, %w) {group = 8 : i64} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// 1-D convolutions need no unit height; dilation spaces the taps.
// CHECK-DAG: #[[IN1:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG: #[[W1:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// CHECK-DAG: #[[OUT1:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func @conv_1d
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [1, 2, 6] [1, 1, 1] : tensor<1x2x10xf32> to tensor<1x2x6xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN1]], #[[W1]], #[[OUT1]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 2] [1, 2, 6] [1, 1, 1]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 4] [1, 2, 6] [1, 1, 1]
// CHECK: return %{{.*}} : tensor<1x3x6xf32>
func.func @conv_1d(%x: tensor<1x2x10xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x3x6xf32> {
  %0 = onnx.Conv(%x, %w) {dilations = [2]} : (tensor<1x2x10xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}

// -----

// 3-D: one contraction per tap of the 2x3x3 kernel (18), over loops
// (n, g, f, od, oh, ow, c); the windows are strided in all three dims.
// CHECK-DAG: #[[IN3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d6, d3, d4, d5)>
// CHECK-DAG: #[[W3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d6)>
// CHECK-DAG: #[[OUT3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func @conv_3d
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 1, 0] high[0, 0, 0, 1, 0]
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 0, 0, 0] [1, 2, 2, 3, 3] [1, 1, 2, 2, 2] : tensor<1x2x5x8x7xf32> to tensor<1x2x2x3x3xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [4, 2, 1, 1, 1] [1, 1, 1, 1, 1] : tensor<4x2x2x3x3xf32> to tensor<4x2x1x1x1xf32>
// CHECK-COUNT-18: linalg.generic {indexing_maps = [#[[IN3]], #[[W3]], #[[OUT3]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-NOT: linalg.generic
// CHECK: return %{{.*}} : tensor<1x4x2x3x3xf32>
func.func @conv_3d(%x: tensor<1x2x5x6x7xf32>, %w: tensor<4x2x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x3x3xf32> {
  %0 = onnx.Conv(%x, %w, %b) {pads = [0, 1, 0, 0, 1, 0], strides = [2, 2, 2]} : (tensor<1x2x5x6x7xf32>, tensor<4x2x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x3x3xf32>
  return %0 : tensor<1x4x2x3x3xf32>
}
