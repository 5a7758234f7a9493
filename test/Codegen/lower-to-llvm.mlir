// RUN: onnx-quant-opt %S/Inputs/tiny.mlir --onnxq-lower-to-llvm="entry=tiny" | FileCheck %s

// The graph is internal; only the prefixed ABI is exported.
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)
// Inputs (x, w), output (y) and workspace never alias.
// CHECK: llvm.func internal @main_graph(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// CHECK: llvm.func @tiny_num_inputs() -> i32
// CHECK: llvm.func @tiny_num_outputs() -> i32
// CHECK: llvm.func @tiny_workspace_size() -> i64
// CHECK: llvm.func @tiny_input_size(%{{.*}}: i32) -> i64
// CHECK: llvm.func @tiny_output_size(%{{.*}}: i32) -> i64
// CHECK: llvm.func @tiny_run(%[[IN:.*]]: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr, %[[WS:.*]]: !llvm.ptr) -> i32
// CHECK:   llvm.icmp "eq" %[[WS]]
// CHECK:   llvm.call @malloc
// CHECK:   llvm.load
// CHECK:   llvm.call @main_graph
// CHECK:   llvm.call @free
