// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// Runtime starts/axes/steps: per dimension, the first index and the step are
// selected from the entries whose (normalized) axis is that dimension; the
// start counts from the end when negative and is clamped to [0, dim - 1]
// for a negative step, [0, dim] otherwise. The generic gathers
// data[first + i * step].
// CHECK-LABEL: func @slice_runtime
// CHECK-SAME: (%[[X:.*]]: tensor<20x10xf32>, %[[S:.*]]: tensor<1xi64>, %[[E:.*]]: tensor<1xi64>, %[[A:.*]]: tensor<1xi64>, %[[T:.*]]: tensor<1xi64>)
// CHECK-DAG: %[[START:.*]] = tensor.extract %[[S]]
// CHECK-DAG: %[[STEP:.*]] = tensor.extract %[[T]]
// CHECK-DAG: %[[AXIS:.*]] = tensor.extract %[[A]]
// CHECK: arith.minsi %{{.*}}, %c19
// CHECK: arith.minsi %{{.*}}, %c20
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<3x10xf32>)
// CHECK:   %[[I0:.*]] = linalg.index 0
// CHECK:   %[[M0:.*]] = arith.muli %[[I0]]
// CHECK:   %[[A0:.*]] = arith.addi %{{.*}}, %[[M0]]
// Each index clamped into its dim: run-time starts that disagree with the
// compiled shape never read outside.
// CHECK:   %[[L0:.*]] = arith.maxsi %[[A0]]
// CHECK:   %[[R0:.*]] = arith.minsi %[[L0]], %c19
// CHECK:   %[[I1:.*]] = linalg.index 1
// CHECK:   %[[M1:.*]] = arith.muli %[[I1]]
// CHECK:   %[[A1:.*]] = arith.addi %{{.*}}, %[[M1]]
// CHECK:   %[[L1:.*]] = arith.maxsi %[[A1]]
// CHECK:   %[[R1:.*]] = arith.minsi %[[L1]], %c9
// CHECK:   tensor.extract %[[X]][%[[R0]], %[[R1]]] : tensor<20x10xf32>
func.func @slice_runtime(%x: tensor<20x10xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %a: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3x10xf32> {
  %0 = onnx.Slice(%x, %s, %e) axes(%a) steps(%t) : (tensor<20x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// -----

// Reflect padding with runtime pads: i = o - begin, mirrored at both ends.
// CHECK-LABEL: func @pad_reflect_runtime
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[P:.*]]: tensor<4xi64>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x7xf32>)
// CHECK:   %[[I:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:   %[[BELOW:.*]] = arith.cmpi slt, %[[I]]
// CHECK:   %[[NEG:.*]] = arith.subi %{{.*}}, %[[I]]
// CHECK:   %[[M:.*]] = arith.select %[[BELOW]], %[[NEG]], %[[I]]
// CHECK:   %[[ABOVE:.*]] = arith.cmpi sgt, %[[M]]
// CHECK:   arith.select %[[ABOVE]]
// CHECK:   tensor.extract %[[X]]
func.func @pad_reflect_runtime(%x: tensor<3x4xf32>, %p: tensor<4xi64>) -> tensor<3x7xf32> {
  %0 = onnx.Pad(%x, %p) {mode = "reflect"} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// -----

// Constant padding with a runtime value: reads in bounds, then selects.
// CHECK-LABEL: func @pad_constant_runtime
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[P:.*]]: tensor<2xi64>, %[[V:.*]]: tensor<f32>)
// CHECK: %[[VALUE:.*]] = tensor.extract %[[V]][] : tensor<f32>
// CHECK: linalg.generic
// CHECK:   arith.andi
// CHECK:   %[[IN:.*]] = arith.andi %true
// CHECK:   %[[E:.*]] = tensor.extract %[[X]]
// CHECK:   arith.select %[[IN]], %[[E]], %[[VALUE]]
func.func @pad_constant_runtime(%x: tensor<4xf32>, %p: tensor<2xi64>, %v: tensor<f32>) -> tensor<6xf32> {
  %0 = onnx.Pad(%x, %p, %v) : (tensor<4xf32>, tensor<2xi64>, tensor<f32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// Pad-19 wrap: index o - pad_begin modulo the dim, negative remainders moved
// up by the dim.
// CHECK-LABEL: func @pad_wrap
// CHECK: linalg.generic
// CHECK: %[[R:.*]] = arith.remsi %{{.*}}, %[[DIM:.*]] : index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[R]]
// CHECK: %[[UP:.*]] = arith.addi %[[R]], %[[DIM]]
// CHECK: arith.select %[[NEG]], %[[UP]], %[[R]]
func.func @pad_wrap(%x: tensor<4xf32>) -> tensor<8xf32> {
  %p = onnx.Constant dense<[3, 1]> : tensor<2xi64>
  %0 = onnx.Pad(%x, %p) {mode = "wrap"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
