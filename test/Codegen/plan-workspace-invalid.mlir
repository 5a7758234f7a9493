// RUN: onnx-quant-opt %s --onnxq-plan-workspace -verify-diagnostics

module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph(%n: index) {
    // expected-error @+1 {{only static, identity-layout allocations at the top of the graph function can be placed in the workspace}}
    %a = memref.alloc(%n) : memref<?xf32>
    return
  }
}
