// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// Nearest, 2x upsampling with asymmetric coordinates and floor rounding: the
// source index of each output index is a compile-time table.
// CHECK-LABEL: func @nearest_upsample
// CHECK-DAG: arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// CHECK: linalg.generic
// CHECK:   linalg.index 2
// CHECK:   tensor.extract %{{.*}}[%{{.*}}] : tensor<4xi64>
// CHECK:   tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x1x2x2xf32>
func.func @nearest_upsample(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %scales = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = onnx.Resize(%x) scales(%scales) {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Linear with half-pixel coordinates: low/high index and weight tables, four
// corners blended for the two resized axes.
// CHECK-LABEL: func @linear_sizes
// CHECK-DAG: arith.constant dense<[0, 0, 0, 1]> : tensor<4xi64>
// CHECK-DAG: arith.constant dense<1> : tensor<4xi64>
// CHECK-DAG: arith.constant dense<[0.000000e+00, 2.500000e-01, 7.500000e-01, 0.000000e+00]> : tensor<4xf32>
// CHECK: linalg.generic
// CHECK-COUNT-4: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x1x2x2xf32>
func.func @linear_sizes(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %sizes = onnx.Constant dense<[1, 1, 4, 4]> : tensor<4xi64>
  %0 = onnx.Resize(%x) sizes(%sizes) {mode = "linear"} : (tensor<1x1x2x2xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// half_pixel_symmetric (opset 19) centers the grid: 4 -> floor(4 * 0.6) = 2
// samples at 0.667 and 2.333 (half_pixel would give 0.333 and 2.0).
// CHECK-LABEL: func @half_pixel_symmetric
// CHECK-DAG: arith.constant dense<[0, 2]> : tensor<2xi64>
// CHECK-DAG: arith.constant dense<[1, 3]> : tensor<2xi64>
// CHECK-DAG: arith.constant dense<[0.66{{[0-9]+}}, 0.33{{[0-9]+}}]> : tensor<2xf32>
func.func @half_pixel_symmetric(%x: tensor<1x1x1x4xf32>) -> tensor<1x1x1x2xf32> {
  %scales = onnx.Constant dense<[1.0, 1.0, 1.0, 0.6]> : tensor<4xf32>
  %0 = onnx.Resize(%x) scales(%scales) {mode = "linear", coordinate_transformation_mode = "half_pixel_symmetric"} : (tensor<1x1x1x4xf32>, tensor<4xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

// tf_crop_and_resize samples the region of interest; outputs whose source
// lies outside the input (byte flags per axis, any axis) take
// extrapolation_value.
// CHECK-LABEL: func @crop_and_resize
// CHECK-DAG: %[[ROWS_OUT:.*]] = arith.constant dense<[0, 0, 1]> : tensor<3xi8>
// CHECK-DAG: %[[COLS_OUT:.*]] = arith.constant dense<[0, 1, 1]> : tensor<3xi8>
// CHECK-DAG: arith.constant dense<[1, 2, 3]> : tensor<3xi64>
// CHECK-DAG: arith.constant dense<[1, 3, 3]> : tensor<3xi64>
// CHECK: linalg.generic
// CHECK-DAG: tensor.extract %[[ROWS_OUT]]
// CHECK-DAG: tensor.extract %[[COLS_OUT]]
// CHECK: %[[ANY:.*]] = arith.ori
// CHECK: %[[EXTRAPOLATED:.*]] = arith.constant 1.000000e+01 : f32
// CHECK: arith.select %[[ANY]], %[[EXTRAPOLATED]], %{{.*}} : f32
func.func @crop_and_resize(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %roi = onnx.Constant dense<[0.0, 0.0, 0.4, 0.6, 1.0, 1.0, 1.2, 1.7]> : tensor<8xf32>
  %sizes = onnx.Constant dense<[1, 1, 3, 3]> : tensor<4xi64>
  %0 = onnx.Resize(%x) roi(%roi) sizes(%sizes) {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 10.0 : f32} : (tensor<1x1x4x4xf32>, tensor<8xf32>, tensor<4xi64>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}
