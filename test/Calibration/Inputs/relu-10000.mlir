// A 10000-element activation for the range-method tests.
func.func @main_graph(%x: tensor<1x10000xf32> {onnx.name = "x"}) -> (tensor<1x10000xf32> {onnx.name = "y"}) {
  %y = onnx.Relu(%x) : (tensor<1x10000xf32>) -> tensor<1x10000xf32> loc("relu")
  return %y : tensor<1x10000xf32>
}
