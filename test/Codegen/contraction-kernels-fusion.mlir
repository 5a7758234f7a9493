// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2" --canonicalize --split-input-file | FileCheck %s

// The element-wise ops that start and finish a contraction's output join its
// kernel: the accumulators begin as the prologue's values (here each row's
// bias, broadcast) instead of a load, and the epilogue (here a
// requantization to i8) runs on them in registers, its result stored where
// the accumulators would have been. The accumulator buffer, an allocation
// nothing else reads, is then neither written nor read.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @fused
// CHECK-DAG: %[[Y:.*]] = memref.reinterpret_cast %arg4 to offset: [0], sizes: [256], strides: [1]
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.alloc
// CHECK: %[[B0:.*]] = memref.load %arg2[%c0]
// CHECK: %[[B0V:.*]] = vector.broadcast %[[B0]] : i32 to vector<16xi32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[B0V]], %{{.*}} = %[[B0V]],
// CHECK-COUNT-16: arith.addi {{.*}} : vector<16xi32>
// CHECK: scf.yield
// CHECK: memref.load %arg3[%c0]
// CHECK: arith.sitofp {{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: arith.fptosi {{.*}} : vector<16xf32> to vector<16xi32>
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: vector.store %{{.*}}, %[[Y]][%c0] : memref<256xi8, strided<[1]>>, vector<16xi8>
// CHECK-COUNT-15: vector.store {{.*}} vector<16xi8>
// CHECK-NOT: vector.store
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @fused(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %bias: memref<8xi32>,
                 %scale: memref<8xf32>, %y: memref<8x32xi8>) {
  %acc = memref.alloc() : memref<8x32xi32>
  linalg.generic {indexing_maps = [#m, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<8xi32>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  }
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x32xi8>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %scale : memref<8x32xi32>, memref<8xf32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %s: f32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// A fill starts the accumulators as its value, broadcast. The output is read
// again after the element-wise op (returned here through a copy), so that op
// stays a loop of its own and the accumulators are stored.
// CHECK-LABEL: func.func @shared_output
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[ALLOC:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK-DAG: %[[ACC:.*]] = memref.reinterpret_cast %[[ALLOC]] to offset: [0], sizes: [256], strides: [1]
// CHECK-NOT: linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]],
// CHECK-COUNT-16: vector.store %{{.*}}, %[[ACC]]
// CHECK: linalg.generic {{.*}} ins(%[[ALLOC]] : memref<8x32xf32>)
// CHECK: linalg.copy ins(%[[ALLOC]]
func.func @shared_output(%a: memref<8x4xf32>, %b: memref<4x32xf32>, %y: memref<8x32xf32>,
                         %z: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x32xf32>) outs(%acc : memref<8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %s: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%t: f32, %out: f32):
    %r = arith.maximumf %t, %zero : f32
    linalg.yield %r : f32
  }
  linalg.copy ins(%acc : memref<8x32xf32>) outs(%z : memref<8x32xf32>)
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

// 17 columns: the last vector of a row (a half-width one) holds one lane. Fewer than 4 bytes
// are stored lane by lane (LLVM 22 lowers a masked store of lane 0 of a
// truncated byte vector to a 4-byte vmovss, past the lane).
// CHECK-LABEL: func.func @byte_remainder
// CHECK-COUNT-8: vector.store {{.*}} vector<16xi8>
// CHECK-NOT: vector.maskedstore
// CHECK: %[[LANE:.*]] = vector.extract %{{.*}}[0] : i8 from vector<8xi8>
// CHECK: memref.store %[[LANE]]
// CHECK-NOT: vector.maskedstore
// CHECK: return
func.func @byte_remainder(%a: memref<8x4xi8>, %b: memref<4x17xi8>, %bias: memref<8xi32>,
                          %y: memref<8x17xi8>) {
  %acc = memref.alloc() : memref<8x17xi32>
  linalg.generic {indexing_maps = [#m, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<8xi32>) outs(%acc : memref<8x17xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  }
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x17xi8>) outs(%acc : memref<8x17xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x17xi32>) outs(%y : memref<8x17xi8>) {
  ^bb0(%t: i32, %out: i8):
    %q = arith.trunci %t : i32 to i8
    linalg.yield %q : i8
  }
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// The element-wise op writes into the matrix product's input: the kernel
// still reads it while it stores, so that op stays a loop of its own.
// CHECK-LABEL: func.func @in_place_finish
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} outs(%arg1 : memref<16x16xf32>)
func.func @in_place_finish(%a: memref<16x16xf32>, %b: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%acc : memref<16x16xf32>) {
  ^bb0(%x: f32, %w: f32, %s: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x16xf32>) outs(%b : memref<16x16xf32>) {
  ^bb0(%t: f32, %out: f32):
    %r = arith.maximumf %t, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %acc : memref<16x16xf32>
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// The epilogue need not follow the contraction: a Concat's requantizations
// come after all of its inputs' convolutions. The kernel moves down to it,
// past ops that write no buffer the contraction reads (here an unrelated
// copy), and the accumulator buffer goes.
// CHECK-LABEL: func.func @later_epilogue
// CHECK-NOT: memref.alloc
// CHECK: linalg.copy ins(%arg3 : memref<8x32xi8>) outs(%arg4 : memref<8x32xi8>)
// CHECK: scf.for
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: vector.store {{.*}} vector<16xi8>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @later_epilogue(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %y: memref<8x32xi8>,
                          %other: memref<8x32xi8>, %other_out: memref<8x32xi8>) {
  %zero = arith.constant 0 : i32
  %acc = memref.alloc() : memref<8x32xi32>
  linalg.fill ins(%zero : i32) outs(%acc : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x32xi8>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.copy ins(%other : memref<8x32xi8>) outs(%other_out : memref<8x32xi8>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xi32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %q = arith.trunci %t : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// Two contractions whose epilogues both follow them (a Concat's two
// requantizations). The first kernel moves down to its epilogue, past the
// second contraction; the second then moves past the first's kernel, whose
// memory effects are those of its loads and stores (its vpdpbusd
// intrinsics touch no buffer). Both accumulators stay in registers.
// CHECK-LABEL: func.func @interleaved_epilogues
// CHECK-NOT: memref.alloc
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @interleaved_epilogues(%a: memref<8x4xi32>, %b: memref<4x32xi32>, %c: memref<8x4xi32>,
                                 %d: memref<4x32xi32>, %y: memref<8x32xi8>, %z: memref<8x32xi8>) {
  %zero = arith.constant 0 : i32
  %acc1 = memref.alloc() : memref<8x32xi32>
  %acc2 = memref.alloc() : memref<8x32xi32>
  linalg.fill ins(%zero : i32) outs(%acc1 : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi32>, memref<4x32xi32>) outs(%acc1 : memref<8x32xi32>) {
  ^bb0(%x: i32, %w: i32, %s: i32):
    %xv = vector.broadcast %x : i32 to vector<1xi32>
    %xb = vector.bitcast %xv : vector<1xi32> to vector<4xi8>
    %xe = arith.extui %xb : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %w : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %xe, %we : vector<4xi32>
    %r = vector.reduction <add>, %p : vector<4xi32> into i32
    %t = arith.addi %s, %r : i32
    linalg.yield %t : i32
  }
  linalg.fill ins(%zero : i32) outs(%acc2 : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c, %d : memref<8x4xi32>, memref<4x32xi32>) outs(%acc2 : memref<8x32xi32>) {
  ^bb0(%x: i32, %w: i32, %s: i32):
    %xv = vector.broadcast %x : i32 to vector<1xi32>
    %xb = vector.bitcast %xv : vector<1xi32> to vector<4xi8>
    %xe = arith.extui %xb : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %w : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %xe, %we : vector<4xi32>
    %r = vector.reduction <add>, %p : vector<4xi32> into i32
    %t = arith.addi %s, %r : i32
    linalg.yield %t : i32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc1 : memref<8x32xi32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %q = arith.trunci %t : i32 to i8
    linalg.yield %q : i8
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc2 : memref<8x32xi32>) outs(%z : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %q = arith.trunci %t : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc1 : memref<8x32xi32>
  memref.dealloc %acc2 : memref<8x32xi32>
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// An op between the contraction and the op reading its output writes the
// contraction's input: the contraction cannot move past it, so the
// accumulators are stored and the element-wise op stays a loop of its own.
// CHECK-LABEL: func.func @input_overwritten
// CHECK: %[[ALLOC:.*]] = memref.alloc() : memref<8x32xi32>
// CHECK: scf.for
// CHECK: vector.store
// CHECK: linalg.fill ins(%{{.*}} : i8) outs(%arg0 : memref<8x4xi8>)
// CHECK: linalg.generic {{.*}} ins(%[[ALLOC]] : memref<8x32xi32>) outs(%arg2 : memref<8x32xi8>)
func.func @input_overwritten(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %y: memref<8x32xi8>) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i8
  %acc = memref.alloc() : memref<8x32xi32>
  linalg.fill ins(%zero : i32) outs(%acc : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x32xi8>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.fill ins(%one : i8) outs(%a : memref<8x4xi8>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xi32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %q = arith.trunci %t : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// A 1x1 convolution whose requantization writes into the interior of its
// consumer's zero-padded input (onnxq-bufferize): its rows of 16 positions
// are merged into one N of 32 for the kernel, and the epilogue stores each
// vector at the padded row's pitch: row h of filter c at 72 c + 18 h past
// the interior's offset.
// CHECK-LABEL: func.func @pitched_epilogue
// CHECK-NOT: memref.alloc
// CHECK: %[[Y:.*]] = memref.reinterpret_cast %subview to offset: [19], sizes: [538], strides: [1]
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: vector.store %{{.*}}, %[[Y]][%c0] : memref<538xi8, strided<[1], offset: 19>>, vector<16xi8>
// CHECK: vector.store %{{.*}}, %[[Y]][%c18] :
// CHECK: vector.store %{{.*}}, %[[Y]][%c72] :
// CHECK: vector.store %{{.*}}, %[[Y]][%c90] :
// CHECK-COUNT-12: vector.store %{{.*}}, %[[Y]]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @pitched_epilogue(%x: memref<4x2x16xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                            %padded: memref<8x4x18xi8>) {
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
  %interior = memref.subview %padded[0, 1, 1] [8, 2, 16] [1, 1, 1]
      : memref<8x4x18xi8> to memref<8x2x16xi8, strided<[72, 18, 1], offset: 19>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x16xi32>, memref<8xf32>)
      outs(%interior : memref<8x2x16xi8, strided<[72, 18, 1], offset: 19>>) {
  ^bb0(%t: i32, %s: f32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x16xi32>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// Rows of 24 positions: the vector of positions 16-31 holds the end of the
// first row and the start of the second. It is stored in two masked parts:
// lanes below 24 - (f mod 24) (a run-time mask; constant here) at the first
// row's address, the others at that address plus (pitch - W) = 2.
// CHECK-LABEL: func.func @pitched_across_rows
// CHECK-NOT: memref.alloc
// CHECK: %[[Y:.*]] = memref.reinterpret_cast %subview to offset: [27], sizes: [{{.*}}], strides: [1]
// CHECK: vector.store %{{.*}}, %[[Y]][%c0] :
// CHECK: %[[M:.*]] = vector.constant_mask [8] : vector<16xi1>
// CHECK: vector.maskedstore %[[Y]][%c16], %[[M]]
// CHECK: %[[N:.*]] = arith.xori %[[M]], %cst
// CHECK: vector.maskedstore %[[Y]][%c18], %[[N]]
// CHECK: vector.store %{{.*}}, %[[Y]][%c104] :
// The second tile's vector starts at position 32: row 1, column 8.
// CHECK: vector.store %{{.*}}, %[[Y]][%c34] :
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @pitched_across_rows(%x: memref<4x2x24xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                               %padded: memref<8x4x26xi8>) {
  %acc = memref.alloc() : memref<8x2x24xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x2x24xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x2x24xi8>, memref<8x4xi8>) outs(%acc : memref<8x2x24xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %interior = memref.subview %padded[0, 1, 1] [8, 2, 24] [1, 1, 1]
      : memref<8x4x26xi8> to memref<8x2x24xi8, strided<[104, 26, 1], offset: 27>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x24xi32>, memref<8xf32>)
      outs(%interior : memref<8x2x24xi8, strided<[104, 26, 1], offset: 27>>) {
  ^bb0(%t: i32, %s: f32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x24xi32>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// Rows of 10 positions (8-bit outputs: rows of 7 or more are written in
// place): the vector of positions 16-31 spans rows 1, 2 and 3 and is
// stored in three masked parts from row 1, column 6 (18 elements past the
// interior's start), each (pitch - W) = 2 further on than the one before.
// CHECK-LABEL: func.func @pitched_three_rows
// CHECK-NOT: linalg.generic
// CHECK: vector.maskedstore %[[Y:.*]][%c18]
// CHECK: vector.maskedstore %[[Y]][%c20]
// CHECK: vector.maskedstore %[[Y]][%c22]
// CHECK: return
func.func @pitched_three_rows(%x: memref<4x4x10xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                              %padded: memref<8x6x12xi8>) {
  %acc = memref.alloc() : memref<8x4x10xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x4x10xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x4x10xi8>, memref<8x4xi8>) outs(%acc : memref<8x4x10xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %interior = memref.subview %padded[0, 1, 1] [8, 4, 10] [1, 1, 1]
      : memref<8x6x12xi8> to memref<8x4x10xi8, strided<[72, 12, 1], offset: 13>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x4x10xi32>, memref<8xf32>)
      outs(%interior : memref<8x4x10xi8, strided<[72, 12, 1], offset: 13>>) {
  ^bb0(%t: i32, %s: f32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x4x10xi32>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// Rows of 4 positions would put vectors of 16 across five rows: the
// requantization stays a loop of its own, after the kernel.
// CHECK-LABEL: func.func @pitched_short_rows
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : memref<8x2x4xi8, strided<[24, 6, 1], offset: 7>>)
func.func @pitched_short_rows(%x: memref<4x2x4xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                              %padded: memref<8x4x6xi8>) {
  %acc = memref.alloc() : memref<8x2x4xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x2x4xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x2x4xi8>, memref<8x4xi8>) outs(%acc : memref<8x2x4xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %interior = memref.subview %padded[0, 1, 1] [8, 2, 4] [1, 1, 1]
      : memref<8x4x6xi8> to memref<8x2x4xi8, strided<[24, 6, 1], offset: 7>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x4xi32>, memref<8xf32>)
      outs(%interior : memref<8x2x4xi8, strided<[24, 6, 1], offset: 7>>) {
  ^bb0(%t: i32, %s: f32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x4xi32>
  return
}

// -----

// The zero start of a float MatMul placed earlier, with another op between
// it and the MatMul (as at a function's start, among other buffers' fills),
// moves to the contraction and becomes its prologue: the accumulators start
// as zeros in registers, and the scale after it (attention's 1/sqrt(d)) is
// fused as the epilogue. Nothing is left of the fill, the accumulator buffer
// or the scale's loop.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @early_fill
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[EIGHTH:.*]] = arith.constant dense<1.250000e-01> : vector<16xf32>
// CHECK-NOT: linalg.
// CHECK-NOT: memref.alloc
// CHECK: linalg.copy
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]],
// CHECK-COUNT-16: vector.fma
// CHECK: scf.yield
// CHECK: arith.mulf %{{.*}}, %[[EIGHTH]] : vector<16xf32>
// CHECK: vector.store
// CHECK-NOT: linalg.
// CHECK: return
func.func @early_fill(%q: memref<8x64xf32>, %kt: memref<64x32xf32>, %x: memref<8x8xf32>,
                      %x2: memref<8x8xf32>, %y: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %eighth = arith.constant 0.125 : f32
  %acc = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<8x32xf32>)
  linalg.copy ins(%x : memref<8x8xf32>) outs(%x2 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %kt : memref<8x64xf32>, memref<64x32xf32>) outs(%acc : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%t: f32, %out: f32):
    %m = arith.mulf %t, %eighth : f32
    linalg.yield %m : f32
  }
  memref.dealloc %acc : memref<8x32xf32>
  return
}

// -----

// A fill whose buffer something else reads before the contraction stays.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @fill_read_first
// CHECK: linalg.fill
// CHECK: linalg.copy
// CHECK: vector.load
func.func @fill_read_first(%q: memref<8x64xf32>, %kt: memref<64x32xf32>,
                           %seen: memref<8x32xf32>, %y: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<8x32xf32>)
  linalg.copy ins(%acc : memref<8x32xf32>) outs(%seen : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %kt : memref<8x64xf32>, memref<64x32xf32>) outs(%acc : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  linalg.copy ins(%acc : memref<8x32xf32>) outs(%y : memref<8x32xf32>)
  memref.dealloc %acc : memref<8x32xf32>
  return
}
