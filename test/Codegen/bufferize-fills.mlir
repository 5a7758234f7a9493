// RUN: onnx-quant-opt %s --onnxq-bufferize --cse --canonicalize | FileCheck %s

// One zero fill that CSE shared between two convolutions' padded channel
// words: each gets a fill of its own, written in place, rather than one
// buffer and a copy of it for the other. (What each slice insertion copies
// onto itself, CSE and canonicalization then drop, as in the pipeline.)
// CHECK-LABEL: func.func @shared_fill
// CHECK-COUNT-2: linalg.fill
// CHECK-NOT: linalg.copy
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @shared_fill(%a: tensor<8x27xi8>, %b: tensor<8x27xi8>)
    -> (tensor<16x27xi32>, tensor<16x27xi32>) {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x27xi32>
  %zeros = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x27xi32>) -> tensor<16x27xi32>
  %e1 = tensor.empty() : tensor<8x27xi32>
  %wa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x27xi8>) outs(%e1 : tensor<8x27xi32>) {
  ^bb0(%in: i8, %o: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<8x27xi32>
  %pa = tensor.insert_slice %wa into %zeros[0, 0] [8, 27] [1, 1] : tensor<8x27xi32> into tensor<16x27xi32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x27xi8>) outs(%e1 : tensor<8x27xi32>) {
  ^bb0(%in: i8, %o: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<8x27xi32>
  %pb = tensor.insert_slice %wb into %zeros[0, 0] [8, 27] [1, 1] : tensor<8x27xi32> into tensor<16x27xi32>
  return %pa, %pb : tensor<16x27xi32>, tensor<16x27xi32>
}
