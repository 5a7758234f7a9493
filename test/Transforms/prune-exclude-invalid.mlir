// RUN: onnx-quant-opt %s --onnx-prune="mode=absolute threshold=0.1 exclude=conv_1" -verify-diagnostics
// RUN: not onnx-quant-opt %s --onnx-prune="exclude=conv_1_w" 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: not onnx-quant-opt %s --onnx-prune="exclude=relu,conv" 2>&1 | FileCheck %s --check-prefix=SECOND
// An excluded node that does not exist is an error listing near matches.
// Constants carry their initializer's name but are not nodes: naming one is
// an error, and a name near one suggests the nodes that read it (an old
// model's unnamed nodes get names like 'Conv_0' on import, which a user
// knows by their weights).
// CONSTANT: error: onnx-prune: exclude: no node named 'conv_1_w'; did you mean 'conv1' (reads 'conv_1_w'), 'conv11' (reads 'conv_1_w')?
// SECOND: error: onnx-prune: exclude: no node named 'conv'; did you mean 'conv1', 'conv11'?

// expected-error @+1 {{onnx-prune: exclude: no node named 'conv_1'; did you mean 'conv1' (reads 'conv_1_w'), 'conv11' (reads 'conv_1_w')?}}
module {
  func.func @f(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
    %w = onnx.Constant dense<1.0> : tensor<1x1x1x1xf32> loc("conv_1_w")
    %a = onnx.Conv(%x, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32> loc("conv1")
    %b = onnx.Conv(%a, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32> loc("conv11")
    %c = onnx.Relu(%b) : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> loc("relu")
    return %c : tensor<1x1x2x2xf32>
  }
}
