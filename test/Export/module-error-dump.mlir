// BUG: export errors reported on the module ("--emit=onnx expects a module
// with exactly one function", "the exported model fails the ONNX checker")
// come with MLIR's default "see current operation" note, which prints the
// whole module in generic form to stderr; for a real model that is megabytes
// of IR after a one-line error. exportONNXModel should report these at the
// module's location without attaching the op (or the driver should disable
// -mlir-print-op-on-diagnostic for them).
// RUN: not onnx-quant-opt %s --emit=onnx -o %t.onnx 2> %t.err
// RUN: FileCheck %s --input-file=%t.err

// CHECK: error: --emit=onnx expects exactly one function (the graph), found 2
// CHECK-NOT: "builtin.module"
// CHECK-NOT: "onnx.Relu"

func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
