// x = [1, 0.5] (the sample) on the grid of scale 1/64; W = 127/64 * I is
// exact in int8 (per-channel scale 1/64): weight SQNR +inf. y = [127/64,
// 127/128] in float; quantized, 127/128 is 63.5 steps and rounds half to
// even to 64, so y_q = [127/64, 1]. Activation SQNR = 10 log10(|y|^2 /
// (1/128)^2) = 10 log10(80645) = 49.0658 dB.
func.func @main_graph(%x: tensor<1x2xf32> {onnx.name = "x", onnx.range = array<f32: 0.0, 3.984375>}) -> tensor<1x2xf32> {
  %w = onnx.Constant dense<[[1.984375, 0.0], [0.0, 1.984375]]> : tensor<2x2xf32>
  %y = onnx.Gemm(%x, %w) {onnx.ranges = [array<f32: 0.0, 3.984375>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
  return %y : tensor<1x2xf32>
}
