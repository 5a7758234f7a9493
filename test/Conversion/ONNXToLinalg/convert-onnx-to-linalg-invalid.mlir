// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file -verify-diagnostics
// RUN: not onnx-quant-opt %s --convert-onnx-to-linalg="requant=fixed" -split-input-file 2>&1 | FileCheck %s --check-prefix=REQUANT
// REQUANT: convert-onnx-to-linalg: requant='fixed' is not one of float, integer

// Size only folds (the importer and onnx-infer-shapes fold it on static
// shapes); it has no pattern of its own.
func.func @no_lowering(%a: tensor<2x3xf32>) -> tensor<i64> {
  // expected-error @+1 {{'onnx.Size' has no lowering to native code yet}}
  %0 = onnx.Size(%a) : (tensor<2x3xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// ONNX Runtime's ConvInteger takes per-tensor zero points only; ours per
// filter too, but not per input channel.
func.func @conv_integer_zero_points(%x: tensor<1x2x3x3xui8>, %w: tensor<4x2x1x1xi8>, %xz: tensor<2xui8>) -> tensor<1x4x3x3xi32> {
  // expected-error @+1 {{failed to legalize operation 'onnx.ConvInteger'}}
  %0 = onnx.ConvInteger(%x, %w) x_zero_point(%xz) : (tensor<1x2x3x3xui8>, tensor<4x2x1x1xi8>, tensor<2xui8>) -> tensor<1x4x3x3xi32>
  return %0 : tensor<1x4x3x3xi32>
}

// -----

// The integer lowering folds the weights' zero-point corrections at compile
// time: weights, scales and zero points must be constants.
func.func @runtime_weights(%x: tensor<2x3xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<3x4xi8>, %wzp: tensor<i8>) -> tensor<2x4xui8> {
  // expected-error @+1 {{failed to legalize operation 'onnx.QLinearMatMul'}}
  %0 = onnx.QLinearMatMul(%x, %s, %zp, %w, %s, %wzp, %s, %zp) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @dynamic_shape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{failed to legalize operation 'onnx.Relu'}}
  %0 = onnx.Relu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// One reflection covers pads up to dim - 1 on each side.
func.func @reflect_pad_too_wide(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %pads = onnx.Constant dense<[0, 3, 0, 0]> : tensor<4xi64>
  // expected-error @+1 {{failed to legalize operation 'onnx.Pad'}}
  %0 = onnx.Pad(%x, %pads) {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// Dropout is the identity only when it is not training.
func.func @dropout_runtime_training(%x: tensor<4xf32>, %t: tensor<i1>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'onnx.Dropout'}}
  %0 = onnx.Dropout(%x) training_mode(%t) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Runtime scales are not taken as out / in: ONNX uses them as given.
func.func @resize_runtime_scales(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{failed to legalize operation 'onnx.Resize'}}
  %0 = onnx.Resize(%x) scales(%s) : (tensor<1x1x4x4xf32>, tensor<4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// Runtime axes of unknown count without keepdims: the candidate axes sets
// cannot be matched against them.
func.func @reduce_sum_runtime_axes_no_keepdims(%x: tensor<3x2x2xf32>, %axes: tensor<?xi64>) -> tensor<3x2xf32> {
  // expected-error @+1 {{failed to legalize operation 'onnx.ReduceSum'}}
  %0 = onnx.ReduceSum(%x, %axes) {keepdims = 0 : i64} : (tensor<3x2x2xf32>, tensor<?xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

