// RUN: onnx-quant-opt %s -split-input-file | onnx-quant-opt -split-input-file | FileCheck %s
// The attributes passes hand each other (Dialect/ONNX/IR/ONNXGraph.h) in
// their valid forms round-trip; graph-attributes-invalid.mlir has the rest.

// CHECK: module attributes
// CHECK-SAME: onnx.abi = {entry = "m", function = "main_graph", inputs = [{dtype = 1 : i64, element_bytes = 4 : i64, name = "x", shape = array<i64: 4>}], outputs = [], workspace_size = 64 : i64}
// CHECK-SAME: onnx.calibration = {data = "/data", method = "minmax", preprocess = "scale=1", samples = 8 : i64}
// CHECK-SAME: onnx.quantization = {activations = "u8", per_channel = true, weights = "s8"}
module attributes {
  onnx.abi = {entry = "m", function = "main_graph", inputs = [{name = "x", dtype = 1 : i64, element_bytes = 4 : i64, shape = array<i64: 4>}], outputs = [], workspace_size = 64 : i64},
  onnx.calibration = {data = "/data", method = "minmax", preprocess = "scale=1", samples = 8 : i64},
  onnx.quantization = {activations = "u8", weights = "s8", per_channel = true}} {
  // CHECK: func.func @main_graph(%{{.*}}: tensor<4xf32> {onnx.name = "x", onnx.range = array<f32: -1.000000e+00, 1.000000e+00>}) -> (tensor<4xf32> {onnx.name = "y"})
  func.func @main_graph(%x: tensor<4xf32> {onnx.name = "x", onnx.range = array<f32: -1.0, 1.0>}) -> (tensor<4xf32> {onnx.name = "y"}) {
    // CHECK: onnx.Relu(%{{.*}}) {onnx.ranges = [array<f32: 0.000000e+00, 1.000000e+00>]}
    %0 = onnx.Relu(%x) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<4xf32>) -> tensor<4xf32>
    // A result without a range.
    // CHECK: onnx.Relu(%{{.*}}) {onnx.ranges = [array<f32>]}
    %1 = onnx.Relu(%0) {onnx.ranges = [array<f32>]} : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}

// -----

// The annotation written by --onnx-annotate-ranges names its file.
// CHECK: module attributes {onnx.calibration = {file = "ranges.json", method = "entropy", samples = 100 : i64}}
module attributes {onnx.calibration = {file = "ranges.json", method = "entropy", samples = 100 : i64}} {
}
