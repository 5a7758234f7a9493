// RUN: onnx-quant-opt %s -split-input-file -verify-diagnostics
// One case per error message of the verifiers of the ops in
// ONNXElementwiseExtOps.td and ONNXReductionOps.td
// (lib/Dialect/ONNX/IR/{ElementwiseExtOps,ReductionOps}.cpp); invalid.mlir
// has the others.

func.func @isnan_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.IsNaN' op expects the result to have bool (i1) elements, got 'f32'}}
  %0 = onnx.IsNaN(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @isinf_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.IsInf' op expects the result to have bool (i1) elements, got 'i8'}}
  %0 = onnx.IsInf(%x) : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

func.func @mod_broadcast(%a: tensor<2x3xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'onnx.Mod' op expects broadcast-compatible operands, got 'tensor<2x3xi32>' and 'tensor<4xi32>'}}
  %0 = onnx.Mod(%a, %b) : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @mod_float_fmod(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Mod' op expects fmod = 1 for floating-point operands}}
  %0 = onnx.Mod(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @prelu_broadcast(%x: tensor<2x3xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.PRelu' op expects broadcast-compatible operands, got 'tensor<2x3xf32>' and 'tensor<2xf32>'}}
  %0 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @equal_result(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Equal' op expects the result to have bool (i1) elements, got 'f32'}}
  %0 = onnx.Equal(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @greater_broadcast(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Greater' op expects broadcast-compatible operands, got 'tensor<4xf32>' and 'tensor<3xf32>'}}
  %0 = onnx.Greater(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @and_operand(%a: tensor<4xi8>, %b: tensor<4xi1>) {
  // expected-error @+1 {{'onnx.And' op expects A to have bool (i1) elements, got 'i8'}}
  %0 = onnx.And(%a, %b) : (tensor<4xi8>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @or_operand(%a: tensor<4xi1>, %b: tensor<4xi8>) {
  // expected-error @+1 {{'onnx.Or' op expects B to have bool (i1) elements, got 'i8'}}
  %0 = onnx.Or(%a, %b) : (tensor<4xi1>, tensor<4xi8>) -> tensor<4xi1>
  return
}

// -----

func.func @xor_broadcast(%a: tensor<4xi1>, %b: tensor<3xi1>) {
  // expected-error @+1 {{'onnx.Xor' op expects broadcast-compatible operands, got 'tensor<4xi1>' and 'tensor<3xi1>'}}
  %0 = onnx.Xor(%a, %b) : (tensor<4xi1>, tensor<3xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @where_condition(%c: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Where' op expects condition to have bool (i1) elements, got 'f32'}}
  %0 = onnx.Where(%c, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_types(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'onnx.Where' op expects X and Y to have the same element type, got 'f32' and 'i32'}}
  %0 = onnx.Where(%c, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_broadcast(%c: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Where' op expects broadcast-compatible operands, got 'tensor<3xi1>' and 'tensor<4xf32>'}}
  %0 = onnx.Where(%c, %x, %x) : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @max_no_input() {
  // expected-error @+1 {{'onnx.Max' op expects at least one input}}
  %0 = onnx.Max() : () -> tensor<4xf32>
  return
}

// -----

func.func @sum_broadcast(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Sum' op expects broadcast-compatible operands, got 'tensor<3xf32>' and 'tensor<4xf32>'}}
  %0 = onnx.Sum(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_max_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ReduceMax' op expects axes in [-2, 1] for rank 2, got 2}}
  %0 = onnx.ReduceMax(%x) {axes = [2]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_l2_duplicate_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ReduceL2' op expects unique axes, got -1 twice}}
  %0 = onnx.ReduceL2(%x) {axes = [1, -1]} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @reduce_sum_axes_type(%x: tensor<2x3xf32>, %axes: tensor<1xf32>) {
  // expected-error @+1 {{'onnx.ReduceSum' op expects axes to be a 1-D integer tensor, got 'tensor<1xf32>'}}
  %0 = onnx.ReduceSum(%x, %axes) : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @argmax_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMax' op expects an int64 result}}
  %0 = onnx.ArgMax(%x) : (tensor<2x3xf32>) -> tensor<1x3xi32>
  return
}

// -----

func.func @argmin_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMin' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.ArgMin(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return
}

// -----

func.func @logsoftmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.LogSoftmax' op expects axis in [-2, 1] for rank 2, got -3}}
  %0 = onnx.LogSoftmax(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @hardmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Hardmax' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.Hardmax(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @trilu_rank(%x: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Trilu' op expects input of rank >= 2, got rank 1}}
  %0 = onnx.Trilu(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @trilu_k(%x: tensor<3x3xf32>, %k: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Trilu' op expects k to be a scalar, got 'tensor<2xi64>'}}
  %0 = onnx.Trilu(%x, %k) : (tensor<3x3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return
}
