// RUN: onnx-quant-opt %s --onnxq-emit-abi | FileCheck %s
// onnxq_init_constants (onnxq-hoist-constants' function) does its work once
// per process: an internal global says 0 not done, 1 being done, 2 done.
// The caller that swaps 0 for 1 does the work and stores 2 (release) before
// returning; callers that lose the race wait, giving the core away
// (sched_yield), until they load 2 (acquire); later calls return at once.

// CHECK-DAG: llvm.func @sched_yield() -> i32
// CHECK-DAG: llvm.mlir.global internal @onnxq_constants_state(0 : i32) {{.*}}: i32
// CHECK-LABEL: llvm.func internal @onnxq_init_constants(
// CHECK-SAME: %[[WS:.*]]: !llvm.ptr)
// CHECK: %[[STATE:.*]] = llvm.mlir.addressof @onnxq_constants_state
// CHECK: %[[KNOWN:.*]] = llvm.load %[[STATE]] atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[DONE:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[IS_DONE:.*]] = llvm.icmp "eq" %[[KNOWN]], %[[DONE]]
// CHECK: llvm.cond_br %[[IS_DONE]], ^[[RET:bb[0-9]+]], ^[[CLAIM:bb[0-9]+]]
// CHECK: ^[[WORK:bb[0-9]+]]:
// CHECK: llvm.store %{{.*}}, %[[WS]] : i8, !llvm.ptr
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[S1:.*]] = llvm.mlir.addressof @onnxq_constants_state
// CHECK: llvm.store %[[TWO]], %[[S1]] atomic release
// CHECK-NEXT: llvm.return
// CHECK: ^[[CLAIM]]:
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[XCHG:.*]] = llvm.cmpxchg %{{.*}}, %[[ZERO]], %[[ONE]] acq_rel acquire
// CHECK: %[[WON:.*]] = llvm.extractvalue %[[XCHG]][1]
// CHECK: llvm.cond_br %[[WON]], ^[[WORK]], ^[[WAIT:bb[0-9]+]]
// CHECK: ^[[WAIT]]:
// CHECK: llvm.call @sched_yield()
// CHECK: llvm.load %{{.*}} atomic acquire
// CHECK: llvm.cond_br %{{.*}}, ^[[RET]], ^[[WAIT]]
// CHECK: ^[[RET]]:
// CHECK-NEXT: llvm.return
// CHECK-LABEL: llvm.func internal @main_graph(
// CHECK: llvm.call @onnxq_init_constants(

module attributes {onnx.abi = {entry = "m", function = "main_graph", inputs = [],
    outputs = [], workspace_size = 64 : i64}} {
  llvm.func @onnxq_init_constants(%ws: !llvm.ptr) {
    %c = llvm.mlir.constant(7 : i8) : i8
    llvm.store %c, %ws : i8, !llvm.ptr
    llvm.return
  }
  llvm.func @main_graph(%ws: !llvm.ptr, %context: !llvm.ptr) {
    llvm.call @onnxq_init_constants(%ws) : (!llvm.ptr) -> ()
    llvm.return
  }
}
