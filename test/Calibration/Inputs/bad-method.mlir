// expected-error @+1 {{onnx-calibrate: method='kl' is not one of minmax, entropy, percentile, mse}}
module {
  func.func @main_graph(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    return %x : tensor<1x4xf32>
  }
}
