// Export errors reported on the module ("--emit=onnx expects exactly one
// function", "the exported model fails the ONNX checker") do not dump the
// module. A regression test: MLIR's default "see current operation" note
// once printed the whole module (megabytes for a real model) after a
// one-line error.
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
