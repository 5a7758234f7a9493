// RUN: onnx-quant-opt %s --onnx-lookup-tables --split-input-file | FileCheck %s
// Float islands between one 8-bit tensor and a QuantizeLinear become a
// Gather from a 256-entry table computed by the same island.

// SiLU as the quantizer leaves it: the island (with the Sigmoid's own
// QuantizeLinear inside it) is applied to the 256 bytes, reshaped to a
// 256-entry table and read at the input bytes.
// CHECK-LABEL: func @silu
// CHECK-NOT: tensor<1x2x3x3xf32>
// CHECK: %[[BYTES:.*]] = onnx.Constant dense<"0x000102{{[0-9A-F]*}}FDFEFF"> : tensor<1x1x1x256xui8>
// CHECK: %[[D:.*]] = onnx.DequantizeLinear(%[[BYTES]], {{.*}}) : (tensor<1x1x1x256xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x1x1x256xf32>
// CHECK: %[[SIG:.*]] = onnx.Sigmoid(%[[D]]) : (tensor<1x1x1x256xf32>) -> tensor<1x1x1x256xf32>
// CHECK: %[[QSIG:.*]] = onnx.QuantizeLinear(%[[SIG]], {{.*}}) : {{.*}} -> tensor<1x1x1x256xui8>
// CHECK: %[[DSIG:.*]] = onnx.DequantizeLinear(%[[QSIG]], {{.*}}) : {{.*}} -> tensor<1x1x1x256xf32>
// CHECK: %[[MUL:.*]] = onnx.Mul(%[[D]], %[[DSIG]]) : {{.*}} -> tensor<1x1x1x256xf32>
// CHECK: %[[T:.*]] = onnx.QuantizeLinear(%[[MUL]], {{.*}}) : {{.*}} -> tensor<1x1x1x256xui8>
// CHECK: %[[SHAPE:.*]] = onnx.Constant dense<256> : tensor<1xi64>
// CHECK: %[[TABLE:.*]] = onnx.Reshape(%[[T]], %[[SHAPE]]) : (tensor<1x1x1x256xui8>, tensor<1xi64>) -> tensor<256xui8>
// CHECK: %[[I:.*]] = onnx.Cast(%arg0) {to = 6 : i64} : (tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xi32>
// CHECK: %[[Y:.*]] = onnx.Gather(%[[TABLE]], %[[I]]) : (tensor<256xui8>, tensor<1x2x3x3xi32>) -> tensor<1x2x3x3xui8>
// CHECK: return %[[Y]]
func.func @silu(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xui8> {
  %xs = onnx.Constant dense<0.05> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %ss = onnx.Constant dense<0.0039> : tensor<f32>
  %sz = onnx.Constant dense<0> : tensor<ui8>
  %ys = onnx.Constant dense<0.04> : tensor<f32>
  %dx = onnx.DequantizeLinear(%x, %xs, %xz) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %s = onnx.Sigmoid(%dx) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %qs = onnx.QuantizeLinear(%s, %ss, %sz) : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  %ds = onnx.DequantizeLinear(%qs, %ss, %sz) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %m = onnx.Mul(%dx, %ds) : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y = onnx.QuantizeLinear(%m, %ys, %xz) : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  return %y : tensor<1x2x3x3xui8>
}

// -----

// A signed source: the same bytes, 0..127 then -128..-1, the order Gather
// reads them in with negative indices counted from the end. A scalar constant operand (of any rank)
// stays in the island. A 1-D source needs no reshape.
// CHECK-LABEL: func @signed
// CHECK: %[[BYTES:.*]] = onnx.Constant dense<"0x0001{{[0-9A-F]*}}7E7F8081{{[0-9A-F]*}}FEFF"> : tensor<256xi8>
// CHECK: onnx.LeakyRelu
// CHECK: onnx.Add({{.*}}) : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
// CHECK: %[[T:.*]] = onnx.QuantizeLinear({{.*}}) : {{.*}} -> tensor<256xi8>
// CHECK-NOT: onnx.Reshape
// CHECK: %[[I:.*]] = onnx.Cast(%arg0) {to = 6 : i64} : (tensor<10xi8>) -> tensor<10xi32>
// CHECK: onnx.Gather(%[[T]], %[[I]]) : (tensor<256xi8>, tensor<10xi32>) -> tensor<10xi8>
func.func @signed(%x: tensor<10xi8>) -> tensor<10xi8> {
  %s = onnx.Constant dense<0.1> : tensor<f32>
  %z = onnx.Constant dense<3> : tensor<i8>
  %c = onnx.Constant dense<0.5> : tensor<1xf32>
  %dx = onnx.DequantizeLinear(%x, %s, %z) : (tensor<10xi8>, tensor<f32>, tensor<i8>) -> tensor<10xf32>
  %l = onnx.LeakyRelu(%dx) {alpha = 0.1 : f32} : (tensor<10xf32>) -> tensor<10xf32>
  %a = onnx.Add(%l, %c) : (tensor<10xf32>, tensor<1xf32>) -> tensor<10xf32>
  %y = onnx.QuantizeLinear(%a, %s, %z) : (tensor<10xf32>, tensor<f32>, tensor<i8>) -> tensor<10xi8>
  return %y : tensor<10xi8>
}

// -----

// Not functions of one byte, left as they are: a per-channel constant
// operand (the value depends on the position), two quantized inputs, a bare
// requantization (cheaper computed than looked up), a per-axis output
// quantization, and an int32 source.
// CHECK-LABEL: func @not_tables
// CHECK-NOT: onnx.Gather
// CHECK-COUNT-5: onnx.QuantizeLinear
// CHECK-NOT: onnx.Gather
func.func @not_tables(%x: tensor<1x2x3x3xui8>, %w: tensor<1x2x3x3xui8>, %x32: tensor<1x2x3x3xi32>)
    -> (tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>) {
  %s = onnx.Constant dense<0.05> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %s2 = onnx.Constant dense<0.07> : tensor<f32>
  %pc = onnx.Constant dense<[[[0.5]], [[2.0]]]> : tensor<2x1x1xf32>
  %sa = onnx.Constant dense<[0.05, 0.06]> : tensor<2xf32>
  %za = onnx.Constant dense<[128, 128]> : tensor<2xui8>
  %dx = onnx.DequantizeLinear(%x, %s, %z) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %dw = onnx.DequantizeLinear(%w, %s, %z) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %m1 = onnx.Mul(%dx, %pc) : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y1 = onnx.QuantizeLinear(%m1, %s, %z) : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  %m2 = onnx.Mul(%dx, %dw) : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y2 = onnx.QuantizeLinear(%m2, %s, %z) : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  %y3 = onnx.QuantizeLinear(%dx, %s2, %z) : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  %t = onnx.Tanh(%dx) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y4 = onnx.QuantizeLinear(%t, %sa, %za) {axis = 1 : i64} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xui8>) -> tensor<1x2x3x3xui8>
  %d16 = onnx.DequantizeLinear(%x32, %s) : (tensor<1x2x3x3xi32>, tensor<f32>) -> tensor<1x2x3x3xf32>
  %t16 = onnx.Tanh(%d16) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y5 = onnx.QuantizeLinear(%t16, %s, %z) : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  return %y1, %y2, %y3, %y4, %y5 : tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>, tensor<1x2x3x3xui8>
}

// -----

// An island whose inner value is also used elsewhere: the table is made,
// the Sigmoid stays for its other user.
// CHECK-LABEL: func @shared
// CHECK: onnx.Sigmoid({{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: onnx.Sigmoid({{.*}}) : (tensor<256xf32>) -> tensor<256xf32>
// CHECK: onnx.Gather
func.func @shared(%x: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xf32>) {
  %s = onnx.Constant dense<0.05> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %dx = onnx.DequantizeLinear(%x, %s, %z) : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  %t = onnx.Sigmoid(%dx) : (tensor<4xf32>) -> tensor<4xf32>
  %y = onnx.QuantizeLinear(%t, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %y, %t : tensor<4xui8>, tensor<4xf32>
}
