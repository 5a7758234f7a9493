// Two Gemms. The samples (x in [-3, 3]) reach y = x, but the last Gemm's
// range says [-1, 1] (as if calibrated on quieter data): quantized, y
// saturates at +-1. Kept in float, y has only the rounding of its
// quantized input h (range [-4, 4], steps of 8/255). Keeping `hidden` in
// float changes little: h stays quantized for `last`.
func.func @main_graph(%x: tensor<1x4xf32> {onnx.name = "x", onnx.range = array<f32: -4.0, 4.0>}) -> tensor<1x4xf32> {
  %w1 = onnx.Constant dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]> : tensor<4x4xf32>
  %h = onnx.Gemm(%x, %w1) {onnx.ranges = [array<f32: -4.0, 4.0>]} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32> loc("hidden")
  %w2 = onnx.Constant dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]> : tensor<4x4xf32>
  %y = onnx.Gemm(%h, %w2) {onnx.ranges = [array<f32: -1.0, 1.0>]} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32> loc("last")
  return %y : tensor<1x4xf32>
}
