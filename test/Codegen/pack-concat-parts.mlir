// RUN: onnx-quant-opt %s --onnxq-pack-concat-parts --split-input-file | FileCheck %s

// A packing into channel words (byte b of word g: channel 4g + b) of a
// concatenation along the channels, both parts whole words, through the
// reshape that adds the group dimension: each part is packed on its own into
// its slice of the words (4 + 8 channels: words 0 and 1-2).

#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>

// CHECK-LABEL: func.func @two_parts
// CHECK-SAME: (%[[A:.*]]: tensor<1x4x5x6xi8>, %[[B:.*]]: tensor<1x8x5x6xi8>)
// CHECK: %[[WORDS:.*]] = tensor.empty() : tensor<1x1x3x5x6xi32>
// CHECK: %[[EA:.*]] = tensor.expand_shape %[[A]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 1, 4, 5, 6]
// CHECK: %[[A0:.*]] = tensor.extract_slice %[[EA]][0, 0, 0, 0, 0] [1, 1, 1, 5, 6] [1, 1, 4, 1, 1]
// CHECK: %[[A1:.*]] = tensor.extract_slice %[[EA]][0, 0, 1, 0, 0] [1, 1, 1, 5, 6] [1, 1, 4, 1, 1]
// CHECK: %[[A2:.*]] = tensor.extract_slice %[[EA]][0, 0, 2, 0, 0] [1, 1, 1, 5, 6] [1, 1, 4, 1, 1]
// CHECK: %[[A3:.*]] = tensor.extract_slice %[[EA]][0, 0, 3, 0, 0] [1, 1, 1, 5, 6] [1, 1, 4, 1, 1]
// CHECK: %[[PA:.*]] = linalg.generic {{.*}} ins(%[[A0]], %[[A1]], %[[A2]], %[[A3]] : {{.*}}) outs(%{{.*}} : tensor<1x1x1x5x6xi32>)
// CHECK: arith.shli
// CHECK: %[[W0:.*]] = tensor.insert_slice %[[PA]] into %[[WORDS]][0, 0, 0, 0, 0] [1, 1, 1, 5, 6] [1, 1, 1, 1, 1]
// CHECK: %[[EB:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 1, 8, 5, 6]
// CHECK: %[[B0:.*]] = tensor.extract_slice %[[EB]][0, 0, 0, 0, 0] [1, 1, 2, 5, 6] [1, 1, 4, 1, 1]
// CHECK: %[[PB:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x5x6xi32>)
// CHECK: %[[W1:.*]] = tensor.insert_slice %[[PB]] into %[[W0]][0, 0, 1, 0, 0] [1, 1, 2, 5, 6] [1, 1, 1, 1, 1]
// CHECK: return %[[W1]]
func.func @two_parts(%a: tensor<1x4x5x6xi8>, %b: tensor<1x8x5x6xi8>) -> tensor<1x1x3x5x6xi32> {
  %e = tensor.empty() : tensor<1x12x5x6xi8>
  %c0 = tensor.insert_slice %a into %e[0, 0, 0, 0] [1, 4, 5, 6] [1, 1, 1, 1] : tensor<1x4x5x6xi8> into tensor<1x12x5x6xi8>
  %c1 = tensor.insert_slice %b into %c0[0, 4, 0, 0] [1, 8, 5, 6] [1, 1, 1, 1] : tensor<1x8x5x6xi8> into tensor<1x12x5x6xi8>
  %x = tensor.expand_shape %c1 [[0], [1, 2], [3], [4]] output_shape [1, 1, 12, 5, 6] : tensor<1x12x5x6xi8> into tensor<1x1x12x5x6xi8>
  %s0 = tensor.extract_slice %x[0, 0, 0, 0, 0] [1, 1, 3, 5, 6] [1, 1, 4, 1, 1] : tensor<1x1x12x5x6xi8> to tensor<1x1x3x5x6xi8>
  %s1 = tensor.extract_slice %x[0, 0, 1, 0, 0] [1, 1, 3, 5, 6] [1, 1, 4, 1, 1] : tensor<1x1x12x5x6xi8> to tensor<1x1x3x5x6xi8>
  %s2 = tensor.extract_slice %x[0, 0, 2, 0, 0] [1, 1, 3, 5, 6] [1, 1, 4, 1, 1] : tensor<1x1x12x5x6xi8> to tensor<1x1x3x5x6xi8>
  %s3 = tensor.extract_slice %x[0, 0, 3, 0, 0] [1, 1, 3, 5, 6] [1, 1, 4, 1, 1] : tensor<1x1x12x5x6xi8> to tensor<1x1x3x5x6xi8>
  %w = tensor.empty() : tensor<1x1x3x5x6xi32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%s0, %s1, %s2, %s3 : tensor<1x1x3x5x6xi8>, tensor<1x1x3x5x6xi8>, tensor<1x1x3x5x6xi8>, tensor<1x1x3x5x6xi8>)
      outs(%w : tensor<1x1x3x5x6xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %h1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %h1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %h2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %h2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %h3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %h3 : i32
    linalg.yield %o3 : i32
  } -> tensor<1x1x3x5x6xi32>
  return %p : tensor<1x1x3x5x6xi32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Without a reshape, the inputs in another order (the body says which byte
// each one is), a part a strided slice of a wider plane (rows computed over
// a padded width): the same split.
// CHECK-LABEL: func.func @no_reshape
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xi8>, %[[B:.*]]: tensor<4x3x5xi8>)
// CHECK: %[[WIDE:.*]] = tensor.extract_slice %[[B]][0, 0, 0] [4, 3, 3]
// CHECK: %[[A0:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0] [1, 3, 3] [4, 1, 1]
// CHECK: %[[A1:.*]] = tensor.extract_slice %{{.*}}[1, 0, 0] [1, 3, 3] [4, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[A1]], %[[A0]], {{.*}}) outs(%{{.*}} : tensor<1x3x3xi32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [1, 3, 3] [1, 1, 1]
// CHECK: %[[B0:.*]] = tensor.extract_slice %[[WIDE]][0, 0, 0] [1, 3, 3] [4, 1, 1]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x3xi32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 0, 0] [1, 3, 3] [1, 1, 1]
func.func @no_reshape(%a: tensor<4x3xi8>, %b: tensor<4x3x5xi8>) -> tensor<2x3x3xi32> {
  %e = tensor.empty() : tensor<8x3x3xi8>
  %ab = tensor.empty() : tensor<4x3x3xi8>
  %aw = linalg.broadcast ins(%a : tensor<4x3xi8>) outs(%ab : tensor<4x3x3xi8>) dimensions = [2]
  %bw = tensor.extract_slice %b[0, 0, 0] [4, 3, 3] [1, 1, 1] : tensor<4x3x5xi8> to tensor<4x3x3xi8>
  %c0 = tensor.insert_slice %aw into %e[0, 0, 0] [4, 3, 3] [1, 1, 1] : tensor<4x3x3xi8> into tensor<8x3x3xi8>
  %c1 = tensor.insert_slice %bw into %c0[4, 0, 0] [4, 3, 3] [1, 1, 1] : tensor<4x3x3xi8> into tensor<8x3x3xi8>
  %s0 = tensor.extract_slice %c1[0, 0, 0] [2, 3, 3] [4, 1, 1] : tensor<8x3x3xi8> to tensor<2x3x3xi8>
  %s1 = tensor.extract_slice %c1[1, 0, 0] [2, 3, 3] [4, 1, 1] : tensor<8x3x3xi8> to tensor<2x3x3xi8>
  %s2 = tensor.extract_slice %c1[2, 0, 0] [2, 3, 3] [4, 1, 1] : tensor<8x3x3xi8> to tensor<2x3x3xi8>
  %s3 = tensor.extract_slice %c1[3, 0, 0] [2, 3, 3] [4, 1, 1] : tensor<8x3x3xi8> to tensor<2x3x3xi8>
  %w = tensor.empty() : tensor<2x3x3xi32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s1, %s0, %s2, %s3 : tensor<2x3x3xi8>, tensor<2x3x3xi8>, tensor<2x3x3xi8>, tensor<2x3x3xi8>)
      outs(%w : tensor<2x3x3xi32>) {
  ^bb0(%v1: i8, %v0: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %h1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %h1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %h2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %h2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %h3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %h3 : i32
    linalg.yield %o3 : i32
  } -> tensor<2x3x3xi32>
  return %p : tensor<2x3x3xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Parts of 6 and 2 channels: the second starts within a word. Unchanged.
// CHECK-LABEL: func.func @not_whole_words
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @not_whole_words(%a: tensor<6x3xi8>, %b: tensor<2x3xi8>) -> tensor<2x3xi32> {
  %e = tensor.empty() : tensor<8x3xi8>
  %c0 = tensor.insert_slice %a into %e[0, 0] [6, 3] [1, 1] : tensor<6x3xi8> into tensor<8x3xi8>
  %c1 = tensor.insert_slice %b into %c0[6, 0] [2, 3] [1, 1] : tensor<2x3xi8> into tensor<8x3xi8>
  %s0 = tensor.extract_slice %c1[0, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s1 = tensor.extract_slice %c1[1, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s2 = tensor.extract_slice %c1[2, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s3 = tensor.extract_slice %c1[3, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %w = tensor.empty() : tensor<2x3xi32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s0, %s1, %s2, %s3 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>)
      outs(%w : tensor<2x3xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %h1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %h1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %h2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %h2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %h3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %h3 : i32
    linalg.yield %o3 : i32
  } -> tensor<2x3xi32>
  return %p : tensor<2x3xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The parts leave channels 4-7 as they were in %e: not a concatenation.
// CHECK-LABEL: func.func @gap
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @gap(%a: tensor<4x3xi8>, %e: tensor<8x3xi8>) -> tensor<2x3xi32> {
  %c1 = tensor.insert_slice %a into %e[0, 0] [4, 3] [1, 1] : tensor<4x3xi8> into tensor<8x3xi8>
  %s0 = tensor.extract_slice %c1[0, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s1 = tensor.extract_slice %c1[1, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s2 = tensor.extract_slice %c1[2, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s3 = tensor.extract_slice %c1[3, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %w = tensor.empty() : tensor<2x3xi32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s0, %s1, %s2, %s3 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>)
      outs(%w : tensor<2x3xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %h1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %h1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %h2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %h2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %h3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %h3 : i32
    linalg.yield %o3 : i32
  } -> tensor<2x3xi32>
  return %p : tensor<2x3xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The concatenation is read by something else too (its packing would no
// longer be the only reader of the parts' results): unchanged.
// CHECK-LABEL: func.func @read_elsewhere
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @read_elsewhere(%a: tensor<4x3xi8>, %b: tensor<4x3xi8>) -> (tensor<2x3xi32>, tensor<8x3xi8>) {
  %e = tensor.empty() : tensor<8x3xi8>
  %c0 = tensor.insert_slice %a into %e[0, 0] [4, 3] [1, 1] : tensor<4x3xi8> into tensor<8x3xi8>
  %c1 = tensor.insert_slice %b into %c0[4, 0] [4, 3] [1, 1] : tensor<4x3xi8> into tensor<8x3xi8>
  %s0 = tensor.extract_slice %c1[0, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s1 = tensor.extract_slice %c1[1, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s2 = tensor.extract_slice %c1[2, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %s3 = tensor.extract_slice %c1[3, 0] [2, 3] [4, 1] : tensor<8x3xi8> to tensor<2x3xi8>
  %w = tensor.empty() : tensor<2x3xi32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s0, %s1, %s2, %s3 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>)
      outs(%w : tensor<2x3xi32>) {
  ^bb0(%v0: i8, %v1: i8, %v2: i8, %v3: i8, %o: i32):
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c24 = arith.constant 24 : i32
    %e0 = arith.extui %v0 : i8 to i32
    %e1 = arith.extui %v1 : i8 to i32
    %h1 = arith.shli %e1, %c8 : i32
    %o1 = arith.ori %e0, %h1 : i32
    %e2 = arith.extui %v2 : i8 to i32
    %h2 = arith.shli %e2, %c16 : i32
    %o2 = arith.ori %o1, %h2 : i32
    %e3 = arith.extui %v3 : i8 to i32
    %h3 = arith.shli %e3, %c24 : i32
    %o3 = arith.ori %o2, %h3 : i32
    linalg.yield %o3 : i32
  } -> tensor<2x3xi32>
  return %p, %c1 : tensor<2x3xi32>, tensor<8x3xi8>
}
