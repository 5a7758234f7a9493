// RUN: onnx-quant-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @add_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK:   arith.addf
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A size-1 dimension that broadcasts is dropped from the operand, so every
// indexing map is a projected permutation (what the vectorizer handles).
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @sub_size_one
// CHECK: %[[B:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x1xf32> into tensor<2xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL]], #{{.*}}]{{.*}}ins(%{{.*}}, %[[B]] :
// CHECK:   arith.subf
func.func @sub_size_one(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Sub(%a, %b) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @int_div_is_signed
// CHECK: arith.divsi
func.func @int_div_is_signed(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = onnx.Div(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Unsigned ONNX integers become signless, with unsigned arithmetic.
// CHECK-LABEL: func @uint_div
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.divui
func.func @uint_div(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = onnx.Div(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// CHECK-LABEL: func @relu_sigmoid
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.divf
func.func @relu_sigmoid(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = onnx.Relu(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = onnx.Sigmoid(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @leaky_hardswish
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: arith.mulf
func.func @leaky_hardswish(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = onnx.LeakyRelu(%x) {alpha = 0.1 : f32} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = onnx.HardSwish(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Scalar bounds are rank-0 inputs of the generic.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func @clip
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #[[SCALAR]], #{{.*}}]
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @clip(%x: tensor<8xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<8xf32> {
  %0 = onnx.Clip(%x) min(%lo) max(%hi) : (tensor<8xf32>, tensor<f32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @casts
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.sitofp {{.*}} : i32 to f16
// CHECK: arith.cmpf une
func.func @casts(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = onnx.Cast(%x) {to = 6 : i64} : (tensor<4xf32>) -> tensor<4xi32>
  %1 = onnx.Cast(%0) {to = 10 : i64} : (tensor<4xi32>) -> tensor<4xf16>
  %2 = onnx.Cast(%1) {to = 9 : i64} : (tensor<4xf16>) -> tensor<4xi1>
  return %2 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func @pow_int_exponent
// CHECK: arith.sitofp
// CHECK: math.powf
func.func @pow_int_exponent(%x: tensor<4xf32>, %y: tensor<4xi64>) -> tensor<4xf32> {
  %0 = onnx.Pow(%x, %y) : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
