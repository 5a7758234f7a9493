// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --onnxq-bufferize --canonicalize | FileCheck %s
// RUN: onnx-quant-opt %s --onnxq-lower-to-llvm="entry=zero" | FileCheck %s --check-prefix=LLVM

// Zero-element arguments and results cross the ABI as memref<0xT> (a size-0
// dim after the first has no static outer strides, which bare pointers need);
// inside, the argument is an empty tensor of its own shape.
// CHECK-LABEL: func.func @main_graph
// CHECK-SAME: (%{{.*}}: memref<0xi64> {onnx.name = "x"}, %[[K:.*]]: memref<i64> {onnx.name = "k"}) -> (memref<0xi64> {onnx.name = "y"})
// CHECK-NOT: 3x0x5
// CHECK: return %{{.*}} : memref<0xi64>

// The graph function lowers with bare pointers.
// LLVM: llvm.func internal @main_graph(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// LLVM: llvm.func @zero_run(
func.func @main_graph(%x: tensor<3x0x5xi64> {onnx.name = "x"}, %k: tensor<i64> {onnx.name = "k"}) -> (tensor<3x0x5xi64> {onnx.name = "y"}) {
  %0 = onnx.Trilu(%x, %k) {upper = 0 : i64} : (tensor<3x0x5xi64>, tensor<i64>) -> tensor<3x0x5xi64>
  return %0 : tensor<3x0x5xi64>
}
