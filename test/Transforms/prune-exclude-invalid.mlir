// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.1 exclude=conv_1" -verify-diagnostics
// An excluded node that does not exist is an error listing near matches.

// expected-error @+1 {{onnx-prune: exclude: no node named 'conv_1'; did you mean 'conv1', 'conv11'?}}
module {
  func.func @f(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
    %w = onnx.Constant dense<1.0> : tensor<1x1x1x1xf32>
    %a = onnx.Conv(%x, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32> loc("conv1")
    %b = onnx.Conv(%a, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32> loc("conv11")
    %c = onnx.Relu(%b) : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> loc("relu")
    return %c : tensor<1x1x2x2xf32>
  }
}
