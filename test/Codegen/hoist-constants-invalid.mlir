// RUN: onnx-quant-opt %s --onnxq-hoist-constants -verify-diagnostics

// The pass runs after onnxq-record-abi: the record names the graph.
// expected-error @+1 {{no graph function 'missing' to hoist constants from}}
module attributes {onnx.abi = {entry = "m", function = "missing", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
