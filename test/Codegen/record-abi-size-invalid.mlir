// RUN: onnx-quant-opt %s --onnxq-record-abi="entry=m" -split-input-file -verify-diagnostics

// 2^33 x 2^33 elements: num_elements in the header used to wrap to 0.
module {
  // expected-error @+1 {{graph input/output 'x' ('tensor<8589934592x8589934592xf32>') is larger than a 64-bit size can hold}}
  func.func @main_graph(%x: tensor<8589934592x8589934592xf32> {onnx.name = "x"}) -> tensor<1xf32> {
    %c = arith.constant dense<0.0> : tensor<1xf32>
    return %c : tensor<1xf32>
  }
}

// -----

// An output too: 2^61 doubles are 2^64 bytes.
module {
  // expected-error @+1 {{graph input/output 'y' ('tensor<2305843009213693952xf64>') is larger than a 64-bit size can hold}}
  func.func @main_graph(%x: tensor<1xf64> {onnx.name = "x"}) -> (tensor<2305843009213693952xf64> {onnx.name = "y"}) {
    %y = tensor.empty() : tensor<2305843009213693952xf64>
    return %y : tensor<2305843009213693952xf64>
  }
}
