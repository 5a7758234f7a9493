// RUN: rm -f %t.onnx
// RUN: not onnx-quant-opt %s --emit=onnx -o %t.onnx 2> %t.err
// RUN: FileCheck %s -DFILE=%s --input-file=%t.err
// RUN: grep "error:" %t.err | count 1
// RUN: test ! -e %t.onnx
// The module must hold exactly one function, the graph (a called function
// would be a second one).

// CHECK: {{^}}[[FILE]]:0:0: error: --emit=onnx expects exactly one function (the graph), found 2{{$}}

func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
