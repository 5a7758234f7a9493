// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2" --canonicalize --split-input-file | FileCheck %s

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A 13x37 += 13x7 * 7x37 product: tiles of 8 rows x 2 vectors of 16 lanes,
// with a last block of 5 rows and a last group of one half-width vector (8
// lanes: half the cost of 16 where a CPU splits 512-bit vectors) holding 5.
// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: memref<13x7xf32>, %b: memref<7x37xf32>, %c: memref<13x37xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<13x7xf32>, memref<7x37xf32>) outs(%c : memref<13x37xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// Full tile: the 16 accumulators are loaded once, carried through the
// reduction loop and stored once; each step loads 2 vectors of B, broadcasts
// 8 scalars of A and does 16 FMAs.
// CHECK-DAG: %[[MASK:.*]] = arith.constant dense<[true, true, true, true, true, false,
// CHECK-DAG: %[[A:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [91], strides: [1]
// CHECK-DAG: %[[B:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [259], strides: [1]
// CHECK-DAG: %[[C:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [481], strides: [1]
// CHECK-COUNT-16: vector.load %[[C]]
// CHECK: %[[ACC:.*]]:16 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xf32>,
// CHECK:   %[[A0:.*]] = memref.load %[[A]][%[[K]]]
// CHECK:   %[[A0V:.*]] = vector.broadcast %[[A0]] : f32 to vector<16xf32>
// CHECK:   %[[B0:.*]] = vector.load %[[B]]
// CHECK:   vector.fma %[[A0V]], %[[B0]], %{{.*}} : vector<16xf32>
// CHECK-COUNT-15: vector.fma
// CHECK-NOT: vector.fma
// CHECK:   scf.yield
// CHECK-COUNT-16: vector.store %[[ACC]]#{{[0-9]+}}, %[[C]]
// Last vector of the first 8 rows: 5 of 8 lanes, masked.
// CHECK-COUNT-8: vector.maskedload %[[C]][%{{.*}}], %[[MASK]], %{{.*}} : {{.*}}, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>,
// CHECK-COUNT-8: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-8: vector.maskedstore %[[C]][%{{.*}}], %[[MASK]]
// Last 5 rows: 5 x 2 and 5 x 1 tiles.
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-10: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-5: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-NOT: linalg.generic

// -----

// One tap of a stride-2 convolution: acc[f, oh, ow] += x[c, 2oh, 2ow] * w[f, c].
// Rows are the filters (x's vectors are shared by all rows); x's lanes are
// 2 apart: 7 contiguous elements are loaded and the even ones kept. Rows of
// 4 outputs take half-width vectors (8 lanes).
// CHECK-LABEL: func.func @strided_tap
func.func @strided_tap(%x: memref<3x9x9xf32, strided<[81, 9, 1], offset: 10>>,
                       %w: memref<4x3xf32, strided<[27, 9], offset: 4>>,
                       %acc: memref<4x4x4xf32>) {
  %window = memref.subview %x[0, 0, 0] [3, 4, 4] [1, 2, 2] : memref<3x9x9xf32, strided<[81, 9, 1], offset: 10>> to memref<3x4x4xf32, strided<[81, 18, 2], offset: 10>>
  linalg.generic {indexing_maps = [affine_map<(f, h, w, c) -> (c, h, w)>, affine_map<(f, h, w, c) -> (f, c)>, affine_map<(f, h, w, c) -> (f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%window, %w : memref<3x4x4xf32, strided<[81, 18, 2], offset: 10>>, memref<4x3xf32, strided<[27, 9], offset: 4>>) outs(%acc : memref<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-DAG: %[[SEVEN:.*]] = arith.constant dense<[true, true, true, true, true, true, true, false]> : vector<8xi1>
// CHECK-DAG: %[[X:.*]] = memref.reinterpret_cast %{{.*}} to offset: [10], sizes: [223], strides: [1]
// CHECK-DAG: %[[W:.*]] = memref.reinterpret_cast %{{.*}} to offset: [4], sizes: [100], strides: [1]
// CHECK: scf.parallel (%[[H:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   %[[XS:.*]] = vector.maskedload %[[X]][%{{.*}}], %[[SEVEN]]
// CHECK:   %[[XV:.*]] = vector.shuffle %[[XS]], %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<8xf32>
// CHECK:   memref.load %[[W]]
// CHECK:   vector.fma %[[XV]]
// CHECK-COUNT-3: vector.fma %[[XV]]

// -----

// A 3x3 stride-2 max pooling (not a contraction: its body runs on vectors).
// Rows are output rows; each of the 8 x 2 vectors of a step is two loads
// and a shuffle of their even elements.
// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: memref<1x8x65x65xf32>, %y: memref<1x8x32x32xf32>) {
  %window = memref.alloc() : memref<3x3xf32>
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %window : memref<1x8x65x65xf32>, memref<3x3xf32>) outs(%y : memref<1x8x32x32xf32>)
  return
}
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK-COUNT-16: vector.load
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-16: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: scf.yield
// CHECK-NOT: linalg.pooling

// -----

// An int8 contraction with int32 accumulators: the operands are loaded as
// vectors of i8 (16 lanes: the i32 accumulator fills a 512-bit register),
// extended as the body says and multiplied and added in i32.
// CHECK-LABEL: func.func @matmul_s8u8
func.func @matmul_s8u8(%a: memref<9x7xi8>, %b: memref<7x32xi8>, %c: memref<9x32xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<9x7xi8>, memref<7x32xi8>) outs(%c : memref<9x32xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extui %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}
// CHECK-DAG: %[[A:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [63], strides: [1]
// CHECK-DAG: %[[B:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [224], strides: [1]
// CHECK-DAG: %[[C:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [288], strides: [1]
// CHECK-COUNT-16: vector.load %[[C]]{{.*}} vector<16xi32>
// CHECK: %[[ACC:.*]]:16 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xi32>,
// CHECK:   %[[A0:.*]] = memref.load %[[A]][%[[K]]] : memref<63xi8
// CHECK:   %[[A0V:.*]] = vector.broadcast %[[A0]] : i8 to vector<16xi8>
// CHECK:   %[[B0:.*]] = vector.load %[[B]][%{{.*}}] : memref<224xi8, strided<[1]>>, vector<16xi8>
// CHECK:   %[[AE:.*]] = arith.extsi %[[A0V]] : vector<16xi8> to vector<16xi32>
// CHECK:   %[[BE:.*]] = arith.extui %[[B0]] : vector<16xi8> to vector<16xi32>
// CHECK:   %[[P:.*]] = arith.muli %[[AE]], %[[BE]] : vector<16xi32>
// CHECK:   arith.addi %{{.*}}, %[[P]] : vector<16xi32>
// CHECK-COUNT-15: arith.muli {{.*}} : vector<16xi32>
// CHECK-NOT: arith.muli
// CHECK:   scf.yield
// CHECK-COUNT-16: vector.store %[[ACC]]#{{[0-9]+}}, %[[C]]
// CHECK-NOT: linalg.generic

// -----

// A uint8 max pooling (3x3, stride 1): the body runs on vectors of 64 i8 lanes.
// CHECK-LABEL: func.func @max_pool_u8
func.func @max_pool_u8(%x: memref<1x2x9x130xi8>, %y: memref<1x2x7x128xi8>) {
  %window = memref.alloc() : memref<3x3xi8>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (n, c, h + kh, w + kw)>, affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>, affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<1x2x9x130xi8>, memref<3x3xi8>) outs(%y : memref<1x2x7x128xi8>) {
  ^bb0(%in: i8, %w: i8, %out: i8):
    %m = arith.maxui %out, %in : i8
    linalg.yield %m : i8
  }
  return
}
// CHECK-COUNT-14: vector.load {{.*}} vector<64xi8>
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-14: arith.maxui {{.*}} : vector<64xi8>
// CHECK-NOT: arith.maxui
// CHECK: scf.yield
// CHECK-NOT: linalg.generic

// -----

// A convolution packed for vpdpbusd (Conversion/ONNXToLinalg/qlinear-vnni.mlir):
// int32 operands holding four bytes each, body out + dot4(in, w). Each
// accumulator step is one vpdpbusd of 16 lanes: the input's vector
// (N-walking, 64 bytes), the filter's word broadcast to all lanes.
#in = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
// CHECK-LABEL: func @dot4
// CHECK-NOT: linalg.generic
// CHECK: vector.bitcast %{{.*}} : vector<16xi32> to vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
func.func @dot4(%x: memref<1x2x18x18xi32>, %w: memref<8x2x3x3xi32>, %y: memref<1x8x16x16xi32>) {
  linalg.generic {indexing_maps = [#in, #w, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x18x18xi32>, memref<8x2x3x3xi32>) outs(%y : memref<1x8x16x16xi32>) {
  ^bb0(%a: i32, %b: i32, %acc: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %bv = vector.broadcast %b : i32 to vector<1xi32>
    %bb = vector.bitcast %bv : vector<1xi32> to vector<4xi8>
    %be = arith.extsi %bb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %be : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %acc, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// A 1x1 convolution over a 7 x 7 map, packed for vpdpbusd: 49 positions are
// a tile of 2 vectors, one of 1 vector, and the last position on half-width
// vectors (vpdpbusd of 8 lanes: half the cost of 16 where a CPU splits
// 512-bit vectors, where a masked 16-lane one cost all of it).
#in = affine_map<(n, f, p, c) -> (n, c, p)>
#w = affine_map<(n, f, p, c) -> (f, c)>
#out = affine_map<(n, f, p, c) -> (n, f, p)>
// CHECK-LABEL: func @dot4_half_width
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<[true, false, false, false, false, false, false, false]> : vector<8xi1>
// CHECK: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>,
// CHECK-COUNT-16: "llvm.x86.avx512.vpdpbusd.512"
// CHECK: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>,
// CHECK-COUNT-8: "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.maskedload %{{.*}}[%c48], %[[ONE]]
// CHECK: scf.for {{.*}} -> (vector<8xi32>, vector<8xi32>,
// CHECK: vector.maskedload %{{.*}}, %[[ONE]], %{{.*}} : memref<196xi32, strided<[1]>>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// CHECK-COUNT-7: "llvm.x86.avx512.vpdpbusd.256"
// CHECK-NOT: vpdpbusd
// CHECK: vector.maskedstore %{{.*}}[%c48], %[[ONE]]
func.func @dot4_half_width(%x: memref<1x4x49xi32>, %w: memref<8x4xi32>, %y: memref<1x8x49xi32>) {
  linalg.generic {indexing_maps = [#in, #w, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x4x49xi32>, memref<8x4xi32>) outs(%y : memref<1x8x49xi32>) {
  ^bb0(%a: i32, %b: i32, %acc: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %bv = vector.broadcast %b : i32 to vector<1xi32>
    %bb = vector.bitcast %bv : vector<1xi32> to vector<4xi8>
    %be = arith.extsi %bb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %be : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %acc, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// A reduction into a single element has no output loop to hold vectors: it
// stays as it is, for the baseline (its plan once read past the end of its
// empty list of output loops, and a garbage plan crashed calibration now
// and then).
// CHECK-LABEL: func @reduce_to_scalar
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @reduce_to_scalar(%x: memref<3x224x224xf32>, %y: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> ()>],
                  iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : memref<3x224x224xf32>) outs(%y : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matrix-vector product (a squeeze-and-excitation convolution): no loop
// for rows, so one row of 8 vectors (rows x vectors / 2), whose
// accumulators are its only independent chains: 128 + 72 filters of 200,
// then 8 lanes masked.
// CHECK-LABEL: func @matrix_vector
// CHECK: %{{.*}}:8 = scf.for {{.*}} -> (vector<16xf32>,
// CHECK:   memref.load
// CHECK:   vector.broadcast
// CHECK-COUNT-8: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK: %{{.*}}:5 = scf.for {{.*}} -> (vector<16xf32>,
// CHECK-COUNT-5: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
func.func @matrix_vector(%x: memref<1x1x64xf32>, %w: memref<1x64x200xf32>, %y: memref<1x1x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c) -> (n, g, c)>,
                                   affine_map<(n, g, f, c) -> (g, c, f)>,
                                   affine_map<(n, g, f, c) -> (n, g, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x64xf32>, memref<1x64x200xf32>) outs(%y : memref<1x1x200xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The outer loop, the one onnxq-parallelize splits over threads, is over the
// rows' blocks when the operand walking the rows is the larger (a deep
// convolution's filters: each thread then reads its own), else over panels
// of columns (the output positions).
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @rows_outer
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to (%c1024, %c512, %c64) step (%c8, %c64, %c32)
// CHECK-LABEL: func.func @panels_outer
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to (%c512, %c64, %c64) step (%c64, %c8, %c32)
func.func @rows_outer(%a: memref<1024x4xf32>, %b: memref<4x512xf32>, %c: memref<1024x512xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1024x4xf32>, memref<4x512xf32>) outs(%c : memref<1024x512xf32>) {
  ^bb0(%x: f32, %w: f32, %s: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}
func.func @panels_outer(%a: memref<64x16xf32>, %b: memref<16x512xf32>, %c: memref<64x512xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x16xf32>, memref<16x512xf32>) outs(%c : memref<64x512xf32>) {
  ^bb0(%x: f32, %w: f32, %s: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A last partial panel (528 columns: five panels of 96 and one of 48) is an
// iteration of the panel loop, a branch in its body, not code after the
// loop: onnxq-parallelize splits that one loop over threads, where a
// remainder after it would be a second split, or serial.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @last_panel
// CHECK: scf.parallel (%[[P:.*]]) = (%c0) to (%c528) step (%c96) {
// CHECK: %[[FULL:.*]] = arith.cmpi ult, %[[P]], %c480 : index
// CHECK: scf.if %[[FULL]] {
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c64, %c96) step (%c8, %c32)
// CHECK: } else {
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c64) step (%c8)
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @last_panel(%a: memref<64x16xf32>, %b: memref<16x528xf32>, %c: memref<64x528xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x16xf32>, memref<16x528xf32>) outs(%c : memref<64x528xf32>) {
  ^bb0(%x: f32, %w: f32, %s: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An output of 8 to 15 tiles gets a panel per tile (300 columns: 10 tiles
// of 32), so that the loop split over threads has 8 parts or more: the zoo
// MobileNetV2's classifier (1000 outputs, 8 tiles of 128) had 3 panels, one
// for a thread of two and two for the other.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @panel_per_tile
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c300) step (%c32) {
func.func @panel_per_tile(%a: memref<64x4xf32>, %b: memref<4x300xf32>, %c: memref<64x300xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x4xf32>, memref<4x300xf32>) outs(%c : memref<64x300xf32>) {
  ^bb0(%x: f32, %w: f32, %s: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}
