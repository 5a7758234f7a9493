// RUN: onnx-quant-opt %s --onnxq-emit-abi | FileCheck %s
// The AMX kernels' onnxq_amx_ready(), declared, gets its body: the first
// call asks Linux for the tiles (syscall(SYS_arch_prctl = 158,
// ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18)) and keeps the
// answer in an internal global (1 granted, 2 refused; atomic, so threads
// racing to ask are harmless: the request is idempotent); later calls read
// it. It and the global are internal.

// CHECK-DAG: llvm.func @syscall(i64, ...) -> i64
// CHECK-DAG: llvm.mlir.global internal @onnxq_amx_state(0 : i32) {{.*}}: i32
// CHECK-LABEL: llvm.func internal @onnxq_amx_ready() -> i1
// CHECK: %[[STATE:.*]] = llvm.mlir.addressof @onnxq_amx_state
// CHECK: %[[KNOWN:.*]] = llvm.load %[[STATE]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.icmp "ne" %[[KNOWN]]
// CHECK: llvm.cond_br
// CHECK-DAG: %[[NR:.*]] = llvm.mlir.constant(158 : i64)
// CHECK-DAG: %[[REQ:.*]] = llvm.mlir.constant(4131 : i64)
// CHECK-DAG: %[[TILES:.*]] = llvm.mlir.constant(18 : i64)
// CHECK: %[[RESULT:.*]] = llvm.call @syscall(%[[NR]], %[[REQ]], %[[TILES]]) vararg(!llvm.func<i64 (i64, ...)>)
// CHECK: %[[OK:.*]] = llvm.icmp "eq" %[[RESULT]]
// CHECK: %[[ANSWER:.*]] = llvm.select %[[OK]]
// CHECK: llvm.store %[[ANSWER]], %[[STATE]] atomic monotonic
// CHECK: llvm.icmp "eq"
// CHECK: llvm.return

module attributes {onnx.abi = {entry = "m", function = "main_graph", inputs = [],
    outputs = [], workspace_size = 0 : i64}} {
  llvm.func @onnxq_amx_ready() -> i1
  llvm.func @main_graph(%ws: !llvm.ptr, %context: !llvm.ptr) {
    %0 = llvm.call @onnxq_amx_ready() : () -> i1
    llvm.return
  }
}
