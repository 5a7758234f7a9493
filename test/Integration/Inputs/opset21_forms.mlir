func.func @main_graph(%x: tensor<1x4x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x1x1x1xf32>, tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x4xf32>) {
  %p:2 = onnx.Split(%x) {axis = 1 : i64} : (tensor<1x4x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>)
  %a = onnx.ReduceMax(%x) : (tensor<1x4x3x3xf32>) -> tensor<1x1x1x1xf32>
  %s = onnx.Constant dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf32>
  %b = onnx.Constant dense<[0.0, 0.1, 0.2, 0.3]> : tensor<4xf32>
  %g = onnx.GroupNormalization(%x, %s, %b) {num_groups = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %e = onnx.Gelu(%x) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %m = onnx.Mish(%x) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %r = onnx.ReduceL2(%x) {axes = [2, 3], keepdims = 0 : i64} : (tensor<1x4x3x3xf32>) -> tensor<1x4xf32>
  return %p#1, %a, %g, %e, %m, %r : tensor<1x2x3x3xf32>, tensor<1x1x1x1xf32>, tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x4xf32>
}
