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

// -----

// A grouped result reshaped to the Concat's rank (1x1x2x16 -> 1x2x16, unit
// dims only) is inserted into the Concat's tensor expanded the same way:
// its producer writes into the Concat's slice, no copy.
// CHECK-LABEL: func.func @concat_of_reshaped
// CHECK: %[[CONCAT:.*]] = memref.alloc() {{.*}} : memref<1x4x16xf32>
// CHECK: %[[WIDE:.*]] = memref.expand_shape %[[CONCAT]] {{\[\[}}0], [1, 2], [3]]
// CHECK: %[[SLICE:.*]] = memref.subview %[[WIDE]][0, 0, 2, 0] [1, 1, 2, 16] [1, 1, 1, 1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[SLICE]] :
// CHECK-NOT: linalg.copy
// CHECK: return
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @concat_of_reshaped(%x: tensor<1x1x2x16xf32>, %y: tensor<1x2x16xf32>) -> tensor<1x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x1x2x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x2x16xf32>) outs(%empty : tensor<1x1x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x2x16xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3]] : tensor<1x1x2x16xf32> into tensor<1x2x16xf32>
  %concat = tensor.empty() : tensor<1x4x16xf32>
  %a = tensor.insert_slice %y into %concat[0, 0, 0] [1, 2, 16] [1, 1, 1] : tensor<1x2x16xf32> into tensor<1x4x16xf32>
  %b = tensor.insert_slice %c into %a[0, 2, 0] [1, 2, 16] [1, 1, 1] : tensor<1x2x16xf32> into tensor<1x4x16xf32>
  return %b : tensor<1x4x16xf32>
}
