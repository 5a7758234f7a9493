// RUN: rm -f %t.onnx
// RUN: not onnx-quant-opt %s --emit=onnx -o %t.onnx 2> %t.err
// RUN: FileCheck %s -DFILE=%s --input-file=%t.err
// RUN: grep "error:" %t.err | count 1
// RUN: test ! -e %t.onnx
// A builtin op (a leftover cast of a conversion) is not an onnx op either.

// CHECK: {{^}}[[FILE]]:[[@LINE+4]]:8: error: cannot export 'builtin.unrealized_conversion_cast' to ONNX: only onnx dialect ops can be written{{$}}

func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = builtin.unrealized_conversion_cast %0 : tensor<4xf32> to tensor<4xi32>
  return %1 : tensor<4xi32>
}
