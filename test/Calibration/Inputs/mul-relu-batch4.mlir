// mul-relu.mlir with a batch dimension of 4: y = relu(x * [1, -2, 3, -4]).
func.func @main_graph(%x: tensor<4x4xf32> {onnx.name = "x"}) -> (tensor<4x4xf32> {onnx.name = "y"}) {
  %c = onnx.Constant dense<[[1.0, -2.0, 3.0, -4.0]]> : tensor<1x4xf32>
  %m = onnx.Mul(%x, %c) : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<4x4xf32> loc("mul")
  %y = onnx.Relu(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc("relu")
  return %y : tensor<4x4xf32>
}
