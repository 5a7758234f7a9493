// RUN: onnx-quant-opt %s --onnxq-vectorize="vector-bits=512" | FileCheck %s
// RUN: onnx-quant-opt %s --onnxq-vectorize="vector-bits=256" | FileCheck %s --check-prefix=AVX2
// A copy that moves the innermost dim (attention's K^T) goes in 16 x 16
// tiles: 16 contiguous rows read, transposed in registers by shuffles, 16
// contiguous rows written. Anything else keeps the row vectors.

// CHECK-LABEL: func @k_transpose
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c1, %c4, %c64, %c128) step (%c1, %c1, %c16, %c16)
// CHECK: %[[IN:.*]] = memref.subview %arg0{{.*}} [1, 16, 1, 16]
// CHECK: %[[OUT:.*]] = memref.subview %arg1{{.*}} [1, 1, 16, 16]
// CHECK: %[[ROW0:.*]] = vector.transfer_read %[[IN]][%c0, %c0, %c0, %c0]{{.*}} vector<16xf32>
// CHECK: %[[ROW1:.*]] = vector.transfer_read %[[IN]][%c0, %c1, %c0, %c0]{{.*}} vector<16xf32>
// CHECK-COUNT-14: vector.transfer_read %[[IN]]
// CHECK: vector.shuffle %[[ROW0]], %[[ROW1]] [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29]
// CHECK-COUNT-63: vector.shuffle
// CHECK-NOT: vector.transpose
// CHECK: vector.transfer_write %{{.*}}, %[[OUT]][%c0, %c0, %c0, %c0] {in_bounds = [true]}
// CHECK: vector.transfer_write %{{.*}}, %[[OUT]][%c0, %c0, %c1, %c0] {in_bounds = [true]}
// CHECK-COUNT-14: vector.transfer_write %{{.*}}, %[[OUT]]
// CHECK-NOT: vector.transfer_write
// AVX2-LABEL: func @k_transpose
// AVX2-NOT: vector.shuffle
// AVX2: vector.transfer_read {{.*}} permutation_map
func.func @k_transpose(%in: memref<1x128x4x64xf32>, %out: memref<1x4x64x128xf32>) {
  linalg.transpose ins(%in : memref<1x128x4x64xf32>) outs(%out : memref<1x4x64x128xf32>) permutation = [0, 2, 3, 1]
  return
}

// The innermost dim stays: rows copied as they are.
// CHECK-LABEL: func @keeps_last_dim
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_read {{.*}} : memref<{{.*}}>, vector<16xf32>
func.func @keeps_last_dim(%in: memref<1x128x4x64xf32>, %out: memref<1x4x128x64xf32>) {
  linalg.transpose ins(%in : memref<1x128x4x64xf32>) outs(%out : memref<1x4x128x64xf32>) permutation = [0, 2, 1, 3]
  return
}

// 20 rows are not whole tiles: row vectors (lanes read across the rows).
// CHECK-LABEL: func @ragged
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_read {{.*}} permutation_map
func.func @ragged(%in: memref<20x64xf32>, %out: memref<64x20xf32>) {
  linalg.transpose ins(%in : memref<20x64xf32>) outs(%out : memref<64x20xf32>) permutation = [1, 0]
  return
}

// Bytes: row vectors.
// CHECK-LABEL: func @bytes
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_read {{.*}} permutation_map
func.func @bytes(%in: memref<32x64xi8>, %out: memref<64x32xi8>) {
  linalg.transpose ins(%in : memref<32x64xi8>) outs(%out : memref<64x32xi8>) permutation = [1, 0]
  return
}

// A transposing generic that computes is not a copy: row vectors.
// CHECK-LABEL: func @not_a_copy
// CHECK-NOT: vector.shuffle
// CHECK: arith.negf
func.func @not_a_copy(%in: memref<32x32xf32>, %out: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<32x32xf32>) outs(%out : memref<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}
