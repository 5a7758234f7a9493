// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2" --canonicalize --split-input-file | FileCheck %s

// A 1x1 convolution whose requantization writes the interior of its
// consumer's padded input (onnxq-bufferize), a buffer filled with the
// padding value (the zero point, 3) just before: the kernel stores the
// padding between the rows it writes, and the fill keeps only the rest.
// Rows of 24 positions with a pitch of 26: after each row's last element,
// 2 bytes (the row's right padding and the next row's left padding) when
// the row ends in the vector. The fill keeps the top and bottom rows and
// the first row's left padding: 26 + 26 + 1 bytes per filter of 104.

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// CHECK-LABEL: func.func @row_padding
// CHECK-DAG: %[[ZP:.*]] = arith.constant 3 : i8
// CHECK-DAG: %[[GAP:.*]] = arith.constant dense<3> : vector<2xi8>
// CHECK-NOT: outs(%[[BUF:.*]] : memref<8x4x26xi8>)
// CHECK: %[[TOP:.*]] = memref.subview %[[B:.*]][0, 0, 0] [8, 1, 26] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[TOP]]
// CHECK-NEXT: %[[BOTTOM:.*]] = memref.subview %[[B]][0, 3, 0] [8, 1, 26] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[BOTTOM]]
// CHECK-NEXT: %[[LEFT:.*]] = memref.subview %[[B]][0, 1, 0] [8, 1, 1] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[LEFT]]
// CHECK-NOT: linalg.fill
// CHECK: %[[Y:.*]] = memref.reinterpret_cast %{{.*}} to offset: [27], sizes: [{{.*}}], strides: [1]
// The vector of positions 16-31 holds the end of row 0 (lane 8): the
// padding after it, 8 elements on (a run-time test of the row's end where
// the tile's position is not constant; constant here); the vector is then
// stored in two parts.
// CHECK: vector.store %{{.*}}, %[[Y]][%c0] : {{.*}}, vector<16xi8>
// CHECK-NEXT: vector.store %[[GAP]], %[[Y]][%c24] : {{.*}}, vector<2xi8>
// CHECK: vector.maskedstore %[[Y]][%c16]
// CHECK: vector.maskedstore %[[Y]][%c18]
// Filter 1, 104 elements on.
// CHECK: vector.store %{{.*}}, %[[Y]][%c104] : {{.*}}, vector<16xi8>
// CHECK-NEXT: vector.store %[[GAP]], %[[Y]][%c128] : {{.*}}, vector<2xi8>
// The second tile, positions 32-47: row 1 from column 8, which ends at lane 16.
// CHECK: vector.store %[[GAP]], %[[Y]][%c50] : {{.*}}, vector<2xi8>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @row_padding(%x: memref<4x2x24xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                       %out: memref<8x4x26xi8>) {
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
  %zp = arith.constant 3 : i8
  %padded = memref.alloc() : memref<8x4x26xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<8x4x26xi8>)
  %interior = memref.subview %padded[0, 1, 1] [8, 2, 24] [1, 1, 1]
      : memref<8x4x26xi8> to memref<8x2x24xi8, strided<[104, 26, 1], offset: 27>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x24xi32>, memref<8xf32>)
      outs(%interior : memref<8x2x24xi8, strided<[104, 26, 1], offset: 27>>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x24xi32>
  memref.copy %padded, %out : memref<8x4x26xi8> to memref<8x4x26xi8>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// The same, but the padded buffer is read between its fill and the
// requantization: the whole fill stays, and the kernel stores no padding.
// CHECK-LABEL: func.func @read_before_written
// CHECK: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : memref<8x4x26xi8>)
// CHECK: memref.copy
// CHECK-NOT: vector<2xi8>
// CHECK: return
func.func @read_before_written(%x: memref<4x2x24xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                               %out: memref<8x4x26xi8>, %early: memref<8x4x26xi8>) {
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
  %zp = arith.constant 3 : i8
  %padded = memref.alloc() : memref<8x4x26xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<8x4x26xi8>)
  memref.copy %padded, %early : memref<8x4x26xi8> to memref<8x4x26xi8>
  %interior = memref.subview %padded[0, 1, 1] [8, 2, 24] [1, 1, 1]
      : memref<8x4x26xi8> to memref<8x2x24xi8, strided<[104, 26, 1], offset: 27>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x24xi32>, memref<8xf32>)
      outs(%interior : memref<8x2x24xi8, strided<[104, 26, 1], offset: 27>>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x24xi32>
  memref.copy %padded, %out : memref<8x4x26xi8> to memref<8x4x26xi8>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// No padding row below the interior (padding at the top and left only):
// the bytes after the last row's would be the next filter's, so the whole
// fill stays.
// CHECK-LABEL: func.func @no_row_below
// CHECK: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : memref<8x3x25xi8>)
// CHECK-NOT: vector<2xi8>
// CHECK-NOT: vector<1xi8>
// CHECK: return
func.func @no_row_below(%x: memref<4x2x24xi8>, %w: memref<8x4xi8>, %scale: memref<8xf32>,
                        %out: memref<8x3x25xi8>) {
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
  %zp = arith.constant 3 : i8
  %padded = memref.alloc() : memref<8x3x25xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<8x3x25xi8>)
  %interior = memref.subview %padded[0, 1, 1] [8, 2, 24] [1, 1, 1]
      : memref<8x3x25xi8> to memref<8x2x24xi8, strided<[75, 25, 1], offset: 26>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<8x2x24xi32>, memref<8xf32>)
      outs(%interior : memref<8x2x24xi8, strided<[75, 25, 1], offset: 26>>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<8x2x24xi32>
  memref.copy %padded, %out : memref<8x3x25xi8> to memref<8x3x25xi8>
  return
}

// -----

#xk = affine_map<(c, h, w, k) -> (k, h, w)>
#ck = affine_map<(c, h, w, k) -> (c, k)>
#chw = affine_map<(c, h, w, k) -> (c, h, w)>
#c = affine_map<(c, h, w) -> (c)>
#id = affine_map<(c, h, w) -> (c, h, w)>

// Filters outweigh the input (320 bytes against 256): the blocks of 8
// filters are the kernel's outer loop, the one split over threads, and each
// writes its filters' planes whole. Each block fills the padding around its
// planes (top and bottom rows, the first row's left padding) before it
// writes them, where the fill did it for all planes before the kernel; the
// last block, of 4 filters, too.
// CHECK-LABEL: func.func @planes_per_row_block
// CHECK-DAG: %[[ZP:.*]] = arith.constant 3 : i8
// CHECK-NOT: linalg.fill
// CHECK: scf.parallel (%[[F:.*]]) = (%c0) to (%c20) step (%c8)
// CHECK: scf.if
// CHECK-NEXT: %[[TOP:.*]] = memref.subview %[[B:.*]][%[[F]], 0, 0] [8, 1, 10] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[TOP]]
// CHECK-NEXT: %[[BOTTOM:.*]] = memref.subview %[[B]][%[[F]], 3, 0] [8, 1, 10] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[BOTTOM]]
// CHECK-NEXT: %[[LEFT:.*]] = memref.subview %[[B]][%[[F]], 1, 0] [8, 1, 1] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[LEFT]]
// CHECK: vector.store
// CHECK: } else {
// CHECK-NEXT: %[[TOP4:.*]] = memref.subview %[[B]][16, 0, 0] [4, 1, 10] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[TOP4]]
// CHECK-NEXT: %[[BOTTOM4:.*]] = memref.subview %[[B]][16, 3, 0] [4, 1, 10] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[BOTTOM4]]
// CHECK-NEXT: %[[LEFT4:.*]] = memref.subview %[[B]][16, 1, 0] [4, 1, 1] [1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%[[ZP]] : i8) outs(%[[LEFT4]]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @planes_per_row_block(%x: memref<16x2x8xi8>, %w: memref<20x16xi8>, %scale: memref<20xf32>,
                       %out: memref<20x4x10xi8>) {
  %acc = memref.alloc() : memref<20x2x8xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<20x2x8xi32>)
  linalg.generic {indexing_maps = [#xk, #ck, #chw], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<16x2x8xi8>, memref<20x16xi8>) outs(%acc : memref<20x2x8xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %ae = arith.extui %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  %zp = arith.constant 3 : i8
  %padded = memref.alloc() : memref<20x4x10xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<20x4x10xi8>)
  %interior = memref.subview %padded[0, 1, 1] [20, 2, 8] [1, 1, 1]
      : memref<20x4x10xi8> to memref<20x2x8xi8, strided<[40, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc, %scale : memref<20x2x8xi32>, memref<20xf32>)
      outs(%interior : memref<20x2x8xi8, strided<[40, 10, 1], offset: 11>>) {
  ^bb0(%t: i32, %s: f32, %o: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.trunci %i : i32 to i8
    linalg.yield %q : i8
  }
  memref.dealloc %acc : memref<20x2x8xi32>
  memref.copy %padded, %out : memref<20x4x10xi8> to memref<20x4x10xi8>
  return
}
