// RUN: onnx-quant-opt %s --onnxq-emit-abi -split-input-file -verify-diagnostics

// expected-error @+1 {{no valid 'onnx.abi' attribute: run --onnxq-record-abi first}}
module {
  llvm.func @main_graph(%ws: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{no lowered graph function 'main_graph'}}
module attributes {onnx.abi = {entry = "m", function = "main_graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  llvm.func @other(%ws: !llvm.ptr) {
    llvm.return
  }
}

// -----

// The graph must take one pointer per input and output, then the workspace
// and the parallel context.
module attributes {onnx.abi = {entry = "m", function = "main_graph",
    inputs = [{dtype = 1 : i64, element_bytes = 4 : i64, name = "x", shape = array<i64: 4>}],
    outputs = [], workspace_size = 0 : i64}} {
  // expected-error @+1 {{expects the graph lowered with bare pointers and a parallel context: 3 arguments, got 1}}
  llvm.func @main_graph(%ws: !llvm.ptr) {
    llvm.return
  }
}
