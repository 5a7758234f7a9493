// RUN: onnx-quant-opt %s --onnxq-hoist-constants | FileCheck %s

// The dequantized weights %w are computed from constants alone (4-bit
// values spread from a packed byte constant, then scaled): they move into
// @onnxq_init_constants, which writes them to a zero-initialized global the
// graph reads after calling it. The spread's intermediate bytes stay in the
// function (the workspace plan places them). What stays in the graph: a
// broadcast of a splat (nothing stored to compute once), a 16-byte table
// broadcast to 4 KB (more than 8x its constants), and a value an op writes
// as its destination (%init: it reads the global %w in the graph).
// The ABI record keeps the globals' bytes (the header states them).
// CHECK: module attributes {onnx.abi = {{{.*}}constants_size = 256 : i64
// CHECK: memref.global "private" @onnxq_constant : memref<64xf32> = uninitialized {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func private @onnxq_init_constants()
// CHECK: %[[PACKED:.*]] = arith.constant dense<[1, 2, {{.*}}]> : tensor<32xi8>
// CHECK: %[[SPREAD:.*]] = linalg.generic {{.*}} ins(%[[PACKED]] : tensor<32xi8>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[SPREAD]]
// CHECK: %[[W:.*]] = linalg.generic {{.*}} ins(%[[FLAT]] : tensor<64xi8>)
// CHECK: arith.sitofp
// CHECK: %[[G:.*]] = memref.get_global @onnxq_constant : memref<64xf32>
// CHECK: bufferization.materialize_in_destination %[[W]] in restrict writable %[[G]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @graph(
// CHECK-SAME: %[[X:.*]]: tensor<64xf32>)
// CHECK-NEXT: call @onnxq_init_constants() : () -> ()
// CHECK-NOT: tensor<32xi8>
// CHECK: %[[GW:.*]] = memref.get_global @onnxq_constant : memref<64xf32>
// CHECK: %[[RW:.*]] = bufferization.to_tensor %[[GW]] restrict : memref<64xf32> to tensor<64xf32>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[RW]] : tensor<64xf32>, tensor<64xf32>)
// CHECK: %[[ONES:.*]] = linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[Z:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[ONES]] : tensor<64xf32>, tensor<64xf32>)
// CHECK: %[[TABLE:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[TABLE]] : tensor<4xf32>) outs(%{{.*}} : tensor<256x4xf32>)
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[RW]] : tensor<64xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<64xf32>) outs(%[[INIT]] : tensor<64xf32>)
module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 0 : i64}} {
  func.func @graph(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<1024xf32>, tensor<64xf32>) {
    %c4 = arith.constant 4 : i8
    %scale = arith.constant 0.5 : f32
    %packed = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]> : tensor<32xi8>
    %e0 = tensor.empty() : tensor<2x32xi8>
    %spread = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%packed : tensor<32xi8>) outs(%e0 : tensor<2x32xi8>) {
    ^bb0(%in: i8, %out: i8):
      %s = arith.shrsi %in, %c4 : i8
      linalg.yield %s : i8
    } -> tensor<2x32xi8>
    %flat = tensor.collapse_shape %spread [[0, 1]] : tensor<2x32xi8> into tensor<64xi8>
    %e1 = tensor.empty() : tensor<64xf32>
    %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%flat : tensor<64xi8>) outs(%e1 : tensor<64xf32>) {
    ^bb0(%in: i8, %out: f32):
      %f = arith.sitofp %in : i8 to f32
      %m = arith.mulf %f, %scale : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %e2 = tensor.empty() : tensor<64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %p = arith.mulf %a, %b : f32
      linalg.yield %p : f32
    } -> tensor<64xf32>
    // A splat broadcast: nothing to compute once.
    %e3 = tensor.empty() : tensor<64xf32>
    %ones = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%scale : f32) outs(%e3 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64xf32>
    %e4 = tensor.empty() : tensor<64xf32>
    %z = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %ones : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %p = arith.addf %a, %b : f32
      linalg.yield %p : f32
    } -> tensor<64xf32>
    // A 16-byte table broadcast to 4 KB: more than 8x, stays.
    %table = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e5 = tensor.empty() : tensor<256x4xf32>
    %big = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%table : tensor<4xf32>) outs(%e5 : tensor<256x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x4xf32>
    %bigflat = tensor.collapse_shape %big [[0, 1]] : tensor<256x4xf32> into tensor<1024xf32>
    %e6 = tensor.empty() : tensor<1024xf32>
    %bigsum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bigflat : tensor<1024xf32>) outs(%e6 : tensor<1024xf32>) {
    ^bb0(%a: f32, %out: f32):
      %p = arith.addf %a, %scale : f32
      linalg.yield %p : f32
    } -> tensor<1024xf32>
    // Computed from constants, but the destination an op writes: stays.
    %e7 = tensor.empty() : tensor<64xf32>
    %init = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w : tensor<64xf32>) outs(%e7 : tensor<64xf32>) {
    ^bb0(%a: f32, %out: f32):
      %p = arith.addf %a, %a : f32
      linalg.yield %p : f32
    } -> tensor<64xf32>
    %acc = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%init : tensor<64xf32>) {
    ^bb0(%a: f32, %out: f32):
      %p = arith.addf %a, %out : f32
      linalg.yield %p : f32
    } -> tensor<64xf32>
    return %y, %z, %bigsum, %acc : tensor<64xf32>, tensor<64xf32>, tensor<1024xf32>, tensor<64xf32>
  }
}
