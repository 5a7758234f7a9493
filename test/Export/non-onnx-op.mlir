// RUN: rm -f %t.onnx
// RUN: not onnx-quant-opt %s --emit=onnx -o %t.onnx 2> %t.err
// RUN: FileCheck %s -DFILE=%s --input-file=%t.err
// RUN: grep "error:" %t.err | count 1
// RUN: test ! -e %t.onnx
// Only onnx dialect ops can be exported: a func.call fails with an error at the
// call, and no file is written.

// CHECK: {{^}}[[FILE]]:[[@LINE+4]]:8: error: cannot export 'func.call' to ONNX: only onnx dialect ops can be written{{$}}

func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @main_graph(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
