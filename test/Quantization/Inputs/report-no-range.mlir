// The second Gemm reads a tensor created after calibration (no range).
func.func @main_graph(%x: tensor<1x2xf32> {onnx.range = array<f32: 0.0, 1.0>}) -> tensor<1x2xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x2xf32>
  %y = onnx.Gemm(%x, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
  %n = onnx.Neg(%y) : (tensor<1x2xf32>) -> tensor<1x2xf32> loc("neg")
  %z = onnx.Gemm(%n, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm2")
  return %z : tensor<1x2xf32>
}
