// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// y = x * a + b with per-channel a = scale / sqrt(var + eps), b = B - mean * a.
// CHECK-DAG: #[[CHAN:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func @batchnorm
// CHECK: %[[A:.*]] = linalg.generic
// CHECK:   %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK:   arith.addf %{{.*}}, %[[EPS]]
// CHECK:   math.sqrt
// CHECK:   arith.divf
// CHECK: %[[B:.*]] = linalg.generic
// CHECK:   arith.mulf
// CHECK:   arith.subf
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[CHAN]], #[[CHAN]], #{{.*}}]
// CHECK:   arith.mulf
// CHECK:   arith.addf
func.func @batchnorm(%x: tensor<1x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = onnx.BatchNormalization(%x, %s, %b, %m, %v) {epsilon = 1.0e-3 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// Softmax subtracts the row maximum before exp.
// CHECK-LABEL: func @softmax
// CHECK: arith.constant 0xFF800000
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:   arith.maximumf
// CHECK: linalg.generic
// CHECK:   arith.subf
// CHECK:   math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:   arith.addf
// CHECK: linalg.generic
// CHECK:   arith.divf
func.func @softmax(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %0 = onnx.Softmax(%x) : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

// CHECK-LABEL: func @reduce_mean_no_keepdims
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: arith.constant 1.200000e+01 : f32
// CHECK: return %{{.*}} : tensor<2xf32>
func.func @reduce_mean_no_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2xf32> {
  %0 = onnx.ReduceMean(%x) {axes = [1, -1], keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @layernorm
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: math.sqrt
func.func @layernorm(%x: tensor<2x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = onnx.LayerNormalization(%x, %s, %b) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Mean and InvStdDev = 1 / sqrt(var + eps) are results too (keep-dims shape).
// CHECK-LABEL: func @layernorm_stats
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xf32>)
// CHECK:   arith.divf
// The variance: mean of the squares of x - mean.
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xf32>)
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xf32>)
// CHECK:   %[[STD:.*]] = math.sqrt
// CHECK:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:   arith.divf %[[ONE]], %[[STD]]
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<2xf32>, tensor<8xf32>)
// CHECK: return %[[Y]], %[[MEAN]], %[[INV]]
func.func @layernorm_stats(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>) {
  %0:3 = onnx.LayerNormalization(%x, %s) : (tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>
}

// -----

// GroupNormalization: x (N, C, H, W) viewed as (N, G, C / G * H * W), each
// row centered and divided by sqrt(var + eps), viewed back, then scaled and
// shifted per channel.
// CHECK-LABEL: func @group_norm
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 2, 18] : tensor<36xf32> into tensor<1x2x18xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: math.sqrt
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 4, 3, 3] : tensor<36xf32> into tensor<1x4x3x3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>)
func.func @group_norm(%x: tensor<1x4x3x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = onnx.GroupNormalization(%x, %s, %b) {num_groups = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// InstanceNormalization is the same with one group per channel (no view
// needed for (N, C, L)): sums over the last axis, per-channel scale and bias.
// CHECK-LABEL: func @instance_norm
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x3x5xf32>)
// CHECK: arith.constant 5.000000e+00 : f32
// CHECK: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>)
func.func @instance_norm(%x: tensor<2x3x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %0 = onnx.InstanceNormalization(%x, %s, %b) : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
