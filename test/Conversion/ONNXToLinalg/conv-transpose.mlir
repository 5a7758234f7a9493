// RUN: onnx-quant-opt %s --convert-onnx-to-linalg | FileCheck %s

// full = 2 * (3 - 1) + 1 + (3 - 1) + 1 = 8; the output is its window
// [1, 7) after the pads. Each of the 9 taps adds one contraction over the
// input channels into the strided slice (offset k, stride 2) of the full
// accumulator; the bias is added per channel at the end.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3, d4)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d5, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @conv_transpose
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 4, 1, 1] [1, 1, 1, 1] : tensor<2x4x3x3xf32> to tensor<2x4x1x1xf32>
// CHECK: tensor.extract_slice %[[ACC]][0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 2, 2] : tensor<1x4x8x8xf32> to tensor<1x4x3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK:   arith.mulf
// CHECK:   arith.addf
// CHECK: %[[ACC1:.*]] = tensor.insert_slice %{{.*}} into %[[ACC]][0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[ACC1]][0, 0, 0, 1] [1, 4, 3, 3] [1, 1, 2, 2]
// CHECK-COUNT-8: tensor.insert_slice
// CHECK: %[[Y:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x6x6xf32>
// CHECK: linalg.generic {{.*}} ins(%[[Y]], %{{.*}} : tensor<1x4x6x6xf32>, tensor<4xf32>)
// CHECK:   arith.addf
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %0 = onnx.ConvTranspose(%x, %w, %b) {strides = [2, 2], pads = [1, 1, 1, 1], output_padding = [1, 1]} : (tensor<1x2x3x3xf32>, tensor<2x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
