// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2" --canonicalize --split-input-file | FileCheck %s

// A convolution's 8-bit result that only its packing into channel words
// reads (4 channels' bytes in one int32, the next convolution's vpdpbusd
// operand): the kernel stores the words itself. The rows of a tile are 8
// channels; rows 4q .. 4q + 3 of a vector of positions are interleaved into
// 16 words (byte b of word l: lane l of row 4q + b) and stored where the
// packing wrote them: channel word q (32 words on) of the plane. The 8-bit
// buffer and the packing are gone.

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// CHECK-LABEL: func.func @channel_words
// CHECK-NOT: memref<8x2x16xi8>
// CHECK: %[[W:.*]] = memref.alloc() : memref<2x2x16xi32>
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[W]] to offset: [0], sizes: [64], strides: [1]
// CHECK: %[[LOW:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
// CHECK: %[[HIGH:.*]] = vector.shuffle
// CHECK: %[[BYTES:.*]] = vector.shuffle %[[LOW]], %[[HIGH]] [0, 16, 32, 48, 1, 17, 33, 49, 2, 18, 34, 50,
// CHECK: %[[WORDS:.*]] = vector.bitcast %[[BYTES]] : vector<64xi8> to vector<16xi32>
// CHECK: vector.store %[[WORDS]], %[[FLAT]][%c0] : memref<64xi32, strided<[1]>>, vector<16xi32>
// The second vector of positions (16-31).
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c16] : memref<64xi32, strided<[1]>>, vector<16xi32>
// Channels 4-7: channel word 1, 32 words on.
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c32] : memref<64xi32, strided<[1]>>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c48] : memref<64xi32, strided<[1]>>, vector<16xi32>
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[W]], %arg3
func.func @channel_words(%x: memref<4x2x16xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                         %out: memref<2x2x16xi32>) {
  %acc = memref.alloc() : memref<8x2x16xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x2x16xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x2x16xi8>, memref<8x4xi8>) outs(%acc : memref<8x2x16xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %y = memref.alloc() : memref<8x2x16xi8>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x16xi32>, memref<8xf32>) outs(%y : memref<8x2x16xi8>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x16xi32>
  %words = memref.alloc() : memref<2x2x16xi32>
  %b0 = memref.subview %y[0, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1]>>
  %b1 = memref.subview %y[1, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 32>>
  %b2 = memref.subview %y[2, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 64>>
  %b3 = memref.subview %y[3, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 96>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b0, %b1, %b2, %b3 : memref<2x2x16xi8, strided<[128, 16, 1]>>, memref<2x2x16xi8, strided<[128, 16, 1], offset: 32>>,
                               memref<2x2x16xi8, strided<[128, 16, 1], offset: 64>>, memref<2x2x16xi8, strided<[128, 16, 1], offset: 96>>)
      outs(%words : memref<2x2x16xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %s1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %s1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %s2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %s2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %s3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %s3 : i32
    linalg.yield %o3 : i32
  }
  memref.copy %words, %out : memref<2x2x16xi32> to memref<2x2x16xi32>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// The packing writes some of the words' channels (onnxq-pack-concat-parts
// packs a concatenation part by part), allocated after the convolution:
// the kernel stores into that slice, allocated before it.
// CHECK-LABEL: func.func @words_slice
// CHECK-NOT: memref<8x2x16xi8>
// CHECK: %[[ALL:.*]] = memref.alloc() : memref<4x2x16xi32>
// CHECK: %[[SLICE:.*]] = memref.subview %[[ALL]][2, 0, 0] [2, 2, 16] [1, 1, 1]
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[SLICE]] to offset: [64], sizes: [64], strides: [1]
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c0] : memref<64xi32, strided<[1], offset: 64>>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c16] : memref<64xi32, strided<[1], offset: 64>>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c32] : memref<64xi32, strided<[1], offset: 64>>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[FLAT]][%c48] : memref<64xi32, strided<[1], offset: 64>>, vector<16xi32>
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[ALL]], %arg3
func.func @words_slice(%x: memref<4x2x16xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                         %out: memref<4x2x16xi32>) {
  %acc = memref.alloc() : memref<8x2x16xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x2x16xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x2x16xi8>, memref<8x4xi8>) outs(%acc : memref<8x2x16xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %y = memref.alloc() : memref<8x2x16xi8>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x16xi32>, memref<8xf32>) outs(%y : memref<8x2x16xi8>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x16xi32>
  %all = memref.alloc() : memref<4x2x16xi32>
  %words = memref.subview %all[2, 0, 0] [2, 2, 16] [1, 1, 1] : memref<4x2x16xi32> to memref<2x2x16xi32, strided<[32, 16, 1], offset: 64>>
  %b0 = memref.subview %y[0, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1]>>
  %b1 = memref.subview %y[1, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 32>>
  %b2 = memref.subview %y[2, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 64>>
  %b3 = memref.subview %y[3, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 96>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b0, %b1, %b2, %b3 : memref<2x2x16xi8, strided<[128, 16, 1]>>, memref<2x2x16xi8, strided<[128, 16, 1], offset: 32>>,
                               memref<2x2x16xi8, strided<[128, 16, 1], offset: 64>>, memref<2x2x16xi8, strided<[128, 16, 1], offset: 96>>)
      outs(%words : memref<2x2x16xi32, strided<[32, 16, 1], offset: 64>>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %s1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %s1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %s2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %s2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %s3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %s3 : i32
    linalg.yield %o3 : i32
  }
  memref.copy %all, %out : memref<4x2x16xi32> to memref<4x2x16xi32>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// The same result read by something else too (here a copy to an output):
// it is stored as it is, and the packing stays.
// CHECK-LABEL: func.func @other_reader
// CHECK: vector.store %{{.*}} : memref<{{.*}}xi8, strided<[1]>>, vector<16xi8>
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : memref<2x2x16xi32>)
func.func @other_reader(%x: memref<4x2x16xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                        %out: memref<2x2x16xi32>, %bytes: memref<8x2x16xi8>) {
  %acc = memref.alloc() : memref<8x2x16xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x2x16xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x2x16xi8>, memref<8x4xi8>) outs(%acc : memref<8x2x16xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %y = memref.alloc() : memref<8x2x16xi8>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x16xi32>, memref<8xf32>) outs(%y : memref<8x2x16xi8>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x16xi32>
  %words = memref.alloc() : memref<2x2x16xi32>
  %b0 = memref.subview %y[0, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1]>>
  %b1 = memref.subview %y[1, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 32>>
  %b2 = memref.subview %y[2, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 64>>
  %b3 = memref.subview %y[3, 0, 0] [2, 2, 16] [4, 1, 1] : memref<8x2x16xi8> to memref<2x2x16xi8, strided<[128, 16, 1], offset: 96>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b0, %b1, %b2, %b3 : memref<2x2x16xi8, strided<[128, 16, 1]>>, memref<2x2x16xi8, strided<[128, 16, 1], offset: 32>>,
                               memref<2x2x16xi8, strided<[128, 16, 1], offset: 64>>, memref<2x2x16xi8, strided<[128, 16, 1], offset: 96>>)
      outs(%words : memref<2x2x16xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %s1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %s1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %s2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %s2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %s3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %s3 : i32
    linalg.yield %o3 : i32
  }
  memref.copy %words, %out : memref<2x2x16xi32> to memref<2x2x16xi32>
  memref.copy %y, %bytes : memref<8x2x16xi8> to memref<8x2x16xi8>
  return
}

// -----

// Rows of 5 positions 7 apart in the result (a convolution computed over the
// padded width), 5 apart in the words: a vector of 16 positions spans three
// rows and is stored in one masked part per row, each part's lanes those of
// the row's 5 columns, r x 2 words further back for row r. Lanes 0-4
// (row 0) at word 0, lanes 7-11 (row 1) from word 5, lanes 14-15 (row 2)
// from word 10; the second vector starts at row 2's column 2.
// CHECK-LABEL: func.func @rows_with_gaps
// CHECK: %[[ALL:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [60], strides: [1]
// CHECK: %[[R0:.*]] = vector.constant_mask [5] : vector<16xi1>
// CHECK: vector.maskedstore %[[FLAT]][%c0], %[[R0]], %[[W:.*]] : memref<60xi32
// CHECK: %[[END1:.*]] = vector.constant_mask [12] : vector<16xi1>
// CHECK: %[[START1:.*]] = vector.constant_mask [7] : vector<16xi1>
// CHECK: %[[NOT1:.*]] = arith.xori %[[START1]], %[[ALL]]
// CHECK: %[[R1:.*]] = arith.andi %[[END1]], %[[NOT1]]
// CHECK: vector.maskedstore %[[FLAT]][%c-2], %[[R1]], %[[W]]
// CHECK: %[[START2:.*]] = vector.constant_mask [14] : vector<16xi1>
// CHECK: %[[R2:.*]] = arith.xori %[[START2]], %[[ALL]]
// CHECK: vector.maskedstore %[[FLAT]][%c-4], %[[R2]], %[[W]]
// CHECK: vector.constant_mask [3]
// CHECK: vector.maskedstore %[[FLAT]][%c12]
// CHECK: vector.maskedstore %[[FLAT]][%c10]
// CHECK: vector.maskedstore %[[FLAT]][%c8]
// Channels 4-7: channel word 1, 30 words on.
// CHECK: vector.maskedstore %[[FLAT]][%c30]
// CHECK-NOT: linalg.generic
#xk = affine_map<(c, p, k) -> (k, p)>
#ck = affine_map<(c, p, k) -> (c, k)>
#cp = affine_map<(c, p, k) -> (c, p)>
#c = affine_map<(c, p) -> (c)>
#id = affine_map<(c, p) -> (c, p)>
#id3 = affine_map<(c, h, w) -> (c, h, w)>

func.func @rows_with_gaps(%x: memref<4x40xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                          %out: memref<2x6x5xi32>) {
  %acc = memref.alloc() : memref<8x40xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x40xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #cp], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x40xi8>, memref<8x4xi8>) outs(%acc : memref<8x40xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %y = memref.alloc() : memref<8x42xi8>
  %yv = memref.subview %y[0, 0] [8, 40] [1, 1] : memref<8x42xi8> to memref<8x40xi8, strided<[42, 1]>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %scale : memref<8x40xi32>, memref<8xf32>) outs(%yv : memref<8x40xi8, strided<[42, 1]>>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x40xi32>
  %words = memref.alloc() : memref<2x6x5xi32>
  %rows = memref.expand_shape %y [[0], [1, 2]] output_shape [8, 6, 7] : memref<8x42xi8> into memref<8x6x7xi8>
  %b0 = memref.subview %rows[0, 0, 0] [2, 6, 5] [4, 1, 1] : memref<8x6x7xi8> to memref<2x6x5xi8, strided<[168, 7, 1]>>
  %b1 = memref.subview %rows[1, 0, 0] [2, 6, 5] [4, 1, 1] : memref<8x6x7xi8> to memref<2x6x5xi8, strided<[168, 7, 1], offset: 42>>
  %b2 = memref.subview %rows[2, 0, 0] [2, 6, 5] [4, 1, 1] : memref<8x6x7xi8> to memref<2x6x5xi8, strided<[168, 7, 1], offset: 84>>
  %b3 = memref.subview %rows[3, 0, 0] [2, 6, 5] [4, 1, 1] : memref<8x6x7xi8> to memref<2x6x5xi8, strided<[168, 7, 1], offset: 126>>
  linalg.generic {indexing_maps = [#id3, #id3, #id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b0, %b1, %b2, %b3 : memref<2x6x5xi8, strided<[168, 7, 1]>>, memref<2x6x5xi8, strided<[168, 7, 1], offset: 42>>,
                               memref<2x6x5xi8, strided<[168, 7, 1], offset: 84>>, memref<2x6x5xi8, strided<[168, 7, 1], offset: 126>>)
      outs(%words : memref<2x6x5xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %s1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %s1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %s2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %s2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %s3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %s3 : i32
    linalg.yield %o3 : i32
  }
  memref.copy %words, %out : memref<2x6x5xi32> to memref<2x6x5xi32>
  return
}

// -----

// A float result computed over rows with a pitch (7: 5 columns and the
// padded width's 2), whose activation ran in the epilogue, read only by the
// copy that drops the pitch columns: a packing of one channel a word. The
// kernel stores the rows without their pitch columns, a vector of 16
// positions in one masked part per row it spans (3), r x 2 elements further
// back for row r; channel c's plane 30 elements on. The copy and the
// pitched buffer are gone.
// CHECK-LABEL: func.func @compacting_copy
// CHECK-NOT: memref<8x42xf32>
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [240], strides: [1]
// CHECK: arith.maximumf
// CHECK: %[[R0:.*]] = vector.constant_mask [5] : vector<16xi1>
// CHECK: vector.maskedstore %[[FLAT]][%c0], %[[R0]], %{{.*}} : memref<240xf32
// CHECK: vector.maskedstore %[[FLAT]][%c-2], %{{.*}}, %{{.*}} : memref<240xf32
// CHECK: vector.maskedstore %[[FLAT]][%c-4], %{{.*}}, %{{.*}} : memref<240xf32
// The second vector (positions 16-31) starts at row 2's column 2.
// CHECK: vector.constant_mask [3]
// CHECK: vector.maskedstore %[[FLAT]][%c12]
// CHECK: vector.maskedstore %[[FLAT]][%c10]
// CHECK: vector.maskedstore %[[FLAT]][%c8]
// Channel 1: 30 elements on.
// CHECK: vector.maskedstore %[[FLAT]][%c30]
// CHECK-NOT: linalg.copy
// CHECK-NOT: linalg.generic
#xk = affine_map<(c, p, k) -> (k, p)>
#ck = affine_map<(c, p, k) -> (c, k)>
#cp = affine_map<(c, p, k) -> (c, p)>
#id = affine_map<(c, p) -> (c, p)>

func.func @compacting_copy(%x: memref<4x40xf32>, %w: memref<8x4xf32>, %out: memref<8x6x5xf32>) {
  %acc = memref.alloc() : memref<8x40xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<8x40xf32>)
  linalg.generic {indexing_maps = [#xk, #ck, #cp], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x40xf32>, memref<8x4xf32>) outs(%acc : memref<8x40xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  %y = memref.alloc() : memref<8x42xf32>
  %yv = memref.subview %y[0, 0] [8, 40] [1, 1] : memref<8x42xf32> to memref<8x40xf32, strided<[42, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x40xf32>) outs(%yv : memref<8x40xf32, strided<[42, 1]>>) {
  ^bb0(%t: f32, %o: f32):
    %r = arith.maximumf %t, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %acc : memref<8x40xf32>
  %compact = memref.alloc() : memref<8x6x5xf32>
  %rows = memref.expand_shape %y [[0], [1, 2]] output_shape [8, 6, 7] : memref<8x42xf32> into memref<8x6x7xf32>
  %columns = memref.subview %rows[0, 0, 0] [8, 6, 5] [1, 1, 1] : memref<8x6x7xf32> to memref<8x6x5xf32, strided<[42, 7, 1]>>
  linalg.copy ins(%columns : memref<8x6x5xf32, strided<[42, 7, 1]>>) outs(%compact : memref<8x6x5xf32>)
  memref.copy %compact, %out : memref<8x6x5xf32> to memref<8x6x5xf32>
  return
}
