// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2 saturating-packs=true" --canonicalize --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2" --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF

// A fused requantization to 8 bits ends two vectors of a tile row at a time
// in vcvtps2dq {rn-sae} (rounding 8) each, vpackssdw, a saturating add of
// the zero point to the words, vpackuswb, and a dword shuffle per vector
// into order. The multipliers, a constant global's, are at most 0.5: no
// float clamp before the conversion.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

memref.global "private" constant @small : memref<8xf32> = dense<[0.5, 0.25, 0.125, 0.5, 0.5, 0.5, 0.5, 0.01]>

// CHECK-LABEL: func.func @pairs
// CHECK-DAG: %[[ZP:.*]] = arith.constant dense<121> : vector<32xi16>
// CHECK-DAG: %[[NEAREST:.*]] = arith.constant 8 : i32
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NOT: arith.minnumf
// CHECK-NOT: arith.maxnumf
// CHECK-NOT: math.roundeven
// CHECK: %[[A:.*]] = llvm.call_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"(%{{.*}}, %{{.*}}, %{{.*}}, %[[NEAREST]])
// CHECK: %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"(%{{.*}}, %{{.*}}, %{{.*}}, %[[NEAREST]])
// CHECK: %[[W:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%[[A]], %[[B]])
// CHECK: %[[WZ:.*]] = llvm.intr.sadd.sat(%[[W]], %[[ZP]])
// CHECK: %[[BYTES:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packuswb.512"(%[[WZ]], %[[WZ]])
// CHECK: %[[D:.*]] = vector.bitcast %[[BYTES]] : vector<64xi8> to vector<16xi32>
// CHECK: %[[FIRST:.*]] = vector.shuffle %[[D]], %[[D]] [0, 4, 8, 12]
// CHECK: %[[FIRST8:.*]] = vector.bitcast %[[FIRST]] : vector<4xi32> to vector<16xi8>
// CHECK: %[[SECOND:.*]] = vector.shuffle %[[D]], %[[D]] [1, 5, 9, 13]
// CHECK: %[[SECOND8:.*]] = vector.bitcast %[[SECOND]] : vector<4xi32> to vector<16xi8>
// CHECK: vector.store %[[FIRST8]], %{{.*}}[%c0]
// CHECK: vector.store %[[SECOND8]], %{{.*}}[%c16]
// CHECK-NOT: arith.trunci
// CHECK: return
// OFF-LABEL: func.func @pairs
// OFF-NOT: llvm.call_intrinsic
// OFF: arith.minnumf
// OFF: math.roundeven
// OFF: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
func.func @pairs(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %y: memref<8x32xi8>) {
  %scale = memref.get_global @small : memref<8xf32>
  %lo = arith.constant -121.0 : f32
  %hi = arith.constant 134.0 : f32
  %zp = arith.constant 121 : i32
  %acc = memref.alloc() : memref<8x32xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x32xi32>)
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
    %c = arith.maxnumf %m, %lo fastmath<nnan,nsz> : f32
    %d = arith.minnumf %c, %hi fastmath<nnan,nsz> : f32
    %r = math.roundeven %d : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.addi %i, %zp : i32
    %t8 = arith.trunci %q : i32 to i8
    linalg.yield %t8 : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}

// -----

// Multipliers above 0.5 (a function argument's could be anything): an
// accumulator times one may pass 2^31, where vcvtps2dq gives INT_MIN, so
// the float clamp to the top of the range stays. A ReLU's range starts at
// the zero point: a byte max after the packs. No zero point: no add. 16
// outputs per row: one vector, packed with itself, one shuffle.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @large_multipliers_relu
// CHECK-DAG: %[[TOP:.*]] = arith.constant dense<2.550000e+02> : vector<16xf32>
// CHECK-DAG: %[[LOW:.*]] = arith.constant dense<3> : vector<64xi8>
// CHECK: scf.yield
// CHECK: %[[CLAMPED:.*]] = arith.minnumf %{{.*}}, %[[TOP]] : vector<16xf32>
// CHECK: %[[C:.*]] = llvm.call_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"(%[[CLAMPED]],
// CHECK-NEXT: %[[W:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%[[C]], %[[C]])
// CHECK-NEXT: %[[BYTES:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packuswb.512"(%[[W]], %[[W]])
// CHECK-NEXT: %[[RELU:.*]] = arith.maxui %[[BYTES]], %[[LOW]] : vector<64xi8>
// CHECK-NEXT: %[[D:.*]] = vector.bitcast %[[RELU]] : vector<64xi8> to vector<16xi32>
// CHECK-NEXT: %[[ONLY:.*]] = vector.shuffle %[[D]], %[[D]] [0, 4, 8, 12]
// CHECK-NEXT: %[[ONLY8:.*]] = vector.bitcast %[[ONLY]] : vector<4xi32> to vector<16xi8>
// CHECK-NEXT: vector.store %[[ONLY8]], %{{.*}}[%c0]
// CHECK-NOT: llvm.intr.sadd.sat
// CHECK: return
func.func @large_multipliers_relu(%a: memref<8x4xi8>, %b: memref<4x16xi8>,
                                  %scale: memref<8xf32>, %y: memref<8x16xi8>) {
  %lo = arith.constant 3.0 : f32
  %hi = arith.constant 255.0 : f32
  %acc = memref.alloc() : memref<8x16xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x16xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x16xi8>) outs(%acc : memref<8x16xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %scale : memref<8x16xi32>, memref<8xf32>) outs(%y : memref<8x16xi8>) {
  ^bb0(%t: i32, %s: f32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %s : f32
    %c = arith.maxnumf %m, %lo fastmath<nnan,nsz> : f32
    %d = arith.minnumf %c, %hi fastmath<nnan,nsz> : f32
    %r = math.roundeven %d : f32
    %i = arith.fptosi %r : f32 to i32
    %t8 = arith.trunci %i : i32 to i8
    linalg.yield %t8 : i8
  }
  memref.dealloc %acc : memref<8x16xi32>
  return
}

// -----

// Signed: the range [-128, 127] after a zero point of -5, vpacksswb; the
// multiplier a constant of 0.25.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @signed
// CHECK-DAG: arith.constant dense<-5> : vector<32xi16>
// CHECK-NOT: arith.minnumf
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// CHECK-NOT: arith.maxsi
// CHECK: return
func.func @signed(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %y: memref<8x32xi8>) {
  %scale = arith.constant 0.25 : f32
  %lo = arith.constant -123.0 : f32
  %hi = arith.constant 132.0 : f32
  %zp = arith.constant -5 : i32
  %acc = memref.alloc() : memref<8x32xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x32xi8>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xi32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %scale : f32
    %c = arith.maxnumf %m, %lo fastmath<nnan,nsz> : f32
    %d = arith.minnumf %c, %hi fastmath<nnan,nsz> : f32
    %r = math.roundeven %d : f32
    %i = arith.fptosi %r : f32 to i32
    %q = arith.addi %i, %zp : i32
    %t8 = arith.trunci %q : i32 to i8
    linalg.yield %t8 : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}

// -----

// A range that ends below the type's top (here at 200) keeps the generic
// end: the packs saturate only at the top. So do bounds far from any 8-bit
// range (-1e20).

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @narrow_top
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.minnumf
// CHECK: math.roundeven
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: return
func.func @narrow_top(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %y: memref<8x32xi8>) {
  %scale = arith.constant 0.25 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 200.0 : f32
  %acc = memref.alloc() : memref<8x32xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x32xi8>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xi32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %scale : f32
    %c = arith.maxnumf %m, %lo fastmath<nnan,nsz> : f32
    %d = arith.minnumf %c, %hi fastmath<nnan,nsz> : f32
    %r = math.roundeven %d : f32
    %i = arith.fptosi %r : f32 to i32
    %t8 = arith.trunci %i : i32 to i8
    linalg.yield %t8 : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}

// CHECK-LABEL: func.func @far_bounds
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: return
func.func @far_bounds(%a: memref<8x4xi8>, %b: memref<4x32xi8>, %y: memref<8x32xi8>) {
  %scale = arith.constant 0.25 : f32
  %far = arith.constant -1.0e20 : f32
  %hi = arith.constant 255.0 : f32
  %acc = memref.alloc() : memref<8x32xi32>
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%acc : memref<8x32xi32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi8>, memref<4x32xi8>) outs(%acc : memref<8x32xi32>) {
  ^bb0(%x: i8, %w: i8, %s: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %p = arith.muli %xe, %we : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x32xi32>) outs(%y : memref<8x32xi8>) {
  ^bb0(%t: i32, %out: i8):
    %f = arith.sitofp %t : i32 to f32
    %m = arith.mulf %f, %scale : f32
    %c = arith.maxnumf %m, %far fastmath<nnan,nsz> : f32
    %d = arith.minnumf %c, %hi fastmath<nnan,nsz> : f32
    %r = math.roundeven %d : f32
    %i = arith.fptosi %r : f32 to i32
    %t8 = arith.trunci %i : i32 to i8
    linalg.yield %t8 : i8
  }
  memref.dealloc %acc : memref<8x32xi32>
  return
}
