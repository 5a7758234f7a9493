// RUN: onnx-quant-opt %s --onnx-qoperator-to-qdq --split-input-file | FileCheck %s
// QOperator ops become DequantizeLinear -> float op -> QuantizeLinear.

// The bias scale x_scale * w_scale is folded: 0.5 * [0.1, 0.2, 0.3, 0.4].
// CHECK-LABEL: func @conv
// CHECK: %[[X:.*]] = onnx.DequantizeLinear(%arg0, %[[XS:.*]], %[[XZ:.*]]) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
// CHECK: %[[W:.*]] = onnx.DequantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<4x2x1x1xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x2x1x1xf32>
// CHECK: %[[BS:.*]] = onnx.Constant dense<[5.000000e-02, 1.000000e-01, 1.500000e-01, 2.000000e-01]> : tensor<4xf32>
// CHECK: %[[B:.*]] = onnx.DequantizeLinear(%{{.*}}, %[[BS]]) {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[C:.*]] = onnx.Conv(%[[X]], %[[W]], %[[B]]) {strides = [1, 1]} : (tensor<1x2x3x3xf32>, tensor<4x2x1x1xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear(%[[C]], %{{.*}}, %{{.*}}) : (tensor<1x4x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
// CHECK: return %[[Y]]
func.func @conv(%x: tensor<1x2x3x3xui8>) -> tensor<1x4x3x3xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<4x2x1x1xi8>
  %ws = onnx.Constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %wz = onnx.Constant dense<0> : tensor<4xi8>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<0> : tensor<ui8>
  %b = onnx.Constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {strides = [1, 1]} : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<4x2x1x1xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x3x3xui8>
  return %y : tensor<1x4x3x3xui8>
}

// -----

// QLinearMatMul: a per-column b scale applies along b's last dimension.
// CHECK-LABEL: func @matmul
// CHECK: onnx.DequantizeLinear(%arg0, {{.*}}) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
// CHECK: onnx.DequantizeLinear(%arg1, {{.*}}) : (tensor<3x4xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<3x4xf32>
// CHECK: %[[M:.*]] = onnx.MatMul
// CHECK: onnx.QuantizeLinear(%[[M]],
func.func @matmul(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>, %as: tensor<f32>, %az: tensor<ui8>, %bs: tensor<4xf32>, %bz: tensor<4xi8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<2x4xui8> {
  %y = onnx.QLinearMatMul(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return %y : tensor<2x4xui8>
}

// -----

// com.microsoft QLinearAdd and QLinearGlobalAveragePool.
// CHECK-LABEL: func @add_pool
// CHECK-COUNT-2: onnx.DequantizeLinear
// CHECK: %[[A:.*]] = onnx.Add
// CHECK: %[[Q:.*]] = onnx.QuantizeLinear(%[[A]],
// CHECK: %[[D:.*]] = onnx.DequantizeLinear(%[[Q]],
// CHECK: %[[P:.*]] = onnx.GlobalAveragePool(%[[D]])
// CHECK: onnx.QuantizeLinear(%[[P]],
// CHECK-NOT: onnx.QLinear
func.func @add_pool(%a: tensor<1x2x2x2xui8>, %b: tensor<1x2x2x2xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<1x2x1x1xui8> {
  %c = onnx.QLinearAdd(%a, %s, %b, %s, %s) A_zero_point(%z) B_zero_point(%z) C_zero_point(%z) : (tensor<1x2x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<1x2x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  %p = onnx.QLinearGlobalAveragePool(%c, %s, %z, %s, %z) : (tensor<1x2x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
  return %p : tensor<1x2x1x1xui8>
}

// -----

// With runtime-parameters-only, ops the integer lowering can take (constant
// weights, scales and zero points) stay; those with run-time weights are
// rewritten.
// RUN: onnx-quant-opt %s --onnx-qoperator-to-qdq=runtime-parameters-only=true --split-input-file | FileCheck %s --check-prefix=RUNTIME
// RUNTIME-LABEL: func @conv
// RUNTIME: onnx.QLinearConv
// RUNTIME-LABEL: func @matmul
// RUNTIME-NOT: onnx.QLinearMatMul
// RUNTIME: onnx.MatMul
// QLinearConcat has no integer lowering: rewritten in both modes.
// RUNTIME-LABEL: func @concat
// RUNTIME-NOT: onnx.QLinearConcat
// RUNTIME: onnx.Concat

// -----

// QLinearConcat: each input dequantized with its own scale, concatenated in
// float, quantized with the output's.
// CHECK-LABEL: func @concat
// CHECK: %[[A:.*]] = onnx.DequantizeLinear(%arg0, %[[AS:.*]], %[[Z:.*]]) : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2xf32>
// CHECK: %[[B:.*]] = onnx.DequantizeLinear(%arg1, %[[BS:.*]], %[[Z]]) : (tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3xf32>
// CHECK: %[[C:.*]] = onnx.Concat(%[[A]], %[[B]]) {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear(%[[C]], %{{.*}}, %[[Z]]) : (tensor<1x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5xui8>
// CHECK: return %[[Y]]
func.func @concat(%a: tensor<1x2xui8>, %b: tensor<1x3xui8>) -> tensor<1x5xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %bs = onnx.Constant dense<0.25> : tensor<f32>
  %ys = onnx.Constant dense<0.125> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %y = onnx.QLinearConcat(%ys, %z, %a, %as, %z, %b, %bs, %z) {axis = 1 : i64} : (tensor<f32>, tensor<ui8>, tensor<1x2xui8>, tensor<f32>, tensor<ui8>, tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x5xui8>
  return %y : tensor<1x5xui8>
}
