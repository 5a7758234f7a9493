// RUN: onnx-quant-opt %s --onnxq-vectorize="vector-bits=512" | FileCheck %s
// vector<Nxi1> is bit-packed in memory while memref<Nxi1> holds one byte per
// element (ONNX bool): ops reading or writing bool buffers stay scalar; the
// same op on bytes is vectorized.

#map = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func @compare_to_bool
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: arith.cmpf
func.func @compare_to_bool(%a: memref<64xf32>, %b: memref<64xf32>, %out: memref<64xi1>) {
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xi1>) {
  ^bb0(%x: f32, %y: f32, %o: i1):
    %c = arith.cmpf ogt, %x, %y : f32
    linalg.yield %c : i1
  }
  return
}

// CHECK-LABEL: func @compare_to_byte
// CHECK: vector.transfer_write
func.func @compare_to_byte(%a: memref<64xf32>, %b: memref<64xf32>, %out: memref<64xi8>) {
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xi8>) {
  ^bb0(%x: f32, %y: f32, %o: i8):
    %c = arith.cmpf ogt, %x, %y : f32
    %e = arith.extui %c : i1 to i8
    linalg.yield %e : i8
  }
  return
}
