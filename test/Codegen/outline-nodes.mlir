// RUN: onnx-quant-opt %s --onnxq-outline-nodes --split-input-file | FileCheck %s

// Each node's work moves into a function named after it; the views and
// constants it needs are recomputed there, the graph arguments passed in.
// The padding fill and the copy of "pad" are one node although a view of
// another location lies between them.

// CHECK-LABEL: func.func private @graph_pad(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: memref<4xf32> {llvm.noalias},
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<64xi8> {llvm.noalias})
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[PADDED:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<64xi8> to memref<6xf32>
// CHECK: %[[INNER:.*]] = memref.subview %[[PADDED]][1] [4] [1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[PADDED]] : memref<6xf32>)
// CHECK: linalg.copy ins(%[[IN]] : memref<4xf32>) outs(%[[INNER]] :
// CHECK-NEXT: return

// CHECK-LABEL: func.func private @graph_relu_0(
// CHECK-SAME: %{{.*}}: memref<6xf32> {llvm.noalias}, %{{.*}}: memref<64xi8> {llvm.noalias})
// CHECK: linalg.map
// CHECK: arith.maximumf

// CHECK-LABEL: func.func @graph(
// CHECK-SAME: %[[GIN:[a-z0-9]+]]: memref<4xf32>, %[[GOUT:[a-z0-9]+]]: memref<6xf32>, %[[GWS:[a-z0-9]+]]: memref<64xi8>)
// CHECK-NEXT: call @graph_pad(%[[GIN]], %[[GWS]]) : (memref<4xf32>, memref<64xi8>) -> ()
// CHECK-NEXT: call @graph_relu_0(%[[GOUT]], %[[GWS]]) : (memref<6xf32>, memref<64xi8>) -> ()
// CHECK-NEXT: return

module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 64 : i64}} {
  func.func private @graph_relu() // takes the plain name: the node is renamed
  func.func @graph(%in: memref<4xf32>, %out: memref<6xf32>, %ws: memref<64xi8>) {
    %zero = arith.constant 0.0 : f32 loc("pad")
    %c0 = arith.constant 0 : index loc("pad")
    %padded = memref.view %ws[%c0][] : memref<64xi8> to memref<6xf32> loc("pad")
    linalg.fill ins(%zero : f32) outs(%padded : memref<6xf32>) loc("pad")
    %inner = memref.subview %padded[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>> loc("other")
    linalg.copy ins(%in : memref<4xf32>) outs(%inner : memref<4xf32, strided<[1], offset: 1>>) loc("pad")
    linalg.map { arith.maximumf } ins(%padded, %padded : memref<6xf32>, memref<6xf32>) outs(%out : memref<6xf32>) loc("relu")
    return
  }
}

// -----

// A node whose result is used by another stays in the graph (so does its
// user, which needs that result); nodes without a name are numbered.

// CHECK-LABEL: func.func private @graph_node2(
// CHECK: memref.store
// CHECK-LABEL: func.func @graph(
// CHECK: memref.load
// CHECK: memref.store
// CHECK: call @graph_node2(
// CHECK-NOT: call

module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph(%in: memref<4xf32>, %out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %x = memref.load %in[%c0] : memref<4xf32> loc("load")
    memref.store %x, %out[%c0] : memref<4xf32> loc("use")
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[%c1] : memref<4xf32>
    return
  }
}
