// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json; t = {'x': {'min': -1.5, 'max': 2.0, 'method': 'minmax', 'samples': 7}, 'mul': {'min': -6.0, 'max': 8.0, 'method': 'minmax', 'samples': 7}, 'relu': {'min': 0.0, 'max': 8.0, 'method': 'minmax', 'samples': 7}}; json.dump({'format': 'onnx-quant ranges 1', 'tensors': t}, open('%t/ranges.json', 'w'))"
// RUN: onnx-quant-opt %s --onnx-annotate-ranges="file=%t/ranges.json" | FileCheck %s -DFILE=%t/ranges.json
// A saved range table (--onnx-calibrate="save=FILE") annotates the graph the
// way calibration does: graph inputs by their ONNX name (onnx.range on the
// argument), op results by their node name (onnx.ranges on the op), and the
// module records the method, the sample count and the file.
// annotate-ranges-invalid.mlir has the tables that do not fit.

// CHECK: module attributes {onnx.calibration = {file = "[[FILE]]", method = "minmax", samples = 7 : i64}}
// CHECK: func.func @main_graph(%{{.*}}: tensor<1x4xf32> {onnx.name = "x", onnx.range = array<f32: -1.500000e+00, 2.000000e+00>})
// The constant is a weight, not an activation: no range.
// CHECK: onnx.Constant
// CHECK-NOT: onnx.ranges
// CHECK-SAME: {{$}}
// CHECK: onnx.Mul({{.*}}) {onnx.ranges = [array<f32: -6.000000e+00, 8.000000e+00>]}
// CHECK: onnx.Relu({{.*}}) {onnx.ranges = [array<f32: 0.000000e+00, 8.000000e+00>]}
module {
  func.func @main_graph(%x: tensor<1x4xf32> {onnx.name = "x"}) -> tensor<1x4xf32> {
    %c = onnx.Constant dense<[[1.0, -2.0, 3.0, -4.0]]> : tensor<1x4xf32>
    %m = onnx.Mul(%x, %c) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> loc("mul")
    %y = onnx.Relu(%m) : (tensor<1x4xf32>) -> tensor<1x4xf32> loc("relu")
    return %y : tensor<1x4xf32>
  }
}
