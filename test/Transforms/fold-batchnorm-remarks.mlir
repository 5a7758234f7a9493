// RUN: onnx-quant-opt %s --onnx-fold-batchnorm --split-input-file -verify-diagnostics | FileCheck %s
// What is left alone, and the remark that says why.

// The Conv result is also returned: folding would change it.
// CHECK-LABEL: func @producer_has_other_users
// CHECK: onnx.BatchNormalization
func.func @producer_has_other_users(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %w = onnx.Constant dense<1.0> : tensor<1x1x1x1xf32>
  %p = onnx.Constant dense<1.0> : tensor<1xf32>
  %c = onnx.Conv(%x, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  // expected-remark @+1 {{not folded: its producer has other users}}
  %y = onnx.BatchNormalization(%c, %p, %p, %p, %p) : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %c, %y : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// -----

// CHECK-LABEL: func @training_mode
// CHECK: onnx.BatchNormalization
func.func @training_mode(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %p = onnx.Constant dense<1.0> : tensor<1xf32>
  // expected-remark @+1 {{not folded: training mode}}
  %y = onnx.BatchNormalization(%x, %p, %p, %p, %p) {training_mode = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// CHECK-LABEL: func @runtime_statistics
// CHECK: onnx.BatchNormalization
func.func @runtime_statistics(%x: tensor<1x1x2x2xf32>, %mean: tensor<1xf32>) -> tensor<1x1x2x2xf32> {
  %p = onnx.Constant dense<1.0> : tensor<1xf32>
  // expected-remark @+1 {{not folded: its scale, bias, mean and variance must be float constants}}
  %y = onnx.BatchNormalization(%x, %p, %p, %mean, %p) : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// Runtime weights: the Conv cannot absorb the scale; the BatchNormalization
// still becomes a scale and shift.
// CHECK-LABEL: func @runtime_weights
// CHECK: onnx.Conv
// CHECK: onnx.Mul
// CHECK: onnx.Add
// CHECK-NOT: onnx.BatchNormalization
func.func @runtime_weights(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32> {
  %p = onnx.Constant dense<1.0> : tensor<1xf32>
  // expected-remark @+1 {{BatchNormalization not folded into this node: its weights are not a float constant}}
  %c = onnx.Conv(%x, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %y = onnx.BatchNormalization(%c, %p, %p, %p, %p) : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// A 3-D MatMul's dimension 1 is not its output channel.
// CHECK-LABEL: func @matmul_3d
// CHECK: onnx.MatMul
// CHECK: onnx.Mul
func.func @matmul_3d(%a: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %b = onnx.Constant dense<1.0> : tensor<2x2xf32>
  %p = onnx.Constant dense<1.0> : tensor<2xf32>
  // expected-remark @+1 {{BatchNormalization not folded into this node: only a 2-D MatMul with (K, N) weights folds}}
  %m = onnx.MatMul(%a, %b) : (tensor<1x2x2xf32>, tensor<2x2xf32>) -> tensor<1x2x2xf32>
  %y = onnx.BatchNormalization(%m, %p, %p, %p, %p) : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2xf32>
  return %y : tensor<1x2x2xf32>
}
