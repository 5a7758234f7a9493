// RUN: onnx-quant-opt %s --onnxq-plan-workspace --canonicalize -split-input-file | FileCheck %s

// %a (64 B) and %b (128 B) are alive together; %c (64 B) starts after the
// last use of %a, so it reuses %a's bytes. Largest first: %b at 0, %a at 128.
// CHECK: module attributes {onnx.abi = {{{.*}}workspace_size = 192 : i64}}
// CHECK-LABEL: func @graph
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<192xi8>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[C128]]][] : memref<192xi8> to memref<16xf32>
// CHECK: %[[B:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<192xi8> to memref<32xf32>
// CHECK: memref.view %[[WS]][%[[C128]]][] : memref<192xi8> to memref<16xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph(%in: memref<16xf32>, %out: memref<16xf32>) {
    %a = memref.alloc() : memref<16xf32>
    %b = memref.alloc() : memref<32xf32>
    memref.copy %in, %a : memref<16xf32> to memref<16xf32>
    %sub = memref.subview %b[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
    memref.copy %a, %sub : memref<16xf32> to memref<16xf32, strided<[1]>>
    %c = memref.alloc() : memref<16xf32>
    memref.copy %sub, %c : memref<16xf32, strided<[1]>> to memref<16xf32>
    memref.copy %c, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %a : memref<16xf32>
    return
  }
}

// -----

// The hoisted constants' function (onnxq-hoist-constants) has its own plan
// and the same workspace, which the graph passes it: it runs before the
// graph uses any of it. The size is the larger plan's (256 B).
// CHECK: module attributes {onnx.abi = {{{.*}}workspace_size = 256 : i64}}
// CHECK-LABEL: func.func private @onnxq_init_constants(
// CHECK-SAME: %[[IWS:[a-z0-9]+]]: memref<256xi8>)
// CHECK: memref.view %[[IWS]][%{{.*}}][] : memref<256xi8> to memref<64xf32>
// CHECK-LABEL: func @graph
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<256xi8>)
// CHECK: call @onnxq_init_constants(%[[WS]]) : (memref<256xi8>) -> ()
// CHECK: memref.view %[[WS]][%{{.*}}][] : memref<256xi8> to memref<16xf32>
// CHECK-NOT: memref.alloc
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  memref.global "private" @onnxq_constant : memref<64xf32> = uninitialized
  func.func private @onnxq_init_constants() {
    %spread = memref.alloc() : memref<64xf32>
    %g = memref.get_global @onnxq_constant : memref<64xf32>
    memref.copy %spread, %g : memref<64xf32> to memref<64xf32>
    return
  }
  func.func @graph(%in: memref<16xf32>, %out: memref<16xf32>) {
    call @onnxq_init_constants() : () -> ()
    %a = memref.alloc() : memref<16xf32>
    memref.copy %in, %a : memref<16xf32> to memref<16xf32>
    memref.copy %a, %out : memref<16xf32> to memref<16xf32>
    return
  }
}
