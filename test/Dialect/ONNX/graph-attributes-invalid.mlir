// RUN: onnx-quant-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'onnx.name' of argument 0 must be a string}}
func.func @name_not_string(%x: tensor<4xf32> {onnx.name = 3 : i64}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @name_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.name' names a graph input or output: it belongs on a function argument or result}}
  %0 = onnx.Relu(%x) {onnx.name = "y"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'onnx.range' of argument 0 must be array<f32: min, max> with min <= max}}
func.func @range_reversed(%x: tensor<4xf32> {onnx.range = array<f32: 2.0, 1.0>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'onnx.range' of result 0 belongs on a graph argument (op results use 'onnx.ranges')}}
func.func @range_on_result(%x: tensor<4xf32>) -> (tensor<4xf32> {onnx.range = array<f32: 0.0, 1.0>}) {
  return %x : tensor<4xf32>
}

// -----

func.func @ranges_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.ranges' must be an array with one range per result (1)}}
  %0 = onnx.Relu(%x) {onnx.ranges = []} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @ranges_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.ranges' must hold array<f32: min, max> with min <= max, or array<f32> for a result without a range}}
  %0 = onnx.Relu(%x) {onnx.ranges = [array<f32: 0x7FC00000, 1.0>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @ranges_three(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.ranges' must hold array<f32: min, max>}}
  %0 = onnx.Relu(%x) {onnx.ranges = [array<f32: 0.0, 1.0, 2.0>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'onnx.calibration' must be a module attribute {method: string, samples: integer, and data, preprocess or file: string}}}
module attributes {onnx.calibration = {method = "minmax"}} {
}

// -----

// expected-error @+1 {{'onnx.calibration' must be a module attribute}}
module attributes {onnx.calibration = {method = "minmax", samples = 4 : i64, color = "blue"}} {
}

// -----

module {
  // expected-error @+1 {{'onnx.calibration' must be a module attribute}}
  func.func @calibration_on_func() attributes {onnx.calibration = {method = "minmax", samples = 4 : i64}} {
    return
  }
}

// -----

// expected-error @+1 {{'onnx.quantization' must be a module attribute {activations: string, weights: string, per_channel: bool, and mode: string, block_size, bits: integer}}}
module attributes {onnx.quantization = {activations = "u8", weights = "s8", per_channel = 1 : i64}} {
}

// -----

// expected-error @+1 {{'onnx.abi' must be a module attribute {entry, function, inputs, outputs, workspace_size} (written by --onnxq-record-abi)}}
module attributes {onnx.abi = {entry = "m", function = "main_graph", inputs = [{name = "x"}], outputs = [], workspace_size = 0 : i64}} {
}

// -----

// expected-error @+1 {{'onnx.colour' is not an attribute of the onnx dialect}}
module attributes {onnx.colour = "blue"} {
}
