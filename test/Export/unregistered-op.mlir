// Exporting an op of an unregistered dialect (allowed with
// --allow-unregistered-dialect) is the same "only onnx dialect ops can be
// written" error as for other non-onnx ops. A regression test: it once
// crashed on the op's null dialect.
// RUN: rm -f %t.onnx
// RUN: not onnx-quant-opt %s --allow-unregistered-dialect --emit=onnx -o %t.onnx 2> %t.err
// RUN: FileCheck %s -DFILE=%s --input-file=%t.err
// RUN: test ! -e %t.onnx

// CHECK: {{^}}[[FILE]]:[[@LINE+3]]:8: error: cannot export 'foo.bar' to ONNX: only onnx dialect ops can be written{{$}}

func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
