// RUN: onnx-quant-opt %s --onnx-simplify --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --canonicalize --split-input-file | FileCheck %s
// The clean-ups exported models need; --canonicalize runs the same patterns.

// Inference Dropout (no training_mode, or a constant false) is the identity.
// CHECK-LABEL: func @dropout
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NOT: onnx.Dropout
// CHECK: return %[[X]], %[[X]]
func.func @dropout(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r = onnx.Constant dense<0.5> : tensor<f32>
  %f = onnx.Constant dense<false> : tensor<i1>
  %0 = onnx.Dropout(%x) ratio(%r) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = onnx.Dropout(%x) ratio(%r) training_mode(%f) : (tensor<2xf32>, tensor<f32>, tensor<i1>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// A used mask, or a training_mode known only at run time, keeps the Dropout.
// CHECK-LABEL: func @dropout_kept
// CHECK-COUNT-2: onnx.Dropout
func.func @dropout_kept(%x: tensor<2xf32>, %t: tensor<i1>) -> (tensor<2xf32>, tensor<2xi1>, tensor<2xf32>) {
  %0, %mask = onnx.Dropout(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>)
  %1 = onnx.Dropout(%x) training_mode(%t) : (tensor<2xf32>, tensor<i1>) -> tensor<2xf32>
  return %0, %mask, %1 : tensor<2xf32>, tensor<2xi1>, tensor<2xf32>
}

// -----

// The PyTorch flatten idiom: Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1]))
// folds to a Reshape by a constant shape.
// CHECK-LABEL: func @shape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x2x2xf32>)
// CHECK: %[[S:.*]] = onnx.Constant dense<[1, -1]> : tensor<2xi64>
// CHECK: %[[R:.*]] = onnx.Reshape(%[[X]], %[[S]])
// CHECK-NOT: onnx.Shape
// CHECK-NOT: onnx.Gather
// CHECK-NOT: onnx.Concat
// CHECK: return %[[R]]
func.func @shape_chain(%x: tensor<1x8x2x2xf32>) -> tensor<1x32xf32> {
  %shape = onnx.Shape(%x) : (tensor<1x8x2x2xf32>) -> tensor<4xi64>
  %zero = onnx.Constant dense<0> : tensor<i64>
  %n = onnx.Gather(%shape, %zero) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %axes = onnx.Constant dense<0> : tensor<1xi64>
  %n1 = onnx.Unsqueeze(%n, %axes) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %minus1 = onnx.Constant dense<-1> : tensor<1xi64>
  %target = onnx.Concat(%n1, %minus1) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = onnx.Reshape(%x, %target) : (tensor<1x8x2x2xf32>, tensor<2xi64>) -> tensor<1x32xf32>
  return %y : tensor<1x32xf32>
}

// -----

// Shape with start/end, and Slice, Cast and arithmetic on constants.
// CHECK-LABEL: func @shape_slice
// CHECK-DAG: %[[A:.*]] = onnx.Constant dense<[8, 2]> : tensor<2xi64>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[1.600000e+01, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[C:.*]] = onnx.Constant dense<[4, 16]> : tensor<2xi64>
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @shape_slice(%x: tensor<1x8x2x2xf32>) -> (tensor<2xi64>, tensor<2xf32>, tensor<2xi64>) {
  %s = onnx.Shape(%x) {start = 1 : i64, end = -1 : i64} : (tensor<1x8x2x2xf32>) -> tensor<2xi64>
  %f = onnx.Cast(%s) {to = 1 : i64} : (tensor<2xi64>) -> tensor<2xf32>
  %sq = onnx.Mul(%f, %f) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %quarter = onnx.Constant dense<0.25> : tensor<f32>
  %q = onnx.Mul(%sq, %quarter) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %full = onnx.Shape(%x) : (tensor<1x8x2x2xf32>) -> tensor<4xi64>
  %starts = onnx.Constant dense<[3]> : tensor<1xi64>
  %ends = onnx.Constant dense<[-5]> : tensor<1xi64>
  %steps = onnx.Constant dense<[-2]> : tensor<1xi64>
  %rev = onnx.Slice(%full, %starts, %ends) steps(%steps) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %two = onnx.Constant dense<2> : tensor<i64>
  %d = onnx.Mul(%rev, %two) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  return %s, %q, %d : tensor<2xi64>, tensor<2xf32>, tensor<2xi64>
}

// -----

// Transpose pairs compose (to nothing when they cancel); a Transpose of a
// constant is evaluated.
// CHECK-LABEL: func @transposes
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-DAG: %[[C:.*]] = onnx.Constant dense<{{\[\[}}1, 3], [2, 4]]> : tensor<2x2xi64>
// CHECK-DAG: %[[T:.*]] = onnx.Transpose(%[[X]]) {perm = [2, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK: return %[[X]], %[[T]], %[[C]]
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x3x2xf32>, tensor<2x2xi64>) {
  %a = onnx.Transpose(%x) {perm = [1, 2, 0]} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %b = onnx.Transpose(%a) {perm = [2, 0, 1]} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %c = onnx.Transpose(%a) {perm = [1, 0, 2]} : (tensor<3x4x2xf32>) -> tensor<4x3x2xf32>
  %k = onnx.Constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %kt = onnx.Transpose(%k) : (tensor<2x2xi64>) -> tensor<2x2xi64>
  return %b, %c, %kt : tensor<2x3x4xf32>, tensor<4x3x2xf32>, tensor<2x2xi64>
}

// -----

// Reshape chains collapse into one Reshape to the final static shape.
// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[S:.*]] = onnx.Constant dense<[4, 6]> : tensor<2xi64>
// CHECK: %[[R:.*]] = onnx.Reshape(%[[X]], %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %f = onnx.Flatten(%x) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %s = onnx.Constant dense<[0, 6, 0]> : tensor<3xi64>
  %a = onnx.Reshape(%f, %s) : (tensor<2x12xf32>, tensor<3xi64>) -> tensor<2x6x2xf32>
  %t = onnx.Constant dense<[4, -1]> : tensor<2xi64>
  %b = onnx.Reshape(%a, %t) : (tensor<2x6x2xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %b : tensor<4x6xf32>
}

// -----

// Add of zero and Mul by one vanish unless broadcasting changes the type.
// CHECK-LABEL: func @neutral
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>
// CHECK: %[[B:.*]] = onnx.Add(%[[X]], %{{.*}}) : (tensor<2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK: return %[[X]], %[[X]], %[[B]]
func.func @neutral(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xf32>) {
  %zero = onnx.Constant dense<0.0> : tensor<3xf32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %wide = onnx.Constant dense<0.0> : tensor<4x2x3xf32>
  %a = onnx.Add(%zero, %x) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = onnx.Mul(%a, %one) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %b = onnx.Add(%x, %wide) : (tensor<2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %a, %m, %b : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xf32>
}

// -----

// A per-channel constant added to a Conv result becomes (part of) its bias.
// CHECK-LABEL: func @conv_add_bias
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = onnx.Conv(%{{.*}}, %{{.*}}, %[[B]])
// CHECK-NOT: onnx.Add
// CHECK: return %[[C]]
func.func @conv_add_bias(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %b = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %k = onnx.Constant dense<0.5> : tensor<2x1x1xf32>
  %c = onnx.Conv(%x, %w, %b) : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %y = onnx.Add(%k, %c) : (tensor<2x1x1xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// Not per channel (varies along the width): the Add stays.
// CHECK-LABEL: func @conv_add_not_per_channel
// CHECK: onnx.Conv
// CHECK: onnx.Add
func.func @conv_add_not_per_channel(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %k = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = onnx.Conv(%x, %w) : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %y = onnx.Add(%c, %k) : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// A constant sub-graph (weights normalized at export time) is evaluated:
// w / sqrt(v + 1) with v = 3 gives w / 2.
// CHECK-LABEL: func @constant_subgraph
// CHECK: %[[W:.*]] = onnx.Constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = onnx.Mul(%{{.*}}, %[[W]])
// CHECK: return %[[Y]]
func.func @constant_subgraph(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = onnx.Constant dense<[1.0, -2.0]> : tensor<2xf32>
  %v = onnx.Constant dense<3.0> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %s = onnx.Add(%v, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %r = onnx.Sqrt(%s) : (tensor<f32>) -> tensor<f32>
  %d = onnx.Div(%w, %r) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %y = onnx.Mul(%x, %d) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// Integer division by zero is left for run time.
// CHECK-LABEL: func @int_div_by_zero
// CHECK: onnx.Div
func.func @int_div_by_zero() -> tensor<2xi64> {
  %a = onnx.Constant dense<[4, 2]> : tensor<2xi64>
  %b = onnx.Constant dense<[2, 0]> : tensor<2xi64>
  %d = onnx.Div(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %d : tensor<2xi64>
}
