// RUN: onnx-quant-opt %s --canonicalize --split-input-file | FileCheck %s
// The folders: Identity, Constant, Cast to the same type, Reshape to the same
// static type, Transpose with the identity permutation; and what must not fold.

// CHECK-LABEL: func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: onnx.Identity
  // CHECK: return %[[X]] : tensor<2x3xf32>
  %0 = onnx.Identity(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Identity(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// An Identity of a constant folds to the constant.
// CHECK-LABEL: func @identity_of_constant
func.func @identity_of_constant() -> tensor<2xf32> {
  // CHECK: %[[C:.*]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK-NOT: onnx.Identity
  // CHECK: return %[[C]]
  %c = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = onnx.Identity(%c) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Equal constants are uniqued into one; unused ones are erased.
// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<2xi64>, tensor<2xi64>) {
  // CHECK: %[[C:.*]] = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  // CHECK-NOT: onnx.Constant
  // CHECK: return %[[C]], %[[C]]
  %0 = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  %1 = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  %unused = onnx.Constant dense<3.0> : tensor<4xf32>
  return %0, %1 : tensor<2xi64>, tensor<2xi64>
}

// -----

// CHECK-LABEL: func @cast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @cast_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: onnx.Cast
  // CHECK: return %[[X]]
  %0 = onnx.Cast(%x) {to = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @cast_other_type
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @cast_other_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // CHECK: %[[C:.*]] = onnx.Cast(%[[X]]) {to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  // CHECK: return %[[C]]
  %0 = onnx.Cast(%x) {to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Same element type, but the shape is refined: not a no-op.
// CHECK-LABEL: func @cast_refines_shape
func.func @cast_refines_shape(%x: tensor<?xf32>) -> tensor<4xf32> {
  // CHECK: onnx.Cast(%{{.*}}) {to = 1 : i64} : (tensor<?xf32>) -> tensor<4xf32>
  %0 = onnx.Cast(%x) {to = 1 : i64} : (tensor<?xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @reshape_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: onnx.Reshape
  // CHECK-NOT: onnx.Constant
  // CHECK: return %[[X]]
  %s = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %0 = onnx.Reshape(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @reshape_other_shape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @reshape_other_shape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: %[[S:.*]] = onnx.Constant dense<[3, 2]> : tensor<2xi64>
  // CHECK: %[[R:.*]] = onnx.Reshape(%[[X]], %[[S]]) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  // CHECK: return %[[R]]
  %s = onnx.Constant dense<[3, 2]> : tensor<2xi64>
  %0 = onnx.Reshape(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// A dynamic type is not known to be a no-op: the shape operand decides.
// CHECK-LABEL: func @reshape_dynamic
func.func @reshape_dynamic(%x: tensor<?x3xf32>, %s: tensor<2xi64>) -> tensor<?x3xf32> {
  // CHECK: onnx.Reshape(%{{.*}}, %{{.*}}) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  %0 = onnx.Reshape(%x, %s) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @transpose_identity(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK-NOT: onnx.Transpose
  // CHECK: return %[[X]]
  %0 = onnx.Transpose(%x) {perm = [0, 1, 2]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A real permutation, even one that keeps the type (equal dimensions).
// CHECK-LABEL: func @transpose_permutes
func.func @transpose_permutes(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // CHECK: onnx.Transpose(%{{.*}}) {perm = [1, 0]} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %0 = onnx.Transpose(%x) {perm = [1, 0]} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// No perm reverses the dimensions.
// CHECK-LABEL: func @transpose_no_perm
func.func @transpose_no_perm(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // CHECK: onnx.Transpose(%{{.*}}) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %0 = onnx.Transpose(%x) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// The identity permutation, but the result type differs from the input's.
// CHECK-LABEL: func @transpose_identity_refines_type
func.func @transpose_identity_refines_type(%x: tensor<?x3xf32>) -> tensor<2x3xf32> {
  // CHECK: onnx.Transpose(%{{.*}}) {perm = [0, 1]} : (tensor<?x3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Transpose(%x) {perm = [0, 1]} : (tensor<?x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Ops without folders stay, and dead ones are removed.
// CHECK-LABEL: func @no_folder
func.func @no_folder(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = onnx.Relu
  // CHECK-NOT: onnx.Sigmoid
  // CHECK: return %[[R]]
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %dead = onnx.Sigmoid(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Folding composes: Identity -> Cast (no-op) -> Transpose (identity) -> input.
// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @chain(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: return %[[X]]
  %0 = onnx.Identity(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Cast(%0) {to = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Transpose(%1) {perm = [0, 1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// Narrow integer constants widened to index types (a codebook's indices)
// above 1024 elements stay narrow: the Cast runs with the model. Smaller
// ones, and widenings to float, fold.
// CHECK-LABEL: func @cast_narrow_indices
// CHECK-DAG: %[[BIG:.*]] = onnx.Constant dense<3> : tensor<1025xui4>
// CHECK-DAG: %[[CAST:.*]] = onnx.Cast(%[[BIG]]) {to = 6 : i64} : (tensor<1025xui4>) -> tensor<1025xi32>
// CHECK-DAG: %[[SMALL:.*]] = onnx.Constant dense_resource<{{.*}}> : tensor<1024xi32>
// CHECK-DAG: %[[FLOAT:.*]] = onnx.Constant dense_resource<{{.*}}> : tensor<1025xf32>
// CHECK: return %[[CAST]], %[[SMALL]], %[[FLOAT]]
func.func @cast_narrow_indices() -> (tensor<1025xi32>, tensor<1024xi32>, tensor<1025xf32>) {
  %big = onnx.Constant dense<3> : tensor<1025xui4>
  %small = onnx.Constant dense<3> : tensor<1024xui8>
  %0 = onnx.Cast(%big) {to = 6 : i64} : (tensor<1025xui4>) -> tensor<1025xi32>
  %1 = onnx.Cast(%small) {to = 6 : i64} : (tensor<1024xui8>) -> tensor<1024xi32>
  %2 = onnx.Cast(%big) {to = 1 : i64} : (tensor<1025xui4>) -> tensor<1025xf32>
  return %0, %1, %2 : tensor<1025xi32>, tensor<1024xi32>, tensor<1025xf32>
}
