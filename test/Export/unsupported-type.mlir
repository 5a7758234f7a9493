// A value whose type has no ONNX equivalent (here si8; ONNX integers are
// signless or unsigned in the dialect) stops the export at the first such
// value with one error. A regression test: the export once went on, with one
// error per value and then a failed ONNX checker.
// RUN: rm -f %t.onnx
// RUN: not onnx-quant-opt %s --emit=onnx -o %t.onnx 2> %t.err
// RUN: FileCheck %s -DFILE=%s --input-file=%t.err
// RUN: grep "error:" %t.err | count 1
// RUN: test ! -e %t.onnx

// CHECK: {{^}}[[FILE]]:[[@LINE+2]]:{{[0-9]+}}: error: cannot export a value of type 'tensor<4xsi8>'{{$}}

func.func @main_graph(%x: tensor<4xsi8>) -> tensor<4xsi8> {
  %0 = onnx.Identity(%x) : (tensor<4xsi8>) -> tensor<4xsi8>
  return %0 : tensor<4xsi8>
}
