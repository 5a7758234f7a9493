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

// -----

// CHECK-LABEL: func @unary_math
// CHECK: linalg.generic
// CHECK:   math.sin
// CHECK: linalg.generic
// CHECK:   math.atanh
// ONNX Round is round-half-to-even.
// CHECK: linalg.generic
// CHECK:   math.roundeven
// Softplus as max(x, 0) + log1p(exp(-|x|)), which does not overflow.
// CHECK: linalg.generic
// CHECK:   %[[POS:.*]] = arith.maximumf
// CHECK:   %[[ABS:.*]] = math.absf
// CHECK:   %[[NEG:.*]] = arith.negf %[[ABS]]
// CHECK:   %[[E:.*]] = math.exp %[[NEG]]
// CHECK:   %[[L:.*]] = math.log1p %[[E]]
// CHECK:   arith.addf %[[POS]], %[[L]]
func.func @unary_math(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = onnx.Sin(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Atanh(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Round(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = onnx.Softplus(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// gamma * (x > 0 ? x : alpha * expm1(x))
// CHECK-LABEL: func @selu
// CHECK:   %[[ALPHA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:   %[[EM1:.*]] = math.expm1 %[[X:.*]] : f32
// CHECK:   %[[NEG:.*]] = arith.mulf %[[ALPHA]], %[[EM1]]
// CHECK:   %[[POS:.*]] = arith.cmpf ogt, %[[X]]
// CHECK:   %[[S:.*]] = arith.select %[[POS]], %[[X]], %[[NEG]]
// CHECK:   %[[GAMMA:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:   arith.mulf %[[GAMMA]], %[[S]]
func.func @selu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Selu(%x) {alpha = 2.0 : f32, gamma = 3.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @isinf_positive
// CHECK: outs(%{{.*}} : tensor<4xi1>)
// CHECK:   %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:   arith.cmpf oeq, %{{.*}}, %[[INF]]
// CHECK-NOT: 0xFF800000
func.func @isinf_positive(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = onnx.IsInf(%x) {detect_negative = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Integer Mod takes the sign of the divisor: a non-zero remainder whose sign
// differs from the divisor's gets the divisor added.
// CHECK-LABEL: func @mod_int
// CHECK:   %[[REM:.*]] = arith.remsi %[[A:.*]], %[[B:.*]] : i32
// CHECK:   %[[NZ:.*]] = arith.cmpi ne, %[[REM]]
// CHECK:   %[[RN:.*]] = arith.cmpi slt, %[[REM]]
// CHECK:   %[[BN:.*]] = arith.cmpi slt, %[[B]]
// CHECK:   %[[DIFF:.*]] = arith.xori %[[RN]], %[[BN]]
// CHECK:   %[[ADJ:.*]] = arith.andi %[[NZ]], %[[DIFF]]
// CHECK:   %[[SUM:.*]] = arith.addi %[[REM]], %[[B]]
// CHECK:   arith.select %[[ADJ]], %[[SUM]], %[[REM]]
func.func @mod_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = onnx.Mod(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @mod_fmod
// CHECK:   arith.remf
func.func @mod_fmod(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Mod(%a, %b) {fmod = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// uint8 is i8 after conversion; the comparison stays unsigned.
// CHECK-LABEL: func @less_unsigned
// CHECK: outs(%{{.*}} : tensor<4xi1>)
// CHECK:   arith.cmpi ult, %{{.*}}, %{{.*}} : i8
func.func @less_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  %0 = onnx.Less(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// All three operands broadcast.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func @where
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ID]], #[[SCALAR]], #[[ID]]]
// CHECK:   ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK:   arith.select %[[C]], %[[X]], %[[Y]] : f32
func.func @where(%c: tensor<4xi1>, %x: tensor<2x4xf32>, %y: tensor<f32>) -> tensor<2x4xf32> {
  %0 = onnx.Where(%c, %x, %y) : (tensor<4xi1>, tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @mean
// CHECK:   %[[S1:.*]] = arith.addf
// CHECK:   %[[S2:.*]] = arith.addf %[[S1]]
// CHECK:   %[[N:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:   arith.divf %[[S2]], %[[N]]
func.func @mean(%a: tensor<2x4xf32>, %b: tensor<4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.Mean(%a, %b, %c) : (tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @max_unsigned
// CHECK:   arith.maxui %{{.*}}, %{{.*}} : i16
func.func @max_unsigned(%a: tensor<4xui16>, %b: tensor<4xui16>) -> tensor<4xui16> {
  %0 = onnx.Max(%a, %b) : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// CHECK-LABEL: func @prelu
// CHECK:   ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK:   %[[NEG:.*]] = arith.cmpf olt, %[[X]]
// CHECK:   %[[P:.*]] = arith.mulf %[[S]], %[[X]]
// CHECK:   arith.select %[[NEG]], %[[P]], %[[X]]
func.func @prelu(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// An integer base is raised in f64 and truncated back.
// CHECK-LABEL: func @pow_int_base
// CHECK:   %[[X:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK:   %[[Y:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK:   %[[P:.*]] = math.powf %[[X]], %[[Y]] : f64
// CHECK:   arith.fptosi %[[P]] : f64 to i32
func.func @pow_int_base(%x: tensor<4xi32>, %y: tensor<4xf32>) -> tensor<4xi32> {
  %0 = onnx.Pow(%x, %y) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Gelu (opset 20): exact through erf(x / sqrt 2), or the tanh form.
// CHECK-LABEL: func @gelu
// CHECK: math.erf
// CHECK-LABEL: func @gelu_tanh
// CHECK-DAG: arith.constant 4.471500e-02 : f32
// CHECK: math.tanh
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Gelu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Gelu(%x) {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Mish (opset 18): x * tanh(softplus(x)), softplus in its overflow-free form.
// CHECK-LABEL: func @mish
// CHECK: math.log1p
// CHECK: math.tanh
// CHECK: arith.mulf
func.func @mish(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Mish(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
