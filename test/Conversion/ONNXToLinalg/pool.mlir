// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// Max pooling pads with -inf.
// CHECK-LABEL: func @maxpool
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[NEGINF]]
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
func.func @maxpool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = onnx.MaxPool(%x) {kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// The divisor table excludes padding unless count_include_pad is set.
// CHECK-LABEL: func @avgpool_exclude_pad
// CHECK: linalg.pooling_nchw_sum
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

// The reduction writes (N, C); a reshape restores the unit dims.
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func @global_average
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}{{.*}}outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<1x3x1x1xf32>
// CHECK: arith.constant 1.600000e+01 : f32
func.func @global_average(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> {
  %0 = onnx.GlobalAveragePool(%x) : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}
