// RUN: onnx-quant-opt %s --onnxq-vectorize="vector-bits=512" | FileCheck %s
// CHECK-DAG: #[[TWICE_LESS_ONE:.*]] = affine_map<(d0) -> (d0 * 2 - 1)>
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

// A gather at addresses computed from the loop indices (Resize's index
// tables, read at the output index and broadcast over the other dims) takes
// no remainder mask: vectors of 9 lanes divide the 18-wide rows (masked, MLIR
// 22's vectorizer gave the table read the tile's 4-D mask, which its
// verifier rejects).
// CHECK-LABEL: func @indexed_gather
// CHECK: vector.transfer_read %arg1[%{{.*}}], %{{.*}} {in_bounds = [true]} : memref<18xi64>, vector<9xi64>
// CHECK: vector.gather %arg0{{.*}} : memref<1x3x8x9xf32>, vector<1x1x1x9xindex>, vector<1x1x1x9xi1>, vector<1x1x1x9xf32> into vector<1x1x1x9xf32>
// CHECK-NOT: vector<16x
func.func @indexed_gather(%x: memref<1x3x8x9xf32>, %cols: memref<18xi64>, %out: memref<1x3x16x18xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%out : memref<1x3x16x18xf32>) {
  ^bb0(%o: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %row = arith.divui %h, %c2 : index
    %col64 = memref.load %cols[%w] : memref<18xi64>
    %col = arith.index_cast %col64 : i64 to index
    %v = memref.load %x[%c0, %c, %row, %col] : memref<1x3x8x9xf32>
    linalg.yield %v : f32
  }
  return
}

// A read of every other element (a phase plane of a strided convolution's
// input) would be one scalar load per lane. It is one contiguous read of
// twice the lanes from its first element, masked past the last one it
// reads (2 * lanes - 1 for a full vector; 2 * 5 - 1 = 9 for the 5 lanes of
// the last of 21 = 16 + 5), and a shuffle keeping the even lanes. The
// writes are unit-stride, as they were.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @strided_read
// CHECK-NOT: memref.load
// CHECK: scf.parallel
// CHECK: %[[LANES:.*]] = affine.min
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1]
// CHECK: %[[WIDE:.*]] = affine.apply #[[TWICE_LESS_ONE]](%[[LANES]])
// CHECK: %[[MASK:.*]] = vector.create_mask %[[WIDE]] : vector<32xi1>
// CHECK: %[[READ:.*]] = vector.transfer_read %[[FLAT]][%c0], %{{.*}}, %[[MASK]] {in_bounds = [true]} : memref<?xi8, strided<[1], offset: ?>>, vector<32xi8>
// CHECK: vector.shuffle %[[READ]], %[[READ]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xi8>, vector<32xi8>
// CHECK: vector.transfer_write
func.func @strided_read(%x: memref<4x42xi8>, %out: memref<4x21xi32>) {
  %phase = memref.subview %x[0, 1] [4, 21] [1, 2] : memref<4x42xi8> to memref<4x21xi8, strided<[42, 2], offset: 1>>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%phase : memref<4x21xi8, strided<[42, 2], offset: 1>>) outs(%out : memref<4x21xi32>) {
  ^bb0(%b: i8, %o: i32):
    %w = arith.extui %b : i8 to i32
    linalg.yield %w : i32
  }
  return
}
