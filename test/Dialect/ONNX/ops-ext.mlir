// RUN: onnx-quant-opt %s | onnx-quant-opt | FileCheck %s
// RUN: onnx-quant-opt %s -mlir-print-op-generic | onnx-quant-opt | FileCheck %s
// Round trip of the ops of ONNXElementwiseExtOps.td and ONNXReductionOps.td
// (ops.mlir has the others). Attributes equal to their default are not
// printed.

// CHECK-LABEL: func @unary_math
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @unary_math(%x: tensor<2x3xf32>) {
  // CHECK: onnx.Sin(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u0 = onnx.Sin(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cos(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u1 = onnx.Cos(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Tan(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u2 = onnx.Tan(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Asin(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u3 = onnx.Asin(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Acos(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u4 = onnx.Acos(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Atan(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u5 = onnx.Atan(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sinh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u6 = onnx.Sinh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cosh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u7 = onnx.Cosh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Asinh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u8 = onnx.Asinh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Acosh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u9 = onnx.Acosh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Atanh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u10 = onnx.Atanh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sign(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u11 = onnx.Sign(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Round(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u12 = onnx.Round(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Softplus(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u13 = onnx.Softplus(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Softsign(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u14 = onnx.Softsign(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @activations
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @activations(%x: tensor<2x3xf32>) {
  // CHECK: onnx.Elu(%[[X]]) {alpha = 5.000000e-01 : f32}
  %0 = onnx.Elu(%x) {alpha = 0.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Celu(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Celu(%x) {alpha = 1.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Selu(%[[X]]) {gamma = 2.000000e+00 : f32}
  %2 = onnx.Selu(%x) {gamma = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.ThresholdedRelu(%[[X]]) {alpha = 2.000000e+00 : f32}
  %3 = onnx.ThresholdedRelu(%x) {alpha = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Shrink(%[[X]]) {bias = 1.000000e+00 : f32, lambd = 1.500000e+00 : f32}
  %4 = onnx.Shrink(%x) {bias = 1.0 : f32, lambd = 1.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.IsNaN(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %5 = onnx.IsNaN(%x) : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.IsInf(%[[X]]) {detect_negative = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %6 = onnx.IsInf(%x) {detect_negative = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xi32>, %[[B:.*]]: tensor<3xi32>, %[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<2x3xi1>, %[[Q:.*]]: tensor<3xi1>)
func.func @binary(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %x: tensor<2x3xf32>, %s: tensor<3xf32>, %p: tensor<2x3xi1>, %q: tensor<3xi1>) {
  // CHECK: onnx.Mod(%[[A]], %[[B]]) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = onnx.Mod(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.Mod(%[[X]], %[[S]]) {fmod = 1 : i64}
  %1 = onnx.Mod(%x, %s) {fmod = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.PRelu(%[[X]], %[[S]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Equal(%[[A]], %[[B]]) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %3 = onnx.Equal(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  // CHECK: onnx.Greater(%[[X]], %[[S]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %4 = onnx.Greater(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.GreaterOrEqual(%[[X]], %[[S]])
  %5 = onnx.GreaterOrEqual(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.Less(%[[X]], %[[S]])
  %6 = onnx.Less(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.LessOrEqual(%[[X]], %[[S]])
  %7 = onnx.LessOrEqual(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.And(%[[P]], %[[Q]]) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %8 = onnx.And(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Or(%[[P]], %[[Q]])
  %9 = onnx.Or(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Xor(%[[P]], %[[Q]])
  %10 = onnx.Xor(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Not(%[[P]]) : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %11 = onnx.Not(%p) : (tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Where(%[[Q]], %[[X]], %[[S]]) : (tensor<3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %12 = onnx.Where(%q, %x, %s) : (tensor<3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @variadic
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<3xf32>)
func.func @variadic(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // CHECK: onnx.Max(%[[X]], %[[S]], %[[X]]) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Max(%x, %s, %x) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Min(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Min(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sum(%[[X]], %[[S]])
  %2 = onnx.Sum(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Mean(%[[X]], %[[S]])
  %3 = onnx.Mean(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @reductions
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[AXES:.*]]: tensor<1xi64>, %[[K:.*]]: tensor<i64>)
func.func @reductions(%x: tensor<2x3x4xf32>, %axes: tensor<1xi64>, %k: tensor<i64>) {
  // CHECK: onnx.ReduceMax(%[[X]]) {axes = [1]} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %0 = onnx.ReduceMax(%x) {axes = [1]} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceMin(%[[X]]) {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = onnx.ReduceMin(%x) {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: onnx.ReduceProd(%[[X]]) {axes = [-1]}
  %2 = onnx.ReduceProd(%x) {axes = [-1]} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  // CHECK: onnx.ReduceL1(%[[X]]) {axes = [0, 2]}
  %3 = onnx.ReduceL1(%x) {axes = [0, 2]} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  // CHECK: onnx.ReduceL2(%[[X]])
  %4 = onnx.ReduceL2(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceLogSum(%[[X]])
  %5 = onnx.ReduceLogSum(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceLogSumExp(%[[X]])
  %6 = onnx.ReduceLogSumExp(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceSumSquare(%[[X]])
  %7 = onnx.ReduceSumSquare(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceSum(%[[X]], %[[AXES]]) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  %8 = onnx.ReduceSum(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  // CHECK: onnx.ReduceSum(%[[X]]) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %9 = onnx.ReduceSum(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.ArgMax(%[[X]]) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  %10 = onnx.ArgMax(%x) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  // CHECK: onnx.ArgMin(%[[X]]) {keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
  %11 = onnx.ArgMin(%x) {keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
  // CHECK: onnx.LogSoftmax(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %12 = onnx.LogSoftmax(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Hardmax(%[[X]]) {axis = 0 : i64}
  %13 = onnx.Hardmax(%x) {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Trilu(%[[X]], %[[K]]) {upper = 0 : i64} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  %14 = onnx.Trilu(%x, %k) {upper = 0 : i64} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Trilu(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %15 = onnx.Trilu(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}
