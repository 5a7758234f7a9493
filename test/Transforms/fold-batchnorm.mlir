// RUN: onnx-quant-opt %s --onnx-fold-batchnorm --split-input-file | FileCheck %s
// s = scale / sqrt(var + epsilon), shift = beta - mean * s per channel; here
// s = [1, 1, 0.125] and shift = [-1, 1, -1.375].

// Conv with a bias: weights of channel c times s[c], bias b * s + shift.
// CHECK-LABEL: func @conv_bias
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}1.000000e+00]]], {{\[\[\[}}1.000000e+00]], {{\[\[}}1.000000e+00]]], {{\[\[\[}}1.250000e-01]], {{\[\[}}1.250000e-01]]]]> : tensor<3x2x1x1xf32>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[0.000000e+00, 3.000000e+00, -1.000000e+00]> : tensor<3xf32>
// CHECK: %[[C:.*]] = onnx.Conv(%{{.*}}, %[[W]], %[[B]])
// CHECK-NOT: onnx.BatchNormalization
// CHECK: return %[[C]]
func.func @conv_bias(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = onnx.Constant dense<1.0> : tensor<3x2x1x1xf32>
  %b = onnx.Constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = onnx.Constant dense<[2.0, 1.0, 0.5]> : tensor<3xf32>
  %beta = onnx.Constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %m = onnx.Constant dense<[1.0, 0.0, 3.0]> : tensor<3xf32>
  %v = onnx.Constant dense<[3.0, 0.0, 15.0]> : tensor<3xf32>
  %c = onnx.Conv(%x, %w, %b) : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %y = onnx.BatchNormalization(%c, %s, %beta, %m, %v) {epsilon = 1.0 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// Conv without a bias gets one: the shift.
// CHECK-LABEL: func @conv_no_bias
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[-1.000000e+00, 1.000000e+00, -1.375000e+00]> : tensor<3xf32>
// CHECK: onnx.Conv(%{{.*}}, %{{.*}}, %[[B]])
// CHECK-NOT: onnx.BatchNormalization
func.func @conv_no_bias(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = onnx.Constant dense<1.0> : tensor<3x2x1x1xf32>
  %s = onnx.Constant dense<[2.0, 1.0, 0.5]> : tensor<3xf32>
  %beta = onnx.Constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %m = onnx.Constant dense<[1.0, 0.0, 3.0]> : tensor<3xf32>
  %v = onnx.Constant dense<[3.0, 0.0, 15.0]> : tensor<3xf32>
  %c = onnx.Conv(%x, %w) : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = onnx.BatchNormalization(%c, %s, %beta, %m, %v) {epsilon = 1.0 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// ConvTranspose weights are (C, M/group, k...): with 2 groups of 2 input
// channels and 1 output channel per group, input channels 0-1 feed output
// channel 0 and 2-3 feed output channel 1.
// CHECK-LABEL: func @conv_transpose_groups
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}5.000000e-01]]], {{\[\[\[}}5.000000e-01]]]]> : tensor<4x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[-2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK: onnx.ConvTranspose(%{{.*}}, %[[W]], %[[B]]) {group = 2 : i64}
// CHECK-NOT: onnx.BatchNormalization
func.func @conv_transpose_groups(%x: tensor<1x4x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = onnx.Constant dense<1.0> : tensor<4x1x1x1xf32>
  %s = onnx.Constant dense<[2.0, 0.5]> : tensor<2xf32>
  %beta = onnx.Constant dense<[0.0, 3.0]> : tensor<2xf32>
  %m = onnx.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %v = onnx.Constant dense<[0.0, 0.0]> : tensor<2xf32>
  %c = onnx.ConvTranspose(%x, %w) {group = 2 : i64} : (tensor<1x4x2x2xf32>, tensor<4x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %y = onnx.BatchNormalization(%c, %s, %beta, %m, %v) {epsilon = 1.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// Gemm with transB: rows of B are output channels; C is scaled by beta first.
// s = [2, 0.5], shift = [-2, 3]; C' = 2 * [1, 4] * s + shift = [2, 7].
// CHECK-LABEL: func @gemm_trans_b
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<{{\[\[}}2.000000e+00, 4.000000e+00], [1.500000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[C:.*]] = onnx.Constant dense<[2.000000e+00, 7.000000e+00]> : tensor<2xf32>
// CHECK: onnx.Gemm(%{{.*}}, %[[W]], %[[C]]) {transB = 1 : i64}
// CHECK-NOT: onnx.BatchNormalization
func.func @gemm_trans_b(%a: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %b = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %c = onnx.Constant dense<[[1.0, 4.0]]> : tensor<1x2xf32>
  %s = onnx.Constant dense<[2.0, 0.5]> : tensor<2xf32>
  %beta = onnx.Constant dense<[0.0, 3.0]> : tensor<2xf32>
  %m = onnx.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %v = onnx.Constant dense<[0.0, 0.0]> : tensor<2xf32>
  %g = onnx.Gemm(%a, %b, %c) {beta = 2.0 : f32, transB = 1 : i64} : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = onnx.BatchNormalization(%g, %s, %beta, %m, %v) {epsilon = 1.0 : f32} : (tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// A 2-D MatMul with constant (K, N) weights becomes a Gemm: columns scaled,
// the shift as C.
// CHECK-LABEL: func @matmul
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<{{\[\[}}2.000000e+00, 1.000000e+00], [6.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[C:.*]] = onnx.Constant dense<[-2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[G:.*]] = onnx.Gemm(%{{.*}}, %[[W]], %[[C]]) : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: onnx.MatMul
// CHECK-NOT: onnx.BatchNormalization
// CHECK: return %[[G]]
func.func @matmul(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = onnx.Constant dense<[2.0, 0.5]> : tensor<2xf32>
  %beta = onnx.Constant dense<[0.0, 3.0]> : tensor<2xf32>
  %m = onnx.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %v = onnx.Constant dense<[0.0, 0.0]> : tensor<2xf32>
  %p = onnx.MatMul(%a, %b) : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %y = onnx.BatchNormalization(%p, %s, %beta, %m, %v) {epsilon = 1.0 : f32} : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// A lone BatchNormalization (here after a Relu) becomes x * s + shift with
// constants shaped to broadcast over dimension 1.
// CHECK-LABEL: func @lone
// CHECK-DAG: %[[S:.*]] = onnx.Constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}1.000000e+00]], {{\[\[}}1.250000e-01]]]> : tensor<3x1x1xf32>
// CHECK-DAG: %[[T:.*]] = onnx.Constant dense<{{\[\[\[}}-1.000000e+00]], {{\[\[}}1.000000e+00]], {{\[\[}}-1.375000e+00]]]> : tensor<3x1x1xf32>
// CHECK: %[[M:.*]] = onnx.Mul(%{{.*}}, %[[S]])
// CHECK: %[[A:.*]] = onnx.Add(%[[M]], %[[T]])
// CHECK-NOT: onnx.BatchNormalization
// CHECK: return %[[A]]
func.func @lone(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %s = onnx.Constant dense<[2.0, 1.0, 0.5]> : tensor<3xf32>
  %beta = onnx.Constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %m = onnx.Constant dense<[1.0, 0.0, 3.0]> : tensor<3xf32>
  %v = onnx.Constant dense<[3.0, 0.0, 15.0]> : tensor<3xf32>
  %r = onnx.Relu(%x) : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %y = onnx.BatchNormalization(%r, %s, %beta, %m, %v) {epsilon = 1.0 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}
