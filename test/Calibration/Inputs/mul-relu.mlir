// A graph for the calibration tests: y = relu(x * [1, -2, 3, -4]).
func.func @main_graph(%x: tensor<1x4xf32> {onnx.name = "x"}) -> (tensor<1x4xf32> {onnx.name = "y"}) {
  %c = onnx.Constant dense<[[1.0, -2.0, 3.0, -4.0]]> : tensor<1x4xf32>
  %m = onnx.Mul(%x, %c) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> loc("mul")
  %y = onnx.Relu(%m) : (tensor<1x4xf32>) -> tensor<1x4xf32> loc("relu")
  return %y : tensor<1x4xf32>
}
