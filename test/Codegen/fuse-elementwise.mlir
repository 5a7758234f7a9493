// RUN: onnx-quant-opt %s --onnxq-fuse-elementwise -split-input-file | FileCheck %s
// Element-wise producers fuse into consumers that read each of their
// elements once (element-wise ops, reductions), not into those that read
// them again and again (a matrix product reads a row of A once per column of
// B), where the producer would be recomputed at every read.

#id = affine_map<(d0, d1) -> (d0, d1)>
// An element-wise chain becomes one op.
// CHECK-LABEL: func @chain
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// A reduction reads each element once: the producer fuses.
// CHECK-LABEL: func @into_reduction
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: math.exp
// CHECK-NOT: linalg.generic
func.func @into_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// A matrix product reads each element of A once per column of B: the
// producer of A stays a separate op, computed once per element.
// CHECK-LABEL: func @not_into_contraction
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: math.exp
// CHECK: return
func.func @not_into_contraction(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%0, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// A per-channel producer read by a per-element consumer through a
// broadcast: fused, it would run once per element. A BatchNorm's
// scale / sqrt(var + eps) stays per channel (onnxq-hoist-constants then
// computes it once per process); a producer that only converts its input
// is cheap to repeat and fuses.
#ch = affine_map<(c) -> (c)>
#px = affine_map<(c, p) -> (c, p)>
#bc = affine_map<(c, p) -> (c)>
// CHECK-LABEL: func @broadcast_producers
// CHECK: %[[SCALE:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK: math.sqrt
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[SCALE]], %arg3 : tensor<4x64xf32>, tensor<4xf32>, tensor<4xi8>)
// CHECK-NOT: math.sqrt
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @broadcast_producers(%x: tensor<4x64xf32>, %gamma: tensor<4xf32>, %var: tensor<4xf32>,
                               %shift: tensor<4xi8>) -> tensor<4x64xf32> {
  %eps = arith.constant 1.0e-5 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %scale = linalg.generic {indexing_maps = [#ch, #ch, #ch], iterator_types = ["parallel"]}
      ins(%gamma, %var : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%g: f32, %v: f32, %o: f32):
    %a = arith.addf %v, %eps : f32
    %s = math.sqrt %a : f32
    %d = arith.divf %g, %s : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %shiftf = linalg.generic {indexing_maps = [#ch, #ch], iterator_types = ["parallel"]}
      ins(%shift : tensor<4xi8>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%s: i8, %o: f32):
    %f = arith.sitofp %s : i8 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [#px, #bc, #bc, #px], iterator_types = ["parallel", "parallel"]}
      ins(%x, %scale, %shiftf : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%v: f32, %a: f32, %b: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    %r = arith.addf %m, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// A convolution computed over flattened padded rows (2 channels, rows of 4
// positions with a pitch of 5: 14 flat positions), its pitch columns
// dropped by layout ops, then an activation: the activation moves onto the
// convolution's result, where the kernel stage fuses it, and a copy drops
// the columns where it did.
#x = affine_map<(c, p, k) -> (k, p)>
#w = affine_map<(c, p, k) -> (c, k)>
#y = affine_map<(c, p, k) -> (c, p)>
#id = affine_map<(c, h, w) -> (c, h, w)>
// CHECK-LABEL: func @onto_flat_rows
// CHECK: %[[CONV:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[ACT:.*]] = linalg.generic {{.*}}ins(%[[CONV]] : tensor<2x14xf32>)
// CHECK: arith.maximumf
// CHECK: -> tensor<2x14xf32>
// CHECK: tensor.insert_slice %[[ACT]]
// CHECK: tensor.expand_shape
// CHECK: %[[COLUMNS:.*]] = tensor.extract_slice {{.*}} to tensor<2x3x4xf32>
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[COLUMNS]] : tensor<2x3x4xf32>)
// CHECK: return %[[COPY]]
func.func @onto_flat_rows(%in: tensor<3x14xf32>, %f: tensor<2x3xf32>, %init: tensor<2x14xf32>) -> tensor<2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %conv = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in, %f : tensor<3x14xf32>, tensor<2x3xf32>) outs(%init : tensor<2x14xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x14xf32>
  %wide = tensor.empty() : tensor<2x15xf32>
  %inserted = tensor.insert_slice %conv into %wide[0, 0] [2, 14] [1, 1] : tensor<2x14xf32> into tensor<2x15xf32>
  %flat = tensor.collapse_shape %inserted [[0, 1]] : tensor<2x15xf32> into tensor<30xf32>
  %rows = tensor.expand_shape %flat [[0, 1, 2]] output_shape [2, 3, 5] : tensor<30xf32> into tensor<2x3x5xf32>
  %columns = tensor.extract_slice %rows[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x5xf32> to tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %act = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%columns : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  return %act : tensor<2x3x4xf32>
}

// -----

// Not moved: layout ops that drop nothing (the kernel stage fuses the
// activation as it is), an element-wise op with a second tensor (a
// residual) to read in the result's layout, and one that may trap on the
// pitch columns (an integer division by the result).
#x = affine_map<(c, p, k) -> (k, p)>
#w = affine_map<(c, p, k) -> (c, k)>
#y = affine_map<(c, p, k) -> (c, p)>
#id = affine_map<(c, h, w) -> (c, h, w)>
// CHECK-LABEL: func @not_onto_contraction
// CHECK-NOT: linalg.copy
// CHECK: tensor.expand_shape
// CHECK: linalg.generic {{.*}}ins(%{{.*}} : tensor<2x3x5xf32>)
// CHECK: arith.maximumf
// CHECK: tensor.extract_slice
// CHECK: linalg.generic {{.*}}ins(%{{.*}}, %arg3 : tensor<2x3x4xf32>, tensor<2x3x4xf32>)
// CHECK: arith.addf
// CHECK: tensor.extract_slice
// CHECK: linalg.generic {{.*}}ins(%{{.*}} : tensor<2x3x4xi32>)
// CHECK: arith.divsi
// CHECK-NOT: linalg.copy
func.func @not_onto_contraction(%in: tensor<3x15xf32>, %f: tensor<2x3xf32>, %init: tensor<2x15xf32>,
                                %residual: tensor<2x3x4xf32>)
    -> (tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi32>) {
  %zero = arith.constant 0.0 : f32
  %conv = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in, %f : tensor<3x15xf32>, tensor<2x3xf32>) outs(%init : tensor<2x15xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x15xf32>
  %rows = tensor.expand_shape %conv [[0], [1, 2]] output_shape [2, 3, 5] : tensor<2x15xf32> into tensor<2x3x5xf32>
  %e5 = tensor.empty() : tensor<2x3x5xf32>
  %act = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows : tensor<2x3x5xf32>) outs(%e5 : tensor<2x3x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x3x5xf32>
  %conv2 = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in, %f : tensor<3x15xf32>, tensor<2x3xf32>) outs(%init : tensor<2x15xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x15xf32>
  %rows2 = tensor.expand_shape %conv2 [[0], [1, 2]] output_shape [2, 3, 5] : tensor<2x15xf32> into tensor<2x3x5xf32>
  %columns = tensor.extract_slice %rows2[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x5xf32> to tensor<2x3x4xf32>
  %e4 = tensor.empty() : tensor<2x3x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%columns, %residual : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e4 : tensor<2x3x4xf32>) {
  ^bb0(%v: f32, %r: f32, %o: f32):
    %s = arith.addf %v, %r : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  %iin = arith.constant dense<1> : tensor<3x15xi32>
  %ifilter = arith.constant dense<2> : tensor<2x3xi32>
  %iinit = tensor.empty() : tensor<2x15xi32>
  %iconv = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%iin, %ifilter : tensor<3x15xi32>, tensor<2x3xi32>) outs(%iinit : tensor<2x15xi32>) {
  ^bb0(%a: i32, %b: i32, %s: i32):
    %p = arith.muli %a, %b : i32
    %r = arith.addi %s, %p : i32
    linalg.yield %r : i32
  } -> tensor<2x15xi32>
  %irows = tensor.expand_shape %iconv [[0], [1, 2]] output_shape [2, 3, 5] : tensor<2x15xi32> into tensor<2x3x5xi32>
  %icolumns = tensor.extract_slice %irows[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x5xi32> to tensor<2x3x4xi32>
  %ie = tensor.empty() : tensor<2x3x4xi32>
  %quotient = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%icolumns : tensor<2x3x4xi32>) outs(%ie : tensor<2x3x4xi32>) {
  ^bb0(%v: i32, %o: i32):
    %c100 = arith.constant 100 : i32
    %q = arith.divsi %c100, %v : i32
    linalg.yield %q : i32
  } -> tensor<2x3x4xi32>
  return %act, %sum, %quotient : tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi32>
}
