// An image-shaped graph for the calibration tests: the per-channel mean.
func.func @main_graph(%x: tensor<1x3x4x4xf32> {onnx.name = "image"}) -> (tensor<1x3x1x1xf32> {onnx.name = "mean"}) {
  %y = onnx.GlobalAveragePool(%x) : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> loc("pool")
  return %y : tensor<1x3x1x1xf32>
}
