// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="amx=true" --canonicalize --split-input-file | FileCheck %s

// A packed u8 x s8 pointwise convolution (int8-dot=amx: 16 channel words,
// weights channel-words last) on AMX tiles: 32 filters x 32 positions, four
// 16 x 16 int32 result tiles from zero; a step loads the two filter tiles
// (16 filters x 16 words: rows 16 words apart) and the two position tiles
// (16 words x 16 positions: rows 64 positions apart) and multiplies each
// pair (s8 x u8: zext on the activations, tdpbsud). The results go through
// the kernel's scratch (marked so that each outlined task gets its own)
// into vectors, where the output's start is added. Whether the process may
// use the tiles is asked per tile (onnxq_amx_ready, declared here and
// defined by onnxq-emit-abi); if not, the vpdpbusd kernel runs.
// CHECK-LABEL: func.func private @onnxq_amx_ready() -> i1
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME: (%[[X:.*]]: memref<1x1x16x64xi32>, %[[W:.*]]: memref<1x32x16xi32>, %[[ACC:.*]]: memref<1x1x32x64xi32>)
// CHECK-DAG: %[[XF:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [1024], strides: [1]
// CHECK-DAG: %[[WF:.*]] = memref.reinterpret_cast %[[W]] to offset: [0], sizes: [512], strides: [1]
// CHECK: %[[SCRATCH:.*]] = memref.alloca() {alignment = 64 : i64, onnxq.scratch} : memref<1024xi32>
// CHECK: scf.parallel (%[[P:.*]]) =
// CHECK: %[[READY:.*]] = func.call @onnxq_amx_ready() : () -> i1
// CHECK: scf.if %[[READY]] {
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xi32>
// CHECK: %[[A0:.*]] = amx.tile_load %[[WF]][%{{.*}}], %c16 : memref<512xi32, strided<[1]>> into !amx.tile<16x64xi8>
// CHECK: %[[A1:.*]] = amx.tile_load %[[WF]][%c256], %c16
// CHECK: %[[B0:.*]] = amx.tile_load %[[XF]][%[[P]]], %c64 : memref<1024xi32, strided<[1]>> into !amx.tile<16x64xi8>
// CHECK: %[[B1:.*]] = amx.tile_load %[[XF]][%{{.*}}], %c64
// CHECK: %[[C00:.*]] = amx.tile_muli %[[A0]], %[[B0]] zext, %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK: amx.tile_muli %[[A0]], %[[B1]] zext
// CHECK: amx.tile_muli %[[A1]], %[[B0]] zext
// CHECK: amx.tile_muli %[[A1]], %[[B1]] zext
// CHECK: amx.tile_store %[[SCRATCH]][%{{.*}}], %[[C00]], %c32 : memref<1024xi32>, !amx.tile<16x16xi32>
// CHECK-COUNT-3: amx.tile_store %[[SCRATCH]]
// CHECK: %[[SUM:.*]] = vector.load %[[SCRATCH]][%{{.*}}] : memref<1024xi32>, vector<16xi32>
// CHECK: %[[START:.*]] = vector.load %{{.*}} : memref<2048xi32, strided<[1]>>, vector<16xi32>
// CHECK: arith.addi %[[START]], %[[SUM]] : vector<16xi32>
// CHECK: } else {
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
func.func @pointwise(%x: memref<1x1x16x64xi32>, %w: memref<1x32x16xi32>, %acc: memref<1x1x32x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x16x64xi32>, memref<1x32x16xi32>) outs(%acc : memref<1x1x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// A deep 3x3 one (128 channel words: 8 steps a tap, 72 in all, more than
// unrolled): a loop over the 9 taps carries the results through the
// scratch, each iteration loading them, adding its tap's 8 steps and
// storing them back. 40 filters: the last 8 rows stay on vectors.
// CHECK-LABEL: func.func @deep
// CHECK: %[[SCRATCH:.*]] = memref.alloca() {alignment = 64 : i64, onnxq.scratch}
// CHECK: scf.if
// CHECK-COUNT-4: amx.tile_store %[[SCRATCH]]
// CHECK: scf.for %[[TAP:.*]] = %c0 to %c9 step %c1 {
// CHECK: %[[KW:.*]] = arith.remui %[[TAP]], %c3
// CHECK: %[[KH:.*]] = arith.divui %[[TAP]], %c3
// CHECK-COUNT-4: amx.tile_load %[[SCRATCH]]
// CHECK-COUNT-32: amx.tile_muli
// CHECK-COUNT-4: amx.tile_store %[[SCRATCH]]
// CHECK: }
// CHECK-NOT: amx.tile_muli
// CHECK: vector.load %[[SCRATCH]]
func.func @deep(%x: memref<1x1x128x100xi32>, %w: memref<1x40x3x3x128xi32>, %acc: memref<1x1x40x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c, kh, kw) -> (n, g, c, p + kh * 10 + kw)>, affine_map<(n, g, f, p, c, kh, kw) -> (g, f, kh, kw, c)>, affine_map<(n, g, f, p, c, kh, kw) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x128x100xi32>, memref<1x40x3x3x128xi32>) outs(%acc : memref<1x1x40x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Fewer than 16 channel words (the lowering adds none: getAMXChannelWords):
// one step of tiles as deep as the words, filter tiles of 16 x 4 * 12 bytes
// and position tiles of 12 rows.
// CHECK-LABEL: func.func @exact_words
// CHECK: amx.tile_load {{.*}} into !amx.tile<16x48xi8>
// CHECK: amx.tile_load {{.*}} into !amx.tile<12x64xi8>
// CHECK: amx.tile_muli {{.*}} : !amx.tile<16x48xi8>, !amx.tile<12x64xi8>, !amx.tile<16x16xi32>
func.func @exact_words(%x: memref<1x1x12x64xi32>, %w: memref<1x32x12xi32>, %acc: memref<1x1x32x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x12x64xi32>, memref<1x32x12xi32>) outs(%acc : memref<1x1x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// A reduction of fewer than kAMXMinWords channel words (times taps: 4
// here, one tap), or of more than 16 words not in whole steps of 16 (20):
// vpdpbusd only, nothing asked.
// CHECK-NOT: onnxq_amx_ready
// CHECK-LABEL: func.func @shallow
// CHECK-NOT: amx.
// CHECK: vpdpbusd
// CHECK-LABEL: func.func @uneven_steps
// CHECK-NOT: amx.
// CHECK: vpdpbusd
func.func @shallow(%x: memref<1x1x4x64xi32>, %w: memref<1x32x4xi32>, %acc: memref<1x1x32x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x4x64xi32>, memref<1x32x4xi32>) outs(%acc : memref<1x1x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

func.func @uneven_steps(%x: memref<1x1x20x64xi32>, %w: memref<1x32x20xi32>, %acc: memref<1x1x32x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x20x64xi32>, memref<1x32x20xi32>) outs(%acc : memref<1x1x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Fewer than 32 filters (kAMXMinFilters), even in whole steps of 16 words:
// vpdpbusd only (an AMX tile is 32 filters; the rows left on vectors were
// slower than vpdpbusd alone).
// CHECK-NOT: onnxq_amx_ready
// CHECK-LABEL: func.func @few_filters
// CHECK-NOT: amx.
// CHECK: vpdpbusd
func.func @few_filters(%x: memref<1x1x16x64xi32>, %w: memref<1x16x16xi32>, %acc: memref<1x1x16x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x16x64xi32>, memref<1x16x16xi32>) outs(%acc : memref<1x1x16x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// A packed matrix product (MatMulInteger, QGemm): its u8 activation rows
// walk M and the s8 weight words N, so the rows are the A tiles (16 rows x
// 16 words, rows 32 words apart) with zext on the left: tdpbusd (a
// convolution's A tiles are its s8 filters: tdpbsud, zext on the right).
// The weights' B tiles are 16 words x 16 columns, rows 64 columns apart.
// CHECK-LABEL: func.func @matmul_u8_rows
// CHECK-DAG: %[[AF:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2048], strides: [1]
// CHECK-DAG: %[[WF:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [2048], strides: [1]
// CHECK: %[[A0:.*]] = amx.tile_load %[[AF]][%{{.*}}], %c32 : memref<2048xi32, strided<[1]>> into !amx.tile<16x64xi8>
// CHECK: %[[A1:.*]] = amx.tile_load %[[AF]][%{{.*}}], %c32
// CHECK: %[[B0:.*]] = amx.tile_load %[[WF]][%{{.*}}], %c64 : memref<2048xi32, strided<[1]>> into !amx.tile<16x64xi8>
// CHECK: %[[B1:.*]] = amx.tile_load %[[WF]][%{{.*}}], %c64
// CHECK: amx.tile_muli %[[A0]] zext, %[[B0]], %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK-NOT: %[[B0]] zext
// CHECK: amx.tile_muli %[[A1]] zext, %[[B1]]
// CHECK: } else {
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
func.func @matmul_u8_rows(%a: memref<64x32xi32>, %w: memref<32x64xi32>, %acc: memref<64x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<64x32xi32>, memref<32x64xi32>) outs(%acc : memref<64x64xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %av = vector.broadcast %x : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %y : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// 49 positions: one whole 32-position tile and 17 more. With the start
// fused (a bias broadcast: the kernel reads nothing it stores), the last
// tile moves back to positions 17-48 and stays on AMX, storing positions
// 17-31 a second time, the same values; vpdpbusd only where the process
// may not use AMX.
// CHECK-LABEL: func.func @shifted
// CHECK: scf.if
// CHECK: amx.tile_load %[[XS:.*]][%c0], %c49 : memref<784xi32, strided<[1]>> into !amx.tile<16x64xi8>
// CHECK: amx.tile_load %[[XS]][%c16], %c49
// CHECK: } else {
// CHECK: scf.if
// CHECK: amx.tile_load %[[XS]][%c17], %c49 : memref<784xi32, strided<[1]>> into !amx.tile<16x64xi8>
// CHECK: amx.tile_load %[[XS]][%c33], %c49
// CHECK: } else {
func.func @shifted(%x: memref<1x1x16x49xi32>, %w: memref<1x32x16xi32>, %bias: memref<32xi32>, %acc: memref<1x1x32x49xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p) -> (f)>, affine_map<(n, g, f, p) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : memref<32xi32>) outs(%acc : memref<1x1x32x49xi32>) {
  ^bb0(%b: i32, %o: i32):
    linalg.yield %b : i32
  }
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x16x49xi32>, memref<1x32x16xi32>) outs(%acc : memref<1x1x32x49xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// The same without a fused start (out += ...: the accumulators are loaded
// from the output): a tile computed twice would add twice, so the last 17
// positions are not moved back over the tile before: 16 of them take a
// tile of their own, the last one half-width vectors.
// CHECK-LABEL: func.func @accumulating
// CHECK: scf.if
// CHECK: amx.tile_load %{{.*}}[%c16], %c49
// CHECK: } else {
// CHECK: scf.if
// CHECK: amx.tile_load %{{.*}}[%c32], %c49
// CHECK: } else {
// CHECK-NOT: amx.tile_load
// CHECK: llvm.x86.avx512.vpdpbusd.256
// CHECK-NOT: amx.tile_load
// CHECK: return
func.func @accumulating(%x: memref<1x1x16x49xi32>, %w: memref<1x32x16xi32>, %acc: memref<1x1x32x49xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c) -> (n, g, c, p)>, affine_map<(n, g, f, p, c) -> (g, f, c)>, affine_map<(n, g, f, p, c) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x1x16x49xi32>, memref<1x32x16xi32>) outs(%acc : memref<1x1x32x49xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Steps whose weights are constant and 0 for every filter add nothing and
// are left out: a strided window over phase planes has taps past the
// window (onnx-to-linalg's WindowPlanes). Tap 1 of 3 is zero here: 2 steps
// of 4 tile products instead of 3. The vpdpbusd kernel, for a process
// refused the tiles, still runs every tap.
// CHECK-LABEL: func.func @zero_steps
// CHECK: scf.if
// CHECK-COUNT-8: amx.tile_muli
// CHECK-NOT: amx.tile_muli
// CHECK: } else {
memref.global "private" constant @weights : memref<1x32x3x16xi32> = dense<[[[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]],[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]]]]>
func.func @zero_steps(%x: memref<1x1x16x66xi32>, %acc: memref<1x1x32x64xi32>) {
  %w = memref.get_global @weights : memref<1x32x3x16xi32>
  linalg.generic {indexing_maps = [affine_map<(n, g, f, p, c, k) -> (n, g, c, p + k)>, affine_map<(n, g, f, p, c, k) -> (g, f, k, c)>, affine_map<(n, g, f, p, c, k) -> (n, g, f, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x16x66xi32>, memref<1x32x3x16xi32>) outs(%acc : memref<1x1x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %av = vector.broadcast %a : i32 to vector<1xi32>
    %ab = vector.bitcast %av : vector<1xi32> to vector<4xi8>
    %ae = arith.extui %ab : vector<4xi8> to vector<4xi32>
    %wv = vector.broadcast %b : i32 to vector<1xi32>
    %wb = vector.bitcast %wv : vector<1xi32> to vector<4xi8>
    %we = arith.extsi %wb : vector<4xi8> to vector<4xi32>
    %p = arith.muli %ae, %we : vector<4xi32>
    %s = vector.reduction <add>, %p : vector<4xi32> into i32
    %r = arith.addi %o, %s : i32
    linalg.yield %r : i32
  }
  return
}
