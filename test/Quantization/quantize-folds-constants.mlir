// RUN: onnx-quant-opt %s --onnx-quantize | FileCheck %s
// A weight computed from constants (a Reshape of the stored weights, as in
// exported CNTK models) is folded and quantized like a constant weight; it
// needs no calibrated range. The folded inputs go (no unused initializer in
// an --emit=onnx export).
// CHECK-LABEL: func @reshaped_weights
// CHECK-NOT: onnx.Reshape
// CHECK-NOT: tensor<2x2x2xf32>
// CHECK-NOT: dense<[4, 2]>
// CHECK: %[[W:.*]] = onnx.DequantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x2xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<4x2xf32>
// CHECK: onnx.MatMul(%{{.*}}, %[[W]])
module attributes {onnx.calibration = {method = "minmax", samples = 1 : i64}} {
  func.func @reshaped_weights(%x: tensor<1x4xf32> {onnx.range = array<f32: -1.0, 1.0>}) -> tensor<1x2xf32> {
    %w = onnx.Constant dense<[[[0.5, -1.0], [0.25, 0.75]], [[1.0, -0.5], [0.125, 2.0]]]> : tensor<2x2x2xf32>
    %shape = onnx.Constant dense<[4, 2]> : tensor<2xi64>
    %r = onnx.Reshape(%w, %shape) : (tensor<2x2x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
    %y = onnx.MatMul(%x, %r) {onnx.ranges = [array<f32: -3.0, 3.0>]} : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
    return %y : tensor<1x2xf32>
  }
}
