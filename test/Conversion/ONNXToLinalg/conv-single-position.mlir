// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize -split-input-file | FileCheck %s
// A convolution with one output position per filter (a squeeze-and-
// excitation 1x1 convolution after global pooling, a window as large as its
// input) is a matrix-vector product per group: loops (n, g, f, c, k...), the
// output (N, G, F/G), contiguous along the filters, and the weights read
// filter-minor, (G, C', K..., F/G): constant weights transposed at compile
// time (dense_resource blobs too), others through a transposing copy.

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d3, d4, d5, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
// CHECK-LABEL: func @squeeze_excite
// CHECK: %[[WT:.*]] = arith.constant dense<{{\[\[\[\[\[}}1.000000e+00, 4.000000e+00]]], {{\[\[}}[2.000000e+00, 5.000000e+00]]], {{\[\[}}[3.000000e+00, 6.000000e+00]]]]]> : tensor<1x3x1x1x2xf32>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %[[WT]] : tensor<1x1x3x1x1xf32>, tensor<1x3x1x1x2xf32>) outs(%{{.*}} : tensor<1x1x2xf32>)
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 2, 1, 1]
func.func @squeeze_excite(%x: tensor<1x3x1x1xf32>, %b: tensor<2xf32>) -> tensor<1x2x1x1xf32> {
  %w = onnx.Constant dense<[[[[1.0]], [[2.0]], [[3.0]]], [[[4.0]], [[5.0]], [[6.0]]]]> : tensor<2x3x1x1xf32>
  %y = onnx.Conv(%x, %w, %b) : (tensor<1x3x1x1xf32>, tensor<2x3x1x1xf32>, tensor<2xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}

// -----

// A window as large as the (padded) input, grouped: taps read at k, two
// groups of 4 filters.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>
// CHECK-LABEL: func @whole_window_grouped
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x3x5x5xf32>, tensor<2x3x5x5x4xf32>) outs(%{{.*}} : tensor<1x2x4xf32>)
func.func @whole_window_grouped(%x: tensor<1x6x3x3xf32>, %w: tensor<8x3x5x5xf32>) -> tensor<1x8x1x1xf32> {
  %y = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1], group = 2 : i64} : (tensor<1x6x3x3xf32>, tensor<8x3x5x5xf32>) -> tensor<1x8x1x1xf32>
  return %y : tensor<1x8x1x1xf32>
}

// -----

// One filter per group (depthwise): no long loop along the filters; the
// usual form.
// CHECK-LABEL: func @depthwise
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x1x1x1xf32>)
func.func @depthwise(%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x1x1xf32> {
  %y = onnx.Conv(%x, %w) {group = 4 : i64} : (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x1x1xf32>
  return %y : tensor<1x4x1x1xf32>
}

// -----

// Weights in a dense_resource blob (the importer keeps tensors above 1 KiB
// so) are transposed at compile time too; weights given at run time go
// through a transposing copy.
// CHECK-LABEL: func @blob_weights
// CHECK: arith.constant dense<{{\[\[\[\[\[}}1.000000e+00, 4.000000e+00]]], {{\[\[}}[2.000000e+00, 5.000000e+00]]], {{\[\[}}[3.000000e+00, 6.000000e+00]]]]]> : tensor<1x3x1x1x2xf32>
// CHECK-LABEL: func @runtime_weights
// CHECK: %[[WT:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x3x1x1xf32>) outs(%{{.*}} : tensor<1x3x1x1x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[WT]] : tensor<1x1x3x1x1xf32>, tensor<1x3x1x1x2xf32>)
func.func @blob_weights(%x: tensor<1x3x1x1xf32>) -> tensor<1x2x1x1xf32> {
  %w = onnx.Constant dense_resource<w> : tensor<2x3x1x1xf32>
  %y = onnx.Conv(%x, %w) : (tensor<1x3x1x1xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}
func.func @runtime_weights(%x: tensor<1x3x1x1xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x1x1xf32> {
  %y = onnx.Conv(%x, %w) : (tensor<1x3x1x1xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
