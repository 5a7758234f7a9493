// A two-input graph for the calibration tests: y = relu(a * b), b broadcast.
func.func @main_graph(%a: tensor<1x4xf32> {onnx.name = "a"}, %b: tensor<1x1xf32> {onnx.name = "b"}) -> (tensor<1x4xf32> {onnx.name = "y"}) {
  %m = onnx.Mul(%a, %b) : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32> loc("mul")
  %y = onnx.Relu(%m) : (tensor<1x4xf32>) -> tensor<1x4xf32> loc("relu")
  return %y : tensor<1x4xf32>
}
