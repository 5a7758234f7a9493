// y = relu(x * w^T + b).
func.func @main_graph(%x: tensor<4x256xf32> {onnx.name = "x"}, %w: tensor<64x256xf32> {onnx.name = "w"}) -> (tensor<4x64xf32> {onnx.name = "y"}) {
  %b = onnx.Constant dense<0.25> : tensor<64xf32>
  %0 = onnx.Gemm(%x, %w, %b) {transB = 1 : i64} : (tensor<4x256xf32>, tensor<64x256xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %1 = onnx.Relu(%0) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %1 : tensor<4x64xf32>
}
