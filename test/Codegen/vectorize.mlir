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

// A read of another buffer in the body (a table lookup) becomes a
// vector.gather from that buffer, with the masked tail of 100 = 64 + 36.
// CHECK-LABEL: func @table_lookup
// CHECK-NOT: memref.load
// CHECK-NOT: bufferization.to_tensor
// CHECK: vector.gather %arg1[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<256xi8>, vector<64xindex>
// CHECK-NOT: memref.load
func.func @table_lookup(%in: memref<100xi8>, %table: memref<256xi8>, %out: memref<100xi8>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%in : memref<100xi8>) outs(%out : memref<100xi8>) {
  ^bb0(%x: i8, %o: i8):
    %e = arith.extui %x : i8 to i32
    %i = arith.index_cast %e : i32 to index
    %v = memref.load %table[%i] : memref<256xi8>
    linalg.yield %v : i8
  }
  return
}
