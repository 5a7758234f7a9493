// RUN: onnx-quant-opt %s --onnxq-parallelize --split-input-file -verify-diagnostics

// expected-error @+1 {{no valid 'onnx.abi'}}
module {
  func.func @graph() {
    return
  }
}

// -----

// expected-error @+1 {{no graph function 'graph' to parallelize}}
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func private @graph()
}

// -----

// expected-error @+1 {{no graph function 'graph' to parallelize}}
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @other() {
    return
  }
}
