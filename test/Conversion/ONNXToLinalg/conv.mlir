// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// A 3x3 convolution is one contraction over loops (n, g, f, oh, ow, c, kh,
// kw) that reads the padded input at (oh * 2 + kh, ow * 2 + kw) and
// accumulates into the bias-initialized output: every tap and input channel
// of an output element in one place, so the kernel stage keeps it in a
// register until it is stored once.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @conv_pads_bias
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x1x3x10x10xf32>, tensor<1x4x3x3x3xf32>) outs(%{{.*}} : tensor<1x1x4x4x4xf32>)
// CHECK:   arith.mulf
// CHECK:   arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %{{.*}} : tensor<1x4x4x4xf32>
func.func @conv_pads_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = onnx.Conv(%x, %w, %b) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// SAME_UPPER puts the odd padding at the end.
// CHECK-LABEL: func @conv_same_upper
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: linalg.generic {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x1x1x5x5xf32>, tensor<1x1x1x2x2xf32>)
func.func @conv_same_upper(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %0 = onnx.Conv(%x, %w) {auto_pad = "SAME_UPPER"} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Depthwise: eight groups of one channel each.
// CHECK-LABEL: func @conv_depthwise
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x1x6x6xf32>, tensor<8x1x1x3x3xf32>) outs(%{{.*}} : tensor<1x8x1x4x4xf32>)
func.func @conv_depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = onnx.Conv(%x, %w) {group = 8 : i64} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// 1-D convolutions need no unit height; dilation spaces the taps.
// CHECK-DAG: #[[IN1:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 + d5 * 2)>
// CHECK-DAG: #[[W1:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-DAG: #[[OUT1:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func @conv_1d
// CHECK: linalg.generic {indexing_maps = [#[[IN1]], #[[W1]], #[[OUT1]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: return %{{.*}} : tensor<1x3x6xf32>
func.func @conv_1d(%x: tensor<1x2x10xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x3x6xf32> {
  %0 = onnx.Conv(%x, %w) {dilations = [2]} : (tensor<1x2x10xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}

// -----

// 3-D: loops (n, g, f, od, oh, ow, c, kd, kh, kw); the window is strided in
// all three dims.
// CHECK-DAG: #[[IN3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 * 2 + d7, d4 * 2 + d8, d5 * 2 + d9)>
// CHECK-DAG: #[[W3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d1, d2, d6, d7, d8, d9)>
// CHECK-DAG: #[[OUT3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func @conv_3d
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 1, 0] high[0, 0, 0, 1, 0]
// CHECK: linalg.generic {indexing_maps = [#[[IN3]], #[[W3]], #[[OUT3]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK-NOT: linalg.generic
// CHECK: return %{{.*}} : tensor<1x4x2x3x3xf32>
func.func @conv_3d(%x: tensor<1x2x5x6x7xf32>, %w: tensor<4x2x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x3x3xf32> {
  %0 = onnx.Conv(%x, %w, %b) {pads = [0, 1, 0, 0, 1, 0], strides = [2, 2, 2]} : (tensor<1x2x5x6x7xf32>, tensor<4x2x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x3x3xf32>
  return %0 : tensor<1x4x2x3x3xf32>
}
