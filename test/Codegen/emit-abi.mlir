// RUN: onnx-quant-opt %s --onnxq-emit-abi | FileCheck %s
// The C entry points around a graph lowered with bare pointers
// (graph(in0, out0, out1, workspace, parallel context)): constants for the
// counts and the workspace sizes, element counts by index (0 out of range),
// and NAME_run, which allocates the workspace when given NULL, calls the
// graph (with no parallel context) and frees it; NAME_run_parallel does the
// same with a context on its stack ({parallel_for, pool, threads}), or none
// when parallel_for is NULL. Everything but the ABI becomes internal; the
// graph's arguments are noalias (the ABI forbids overlap) and lose their
// ONNX names.

// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @weights
// CHECK-LABEL: llvm.func internal @helper
// CHECK-LABEL: llvm.func internal @main_graph(
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// CHECK-NOT: onnx.name

// CHECK-LABEL: llvm.func @m_num_inputs() -> i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: llvm.return %[[N]]
// CHECK-LABEL: llvm.func @m_num_outputs() -> i32
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK-LABEL: llvm.func @m_workspace_size() -> i64
// CHECK: llvm.mlir.constant(256 : i64)
// CHECK-LABEL: llvm.func @m_workspace_size_parallel(%{{.*}}: i32) -> i64
// CHECK: llvm.mlir.constant(256 : i64)

// Input 0 has 2x3 = 6 elements; outputs 0 and 1 have 4 and 1.
// CHECK-LABEL: llvm.func @m_input_size(%{{.*}}: i32) -> i64
// CHECK: llvm.mlir.constant(6 : i64)
// CHECK: llvm.select
// CHECK-LABEL: llvm.func @m_output_size(%{{.*}}: i32) -> i64
// CHECK: llvm.mlir.constant(4 : i64)
// CHECK: llvm.select
// CHECK: llvm.mlir.constant(1 : i64)
// CHECK: llvm.select

// CHECK-LABEL: llvm.func @m_run(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[WS:.*]]: !llvm.ptr) -> i32
// CHECK: %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.icmp "eq" %[[WS]]
// CHECK: llvm.cond_br
// CHECK: llvm.call @malloc
// CHECK: %[[I0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[O0:.*]] = llvm.load
// CHECK: %[[O1:.*]] = llvm.load
// CHECK: llvm.call @main_graph(%[[I0]], %[[O0]], %[[O1]], %{{.*}}, %[[NONE]])
// CHECK: llvm.call @free
// CHECK: llvm.return

// CHECK-LABEL: llvm.func @m_run_parallel(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[PF:.*]]: !llvm.ptr, %[[POOL:.*]]: !llvm.ptr, %[[THREADS:.*]]: i32) -> i32
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64)>
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: llvm.store %[[PF]], %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: llvm.store %[[POOL]], %[[F1]]
// CHECK: %[[T64:.*]] = llvm.sext %[[THREADS]] : i32 to i64
// CHECK: %[[F2:.*]] = llvm.getelementptr %[[CTX]][0, 2]
// CHECK: llvm.store %[[T64]], %[[F2]]
// CHECK: %[[NOPF:.*]] = llvm.icmp "eq" %[[PF]]
// CHECK: %[[USED:.*]] = llvm.select %[[NOPF]], %{{.*}}, %[[CTX]]
// CHECK: llvm.call @main_graph(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[USED]])
// CHECK: llvm.return

module attributes {onnx.abi = {entry = "m", function = "main_graph",
    inputs = [{dtype = 1 : i64, element_bytes = 4 : i64, name = "x", shape = array<i64: 2, 3>}],
    outputs = [{dtype = 1 : i64, element_bytes = 4 : i64, name = "y", shape = array<i64: 4>},
               {dtype = 7 : i64, element_bytes = 8 : i64, name = "n", shape = array<i64>}],
    workspace_size = 256 : i64}} {
  llvm.mlir.global private constant @weights(dense<1.0> : tensor<4xf32>) : !llvm.array<4 x f32>
  llvm.func @helper(%p: !llvm.ptr) {
    llvm.return
  }
  llvm.func @main_graph(%x: !llvm.ptr {onnx.name = "x"}, %y: !llvm.ptr, %n: !llvm.ptr, %ws: !llvm.ptr, %context: !llvm.ptr) {
    llvm.call @helper(%ws) : (!llvm.ptr) -> ()
    llvm.return
  }
}
