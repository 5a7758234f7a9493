// RUN: onnx-quant-opt %s --onnxq-record-abi="entry=m" --onnxq-check-indices -split-input-file -verify-diagnostics

// A constant index past the end compiled into an object that read outside
// its buffer: now an error naming the index, its position and the range.
func.func @main_graph(%x: tensor<5x3xf32> {onnx.name = "x"}) -> (tensor<2x2x3xf32> {onnx.name = "y"}) {
  %i = onnx.Constant dense<[[0, 1], [4, 5]]> : tensor<2x2xi64>
  // expected-error @+1 {{index 5 at [1, 1] of the indices is out of range for its axis (size 5): indices must lie in [-5, 4]}}
  %y = onnx.Gather(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  return %y : tensor<2x2x3xf32>
}

// -----

func.func @main_graph(%x: tensor<5x3xf32> {onnx.name = "x"}) -> (tensor<5x3xf32> {onnx.name = "y"}) {
  %i = onnx.Constant dense<-4> : tensor<5x3xi64>
  // expected-error @+1 {{index -4 at [0, 0] of the indices is out of range for its axis (size 3): indices must lie in [-3, 2]}}
  %y = onnx.GatherElements(%x, %i) {axis = 1 : i64} : (tensor<5x3xf32>, tensor<5x3xi64>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

func.func @main_graph(%x: tensor<4x6xf32> {onnx.name = "x"}, %u: tensor<1xf32> {onnx.name = "u"}) -> (tensor<4x6xf32> {onnx.name = "y"}) {
  %i = onnx.Constant dense<[[3, 6]]> : tensor<1x2xi64>
  // expected-error @+1 {{index 6 at [0, 1] of the indices is out of range for dim 1 of the data (size 6): indices must lie in [-6, 5]}}
  %y = onnx.ScatterND(%x, %i, %u) : (tensor<4x6xf32>, tensor<1x2xi64>, tensor<1xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

func.func @main_graph(%x: tensor<4xf32> {onnx.name = "x"}, %u: tensor<1xf32> {onnx.name = "u"}) -> (tensor<4xf32> {onnx.name = "y"}) {
  %i = onnx.Constant dense<[9]> : tensor<1xi64>
  // expected-error @+1 {{index 9 at [0] of the indices is out of range for its axis (size 4): indices must lie in [-4, 3]}}
  %y = onnx.ScatterElements(%x, %i, %u) {axis = 0 : i64} : (tensor<4xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
