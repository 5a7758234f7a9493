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
