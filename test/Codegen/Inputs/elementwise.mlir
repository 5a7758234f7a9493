// z = relu(x * y + x): element-wise ops, fused into one loop nest.
func.func @main_graph(%x: tensor<4x256xf32> {onnx.name = "x"}, %y: tensor<4x256xf32> {onnx.name = "y"}) -> (tensor<4x256xf32> {onnx.name = "z"}) {
  %0 = onnx.Mul(%x, %y) : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
  %1 = onnx.Add(%0, %x) : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
  %2 = onnx.Relu(%1) : (tensor<4x256xf32>) -> tensor<4x256xf32>
  return %2 : tensor<4x256xf32>
}
