// RUN: onnx-quant-opt %s --onnxq-emit-abi | FileCheck %s
// The AMX kernels' onnxq_amx_ready(), declared, gets its body: the process
// asks Linux for the tiles once (syscall(SYS_arch_prctl = 158,
// ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18)) and keeps the
// answer in an internal global (0 not asked, 1 granted, 2 refused, 3 being
// asked). The caller that swaps 0 for 3 asks; racing callers answer with
// what they found (no while it is 3), so one request per process. It and
// the global are internal.

// CHECK-DAG: llvm.func @syscall(i64, ...) -> i64
// CHECK-DAG: llvm.mlir.global internal @onnxq_amx_state(0 : i32) {{.*}}: i32
// CHECK-LABEL: llvm.func internal @onnxq_amx_ready() -> i1
// CHECK: %[[STATE:.*]] = llvm.mlir.addressof @onnxq_amx_state
// CHECK: %[[KNOWN:.*]] = llvm.load %[[STATE]] atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[ASKED:.*]] = llvm.icmp "ne" %[[KNOWN]]
// CHECK: llvm.cond_br %[[ASKED]], ^[[DONE:bb[0-9]+]](%[[KNOWN]] : i32), ^[[CLAIM:bb[0-9]+]]
// CHECK: ^[[CLAIM]]:
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[ASKING:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[XCHG:.*]] = llvm.cmpxchg %[[STATE]], %[[ZERO]], %[[ASKING]] acq_rel acquire
// CHECK: %[[FOUND:.*]] = llvm.extractvalue %[[XCHG]][0]
// CHECK: %[[WON:.*]] = llvm.extractvalue %[[XCHG]][1]
// CHECK: llvm.cond_br %[[WON]], ^[[ASK:bb[0-9]+]], ^[[DONE]](%[[FOUND]] : i32)
// CHECK: ^[[ASK]]:
// CHECK-DAG: %[[NR:.*]] = llvm.mlir.constant(158 : i64)
// CHECK-DAG: %[[REQ:.*]] = llvm.mlir.constant(4131 : i64)
// CHECK-DAG: %[[TILES:.*]] = llvm.mlir.constant(18 : i64)
// CHECK: %[[RESULT:.*]] = llvm.call @syscall(%[[NR]], %[[REQ]], %[[TILES]]) vararg(!llvm.func<i64 (i64, ...)>)
// CHECK: %[[OK:.*]] = llvm.icmp "eq" %[[RESULT]]
// CHECK: %[[ANSWER:.*]] = llvm.select %[[OK]]
// CHECK: llvm.store %[[ANSWER]], %[[STATE]] atomic release
// CHECK: llvm.br ^[[DONE]](%[[ANSWER]] : i32)
// CHECK: ^[[DONE]](%[[SEEN:.*]]: i32):
// CHECK: %[[GRANTED:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[YES:.*]] = llvm.icmp "eq" %[[SEEN]], %[[GRANTED]]
// CHECK: llvm.return %[[YES]]

module attributes {onnx.abi = {entry = "m", function = "main_graph", inputs = [],
    outputs = [], workspace_size = 0 : i64}} {
  llvm.func @onnxq_amx_ready() -> i1
  llvm.func @main_graph(%ws: !llvm.ptr, %context: !llvm.ptr) {
    %0 = llvm.call @onnxq_amx_ready() : () -> i1
    llvm.return
  }
}
