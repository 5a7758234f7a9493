// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=256" --canonicalize -split-input-file | FileCheck %s --check-prefix=VECTORS

// Max pooling pads with -inf; the window operand gives the (kh, kw) loops
// their extent, as in linalg.pooling_nchw_max.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func @maxpool
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[NEGINF]]
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PAD]], %[[WINDOW]] : tensor<1x2x6x6xf32>, tensor<3x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.maximumf %[[ACC]], %[[IN]] : f32
func.func @maxpool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = onnx.MaxPool(%x) {kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// The divisor table excludes padding unless count_include_pad is set.
// CHECK-LABEL: func @avgpool_exclude_pad
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.addf
// CHECK: arith.constant dense<{{\[}}[4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<3x3xf32>
// CHECK: arith.divf
func.func @avgpool_exclude_pad(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = onnx.AveragePool(%x) {kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// CHECK-LABEL: func @avgpool_include_pad
// CHECK: arith.constant dense<9.000000e+00> : tensor<3x3xf32>
func.func @avgpool_include_pad(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = onnx.AveragePool(%x) {count_include_pad = 1 : i64, kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// ceil_mode adds a partial last window (padded beyond the input, not counted).
// CHECK-LABEL: func @avgpool_ceil
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: arith.constant dense<{{\[}}[4.000000e+00, 2.000000e+00], [2.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
func.func @avgpool_ceil(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %0 = onnx.AveragePool(%x) {ceil_mode = 1 : i64, kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// uint8 max pooling starts from the unsigned minimum and compares unsigned.
// CHECK-LABEL: func @maxpool_uint8
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK: linalg.fill ins(%[[ZERO]] : i8)
// CHECK: linalg.generic
// CHECK: arith.maxui
func.func @maxpool_uint8(%x: tensor<1x1x4x4xui8>) -> tensor<1x1x3x3xui8> {
  %0 = onnx.MaxPool(%x) {kernel_shape = [2, 2]} : (tensor<1x1x4x4xui8>) -> tensor<1x1x3x3xui8>
  return %0 : tensor<1x1x3x3xui8>
}

// -----

// 1-D windows need no unit height.
// CHECK-DAG: #[[X1:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2 + d3 * 2)>
// CHECK-LABEL: func @maxpool_1d
// CHECK: linalg.generic {indexing_maps = [#[[X1]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @maxpool_1d(%x: tensor<1x3x9xf32>) -> tensor<1x3x4xf32> {
  %0 = onnx.MaxPool(%x) {dilations = [2], kernel_shape = [2], strides = [2]} : (tensor<1x3x9xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

// AveragePool-19's dilations space the taps as MaxPool's do; the divisor
// table counts the taps inside the input: 3x3 taps two apart with pads 1
// cover 2x2 real elements at the corner, 3x3 in the middle.
// CHECK-DAG: #[[XD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4 * 2, d3 + d5 * 2)>
// CHECK-LABEL: func @averagepool_dilations
// CHECK: linalg.generic {indexing_maps = [#[[XD]],
// CHECK: arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00
func.func @averagepool_dilations(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32> {
  %0 = onnx.AveragePool(%x) {dilations = [2, 2], kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// 3-D: three window loops; the divisor table has one entry per output
// position (the padded end windows count fewer elements).
// CHECK-DAG: #[[X3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-DAG: #[[WIN3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>
// CHECK-DAG: #[[OUT3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @avgpool_3d
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0, 0] high[0, 0, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[X3]], #[[WIN3]], #[[OUT3]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.constant dense<{{\[}}{{\[}}[8.000000e+00, 4.000000e+00], [4.000000e+00, 2.000000e+00]], {{\[}}[4.000000e+00, 2.000000e+00], [2.000000e+00, 1.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK: arith.divf
func.func @avgpool_3d(%x: tensor<1x1x3x3x3xf32>) -> tensor<1x1x2x2x2xf32> {
  %0 = onnx.AveragePool(%x) {kernel_shape = [2, 2, 2], pads = [0, 0, 0, 1, 1, 1], strides = [2, 2, 2]} : (tensor<1x1x3x3x3xf32>) -> tensor<1x1x2x2x2xf32>
  return %0 : tensor<1x1x2x2x2xf32>
}

// -----

// The (N * C) rows of H * W elements reduce into (N * C); a reshape restores
// the unit dims. Without vectors, in one pass along each row.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @global_average
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}{{.*}}ins(%{{.*}} : tensor<3x20xf32>) outs(%{{.*}} : tensor<3xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<1x3x1x1xf32>
// CHECK: arith.constant 2.000000e+01 : f32
// VECTORS-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// VECTORS-DAG: #[[PARTIAL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// VECTORS-LABEL: func @global_average
// VECTORS: %[[X:.*]] = tensor.extract_slice %{{.*}}[0, 0] [3, 16] [1, 1] : tensor<3x20xf32> to tensor<3x16xf32>
// VECTORS: %[[BLOCKS:.*]] = tensor.expand_shape %[[X]] {{.*}} into tensor<3x2x8xf32>
// VECTORS: %[[P:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[PARTIAL]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[BLOCKS]] : tensor<3x2x8xf32>) outs(%{{.*}} : tensor<3x8xf32>)
// VECTORS: %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<3x8xf32>) outs(%{{.*}} : tensor<3xf32>)
// VECTORS: %[[TAIL:.*]] = tensor.extract_slice %{{.*}}[0, 16] [3, 4] [1, 1] : tensor<3x20xf32> to tensor<3x4xf32>
// VECTORS: linalg.generic {{.*}} ins(%[[TAIL]] : tensor<3x4xf32>) outs(%[[S]] : tensor<3xf32>)
func.func @global_average(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32> {
  %0 = onnx.GlobalAveragePool(%x) : (tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// MaxPool's Indices: the window's first maximum (strictly greater moves it)
// and its flat index in the unpadded input, computed from the loop indices:
// here column-major (storage_order 1): (n*C + c)*W*H + w*H + h, with
// h = oh*2 + kh - 1 and w = ow*2 + kw - 1 (pads 1).
// CHECK-LABEL: func @maxpool_indices
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32, %[[BEST:.*]]: f32, %[[BESTI:.*]]: i64):
// CHECK: %[[OW:.*]] = linalg.index 3
// CHECK: %[[KW:.*]] = linalg.index 5
// CHECK: %[[OH:.*]] = linalg.index 2
// CHECK: %[[KH:.*]] = linalg.index 4
// CHECK: %[[BETTER:.*]] = arith.cmpf ogt, %[[X]], %[[BEST]]
// CHECK: %[[FLAT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[V:.*]] = arith.select %[[BETTER]], %[[X]], %[[BEST]]
// CHECK: %[[I:.*]] = arith.select %[[BETTER]], %[[FLAT]], %[[BESTI]]
// CHECK: linalg.yield %[[V]], %[[I]]
func.func @maxpool_indices(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>) {
  %y, %i = onnx.MaxPool(%x) {kernel_shape = [2, 2], pads = [1, 1, 1, 1], strides = [2, 2], storage_order = 1 : i64} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  return %y, %i : tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>
}
