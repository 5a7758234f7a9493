// RUN: onnx-quant-opt %s --onnxq-fuse-elementwise="max-body-ops=4" | FileCheck %s
// A fusion clones both bodies: without a cap, a chain of N element-wise ops
// costs N^2 / 2 cloned operations. With max-body-ops=4, a chain of four
// two-operation bodies (math.exp, linalg.yield) fuses into two ops of two
// exps each: a third exp would make a body of five.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func @long_chain
// CHECK: linalg.generic
// CHECK-COUNT-2: math.exp
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic
// CHECK-COUNT-2: math.exp
// CHECK-NEXT: linalg.yield
// CHECK-NOT: linalg.generic
func.func @long_chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%2 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %3 : tensor<8xf32>
}
