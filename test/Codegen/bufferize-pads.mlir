// RUN: onnx-quant-opt %s --onnxq-bufferize --cse --canonicalize --split-input-file | FileCheck %s

// A zero padding of rows of 16 elements or more is its padded buffer
// filled, with the producer of the source writing into the interior: no
// buffer of the source's own, no copy.
// CHECK-LABEL: func.func @whole_vector_rows
// CHECK: %[[PADDED:.*]] = memref.alloc() {{.*}} : memref<4x18xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[PADDED]] : memref<4x18xf32>)
// CHECK: %[[INTERIOR:.*]] = memref.subview %[[PADDED]][1, 1] [2, 16] [1, 1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[INTERIOR]] : memref<2x16xf32, strided<[18, 1], offset: 19>>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.copy
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @whole_vector_rows(%x: tensor<2x16xf32>) -> tensor<4x18xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x16xf32>) outs(%empty : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %p = tensor.pad %y low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x16xf32> to tensor<4x18xf32>
  return %p : tensor<4x18xf32>
}

// -----

// Rows shorter than 16 elements keep the padding as a copy: a kernel's
// vector of 16 would span three rows of the interior.
// CHECK-LABEL: func.func @short_rows
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<2x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[Y]] : memref<2x8xf32>)
// CHECK: linalg.map
// CHECK: linalg.copy ins(%[[Y]] : memref<2x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_rows(%x: tensor<2x8xf32>) -> tensor<4x10xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x8xf32>) outs(%empty : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %p = tensor.pad %y low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x8xf32> to tensor<4x10xf32>
  return %p : tensor<4x10xf32>
}
