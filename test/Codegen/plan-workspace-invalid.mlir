// RUN: onnx-quant-opt %s --onnxq-plan-workspace -split-input-file -verify-diagnostics

module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph(%n: index) {
    // expected-error @+1 {{only static, identity-layout allocations at the top of the graph function can be placed in the workspace}}
    %a = memref.alloc(%n) : memref<?xf32>
    return
  }
}

// -----

// 2^62 floats are 2^64 bytes: refused, where the workspace size used to wrap
// around to 0 (and the generated code wrote far past any real buffer).
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph() {
    // expected-error @+1 {{the workspace would need more than 2^62 bytes (a buffer of 'memref<4611686018427387904xf32>' here); check the model's shapes}}
    %a = memref.alloc() : memref<4611686018427387904xf32>
    return
  }
}

// -----

// Each buffer fits, their sum does not.
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph() {
    %a = memref.alloc() : memref<1152921504606846976xf32>
    // expected-error @+1 {{the workspace would need more than 2^62 bytes}}
    %b = memref.alloc() : memref<8xf32>
    memref.dealloc %a : memref<1152921504606846976xf32>
    memref.dealloc %b : memref<8xf32>
    return
  }
}
