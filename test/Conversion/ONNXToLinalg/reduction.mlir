// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// The reduction writes a tensor without the reduced dims, filled with the
// identity of the combination (-inf for max); keepdims = 0 is a reshape.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @reduce_max
// CHECK: %[[INIT:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[INIT]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}} : tensor<2x3x4xf32>) outs(%[[FILL]] : tensor<2x4xf32>)
// CHECK:   arith.maximumf
// CHECK: return %{{.*}} : tensor<2x4xf32>
func.func @reduce_max(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.ReduceMax(%x) {axes = [1], keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Unsigned minimum: starts from 255 (-1 as i8), compares unsigned; no axes
// reduces all of them.
// CHECK-LABEL: func @reduce_min_unsigned
// CHECK: %[[INIT:.*]] = arith.constant -1 : i8
// CHECK: linalg.fill ins(%[[INIT]] : i8) outs(%{{.*}} : tensor<i8>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK:   arith.minui
func.func @reduce_min_unsigned(%x: tensor<2x3xui8>) -> tensor<1x1xui8> {
  %0 = onnx.ReduceMin(%x) : (tensor<2x3xui8>) -> tensor<1x1xui8>
  return %0 : tensor<1x1xui8>
}

// -----

// sqrt(sum(x * x)): a map before and after the sum.
// CHECK-LABEL: func @reduce_l2
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:   arith.mulf %[[V:.*]], %[[V]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:   arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:   math.sqrt
func.func @reduce_l2(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = onnx.ReduceL2(%x) {axes = [-1]} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// max + log(sum(exp(x - max))), with a shift of 0 where the max is infinite.
// CHECK-LABEL: func @reduce_log_sum_exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:   arith.maximumf
// CHECK: %[[SHIFT:.*]] = linalg.generic
// CHECK:   math.absf
// CHECK:   arith.cmpf one
// CHECK:   arith.select
// CHECK: linalg.generic
// CHECK:   arith.subf
// CHECK:   math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:   arith.addf
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[SHIFT]] : tensor<2x1xf32>, tensor<2x1xf32>)
// CHECK:   math.log
// CHECK:   arith.addf
func.func @reduce_log_sum_exp(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = onnx.ReduceLogSumExp(%x) {axes = [1]} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Runtime axes with keepdims: the reduced axes are where the shape shrinks.
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @reduce_sum_runtime_axes
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:   arith.addf
// CHECK: tensor.expand_shape {{.*}} into tensor<2x1x4xf32>
func.func @reduce_sum_runtime_axes(%x: tensor<2x3x4xf32>, %axes: tensor<1xi64>) -> tensor<2x1x4xf32> {
  %0 = onnx.ReduceSum(%x, %axes) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// Runtime axes without keepdims: 3x2x2 -> 3x2 drops dim 1 or dim 2. Both sums
// are computed; the runtime axis (normalized when negative) selects one.
// CHECK-DAG: #[[OUT1:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[OUT2:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @reduce_sum_runtime_axes_no_keepdims
// CHECK-SAME: (%[[X:.*]]: tensor<3x2x2xf32>, %[[AXES:.*]]: tensor<1xi64>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[OUT1]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK: %[[AXIS:.*]] = tensor.extract %[[AXES]][%{{.*}}] : tensor<1xi64>
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[AXIS]], %{{.*}} : i64
// CHECK: %[[WRAPPED:.*]] = arith.addi %[[AXIS]], %{{.*}} : i64
// CHECK: %[[NORM:.*]] = arith.select %[[NEG]], %[[WRAPPED]], %[[AXIS]] : i64
// CHECK: arith.cmpi eq, %[[NORM]], %{{.*}} : i64
// CHECK: %[[IS2:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[OUT2]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[R:.*]] = arith.select %[[IS2]], %{{.*}}, %{{.*}} : tensor<3x2xf32>
// CHECK: return %[[R]]
func.func @reduce_sum_runtime_axes_no_keepdims(%x: tensor<3x2x2xf32>, %axes: tensor<1xi64>) -> tensor<3x2xf32> {
  %0 = onnx.ReduceSum(%x, %axes) {keepdims = 0 : i64} : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func @reduce_sum_noop
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[X]]
func.func @reduce_sum_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %axes = onnx.Constant dense<> : tensor<0xi64>
  %0 = onnx.ReduceSum(%x, %axes) {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>, tensor<0xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// One reduction carries the best value and its index; a strict comparison
// keeps the first maximum.
// CHECK-LABEL: func @argmax
// CHECK: %[[V:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>)
// CHECK:   %[[BETTER:.*]] = arith.cmpf ogt
// CHECK:   %[[I:.*]] = linalg.index 1 : index
// CHECK:   %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   arith.select %[[BETTER]]
// CHECK:   arith.select %[[BETTER]], %[[I64]]
// CHECK: tensor.expand_shape %[[V]]#1
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = onnx.ArgMax(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// select_last_index: ties move the index on (<= instead of <).
// CHECK-LABEL: func @argmin_last
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK:   arith.cmpi sle
// CHECK:   linalg.index 0
func.func @argmin_last(%x: tensor<2x3xi32>) -> tensor<1x3xi64> {
  %0 = onnx.ArgMin(%x) {select_last_index = 1 : i64} : (tensor<2x3xi32>) -> tensor<1x3xi64>
  return %0 : tensor<1x3xi64>
}

// -----

// x - max - log(sum(exp(x - max)))
// CHECK-LABEL: func @logsoftmax
// CHECK: arith.maximumf
// CHECK: %[[SHIFTED:.*]] = linalg.generic
// CHECK:   arith.subf
// CHECK: linalg.generic
// CHECK:   math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:   arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[SHIFTED]], %{{.*}} : tensor<2x3xf32>, tensor<2xf32>)
// CHECK:   math.log
// CHECK:   arith.subf
func.func @logsoftmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.LogSoftmax(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// 1 where the index along the axis is that of the first maximum.
// CHECK-LABEL: func @hardmax
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2xi64>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:   linalg.index 1
// CHECK:   arith.cmpi eq
// CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @hardmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Hardmax(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Bools order false < true: their max is an unsigned max (as signed i1, true
// would be -1), starting from false.
// CHECK-LABEL: func @reduce_max_bool
// CHECK: arith.constant false
// CHECK: linalg.generic
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i1
func.func @reduce_max_bool(%x: tensor<4x2xi1>) -> tensor<4x1xi1> {
  %0 = onnx.ReduceMax(%x) {axes = [1]} : (tensor<4x2xi1>) -> tensor<4x1xi1>
  return %0 : tensor<4x1xi1>
}

// -----

// TopK keeps its K best in the outputs themselves: a scalar scan of each row
// (one scf.for per other dim, then along the axis); an element that beats
// the row's K-th (or meets an empty slot, index -1) is carried down the K
// slots, swapping with each slot it beats.
// CHECK-LABEL: func @topk
// CHECK: %[[V0:.*]] = linalg.fill {{.*}} -> tensor<3x4xf32>
// CHECK: %[[I0:.*]] = linalg.fill ins(%{{.*}} : i64) {{.*}} -> tensor<3x4xi64>
// CHECK: scf.for %[[R:.*]] = {{.*}} to %{{.*}} step {{.*}} iter_args(%{{.*}} = %[[V0]], %{{.*}} = %[[I0]])
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[R]], %[[E]]] : tensor<3x7xf32>
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK: %[[BEATS:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : f32
// CHECK: %[[ENTERS:.*]] = arith.ori %[[EMPTY]], %[[BEATS]]
// CHECK: scf.if %[[ENTERS]]
// CHECK: scf.for
// CHECK: arith.select
// CHECK: tensor.insert {{.*}} : tensor<3x4xf32>
// CHECK: tensor.insert {{.*}} : tensor<3x4xi64>
func.func @topk(%x: tensor<3x7xf32>) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %k = onnx.Constant dense<4> : tensor<1xi64>
  %v, %i = onnx.TopK(%x, %k) {axis = 1 : i64} : (tensor<3x7xf32>, tensor<1xi64>) -> (tensor<3x4xf32>, tensor<3x4xi64>)
  return %v, %i : tensor<3x4xf32>, tensor<3x4xi64>
}

// -----

// The smallest, along the first axis, of unsigned integers: ult.
// CHECK-LABEL: func @topk_smallest_unsigned
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<5x2xi8>
// CHECK: arith.cmpi ult
func.func @topk_smallest_unsigned(%x: tensor<5x2xui8>) -> (tensor<2x2xui8>, tensor<2x2xi64>) {
  %k = onnx.Constant dense<2> : tensor<1xi64>
  %v, %i = onnx.TopK(%x, %k) {axis = 0 : i64, largest = 0 : i64} : (tensor<5x2xui8>, tensor<1xi64>) -> (tensor<2x2xui8>, tensor<2x2xi64>)
  return %v, %i : tensor<2x2xui8>, tensor<2x2xi64>
}
