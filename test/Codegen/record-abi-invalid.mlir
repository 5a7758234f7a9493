// RUN: onnx-quant-opt %s --onnxq-record-abi="entry=1bad" -verify-diagnostics

// expected-error @+1 {{entry name '1bad' is not a C identifier (use --entry=NAME)}}
module {
  func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
