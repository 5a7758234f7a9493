// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2 byte-windows=true" --canonicalize --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --onnxq-contraction-kernels="vector-bits=512 rows=8 vectors=2" --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF --implicit-check-not=vpdpbusd

// A depthwise 3x3 u8 x s8 convolution over flattened rows (4 channels,
// padded width 10, 78 output positions): each window row's 3 taps are one
// vpdpbusd. Lane l's 4 bytes are x[l .. l + 2] (then x[l + 2] again, whose
// weight byte is 0), gathered from one load of the 18 bytes 16 lanes span;
// the weights' 3 bytes are one int32 broadcast to every lane. The kw loop
// is gone: only kh is a loop.
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: %[[SPAN:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false,
// CHECK-DAG: %[[SPAN14:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false,
// CHECK-DAG: %[[TAPS:.*]] = arith.constant dense<[true, true, true, false]> : vector<4xi1>
// CHECK-DAG: %[[X:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [400], strides: [1]
// CHECK-DAG: %[[W:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [36], strides: [1]
// CHECK: scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xi32>,
// CHECK-NOT: scf.for
// CHECK:   %[[XB:.*]] = vector.maskedload %[[X]][%{{.*}}], %[[SPAN]], %{{.*}} : memref<400xi8{{.*}}>, vector<64xi1>, vector<64xi8> into vector<64xi8>
// CHECK:   %[[XP:.*]] = vector.shuffle %[[XB]], %[[XB]] [0, 1, 2, 2, 1, 2, 3, 3, 2, 3, 4, 4,
// CHECK:   %[[WB:.*]] = vector.maskedload %[[W]][%{{.*}}], %[[TAPS]], %{{.*}} : memref<36xi8{{.*}}>, vector<4xi1>, vector<4xi8> into vector<4xi8>
// CHECK:   %[[WW:.*]] = vector.bitcast %[[WB]] : vector<4xi8> to vector<1xi32>
// CHECK:   %[[WS:.*]] = vector.broadcast %[[WW]] : vector<1xi32> to vector<16xi32>
// CHECK:   %[[WD:.*]] = vector.bitcast %[[WS]] : vector<16xi32> to vector<64xi8>
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[XP]], %[[WD]])
// CHECK-COUNT-7: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic
// CHECK:   scf.yield
// Last vector: 14 lanes span 16 bytes.
// CHECK: scf.for
// CHECK: vector.maskedload %[[X]][%{{.*}}], %[[SPAN14]]
// CHECK-NOT: linalg.generic
// OFF-LABEL: func.func @depthwise
// OFF: arith.extui
// OFF: arith.muli
func.func @depthwise(%x: memref<4x100xi8>, %w: memref<4x3x3xi8>, %out: memref<4x78xi32>) {
  linalg.generic {indexing_maps = [affine_map<(c, l, kh, kw) -> (c, l + kh * 10 + kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, kh, kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, l)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<4x100xi8>, memref<4x3x3xi8>) outs(%out : memref<4x78xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// Stride 2 (the weights first in the body): lane l's bytes start at 2l; the
// 10 lanes of an output row span 2 * 9 + 3 = 21 bytes.
// CHECK-LABEL: func.func @strided
// CHECK-DAG: %[[SPAN:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false,
// CHECK: scf.for
// CHECK: vector.maskedload %{{.*}}[%{{.*}}], %[[SPAN]]
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6,
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: linalg.generic
func.func @strided(%x: memref<2x9x21xi8>, %w: memref<2x3x3xi8>, %out: memref<2x4x10xi32>) {
  linalg.generic {indexing_maps = [affine_map<(c, oh, ow, kh, kw) -> (c, kh, kw)>,
                                   affine_map<(c, oh, ow, kh, kw) -> (c, oh * 2 + kh, ow * 2 + kw)>,
                                   affine_map<(c, oh, ow, kh, kw) -> (c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%w, %x : memref<2x3x3xi8>, memref<2x9x21xi8>) outs(%out : memref<2x4x10xi32>) {
  ^bb0(%b: i8, %a: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %1, %0 : i32
    %3 = arith.addi %2, %acc : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// No byte window: a dilated window (taps 2 bytes apart), s8 activations
// (vpdpbusd multiplies u8 by s8).
// CHECK-LABEL: func.func @dilated
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.muli
func.func @dilated(%x: memref<2x100xi8>, %w: memref<2x3x3xi8>, %out: memref<2x56xi32>) {
  linalg.generic {indexing_maps = [affine_map<(c, l, kh, kw) -> (c, l + kh * 20 + kw * 2)>,
                                   affine_map<(c, l, kh, kw) -> (c, kh, kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, l)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<2x100xi8>, memref<2x3x3xi8>) outs(%out : memref<2x56xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// CHECK-LABEL: func.func @signed_activations
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.muli
func.func @signed_activations(%x: memref<4x100xi8>, %w: memref<4x3x3xi8>, %out: memref<4x78xi32>) {
  linalg.generic {indexing_maps = [affine_map<(c, l, kh, kw) -> (c, l + kh * 10 + kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, kh, kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, l)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<4x100xi8>, memref<4x3x3xi8>) outs(%out : memref<4x78xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extsi %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// A 5-tap row is two dot products per step: taps 0-3 (a whole int32 of
// weights, 16 lanes spanning 19 bytes) and tap 4 (one byte, 16 bytes).
// CHECK-LABEL: func.func @five_taps
// CHECK-DAG: %[[SPAN1:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false,
// CHECK-DAG: %[[SPAN4:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false,
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<[true, false, false, false]> : vector<4xi1>
// CHECK: scf.for
// CHECK:   vector.maskedload %{{.*}}, %[[SPAN4]]
// CHECK:   vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 1, 2, 3, 4,
// CHECK:   vector.load %{{.*}} : memref<50xi8, strided<[1]>>, vector<4xi8>
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK:   vector.maskedload %{{.*}}, %[[SPAN1]]
// CHECK:   vector.shuffle %{{.*}}, %{{.*}} [0, 0, 0, 0, 1, 1, 1, 1,
// CHECK:   vector.maskedload %{{.*}}, %[[ONE]]
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic
// CHECK:   scf.yield
func.func @five_taps(%x: memref<2x100xi8>, %w: memref<2x5x5xi8>, %out: memref<2x56xi32>) {
  linalg.generic {indexing_maps = [affine_map<(c, l, kh, kw) -> (c, l + kh * 10 + kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, kh, kw)>,
                                   affine_map<(c, l, kh, kw) -> (c, l)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<2x100xi8>, memref<2x5x5xi8>) outs(%out : memref<2x56xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}
