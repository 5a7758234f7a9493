// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="requant=integer" --canonicalize --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s --check-prefix=FLOAT
// The quantized ops lower to integer linalg: 8-bit operands widened into an
// int32 accumulation, then the requantization: integer-only with
// requant=integer (the CHECK lines), float32 as ONNX Runtime's kernels by
// default (FLOAT).

// QLinearConv: the accumulator starts at bias - x_zp * sum(w) per filter
// (100 - 10*3 = 70, -7 - 10*1 = -17), the input is padded with its zero
// point, the taps multiply zero-extended u8 by sign-extended i8, and the
// per-filter multipliers s_x * s_w / s_y = 0.125 = 1 * 2^-3 and
// 0.1875 = 3 * 2^-4 are exact (mantissa, shift) pairs. The start and the
// requantization run over the contraction's own (N, G, F/G, ...) shape, so
// the kernel stage can fuse them into its registers.
// CHECK-LABEL: func @qlinear_conv
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant dense<{{\[\[}}3, 4]]> : tensor<1x2xi64>
// CHECK-DAG: %[[MANT:.*]] = arith.constant dense<{{\[\[}}1, 3]]> : tensor<1x2xi64>
// CHECK-DAG: %[[INIT:.*]] = arith.constant dense<{{\[\[}}70, -17]]> : tensor<1x2xi32>
// CHECK-DAG: %[[PADV:.*]] = arith.constant 10 : i8
// CHECK: tensor.pad %arg0
// CHECK: tensor.yield %[[PADV]] : i8
// CHECK: linalg.generic {{.*}} ins(%[[INIT]] : tensor<1x2xi32>) outs(%{{.*}} : tensor<1x1x2x5x5xi32>)
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: i8, %[[W:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK-NEXT: %[[XE:.*]] = arith.extui %[[X]] : i8 to i32
// CHECK-NEXT: %[[WE:.*]] = arith.extsi %[[W]] : i8 to i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XE]], %[[WE]] : i32
// CHECK-NEXT: arith.addi %[[ACC]], %[[P]] : i32
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[MANT]], %[[SHIFT]] : tensor<1x1x2x5x5xi32>, tensor<1x2xi64>, tensor<1x2xi64>)
// CHECK: math.ctlz
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
// CHECK-NOT: arith.mulf
// CHECK: return
// The default: per-filter float32 multipliers 0.125 and 0.1875, the result
// range [0, 255] less the zero point 5 as clamp bounds, rounding half to
// even, then the zero point.
// FLOAT-LABEL: func @qlinear_conv
// FLOAT-DAG: %[[M:.*]] = arith.constant dense<{{\[\[}}1.250000e-01, 1.875000e-01]]> : tensor<1x2xf32>
// FLOAT-DAG: %[[LO:.*]] = arith.constant -5.000000e+00 : f32
// FLOAT-DAG: %[[HI:.*]] = arith.constant 2.500000e+02 : f32
// FLOAT-DAG: %[[ZP:.*]] = arith.constant 5 : i32
// FLOAT: linalg.generic {{.*}} ins(%{{.*}}, %[[M]] : tensor<1x1x2x5x5xi32>, tensor<1x2xf32>)
// FLOAT-NEXT: ^bb0(%[[T:.*]]: i32, %[[S:.*]]: f32, %{{.*}}: i8):
// FLOAT-NEXT: %[[F:.*]] = arith.sitofp %[[T]] : i32 to f32
// FLOAT-NEXT: %[[P:.*]] = arith.mulf %[[F]], %[[S]] : f32
// FLOAT-NEXT: %[[A:.*]] = arith.maxnumf %[[P]], %[[LO]] fastmath<nnan,nsz> : f32
// FLOAT-NEXT: %[[B:.*]] = arith.minnumf %[[A]], %[[HI]] fastmath<nnan,nsz> : f32
// FLOAT-NEXT: %[[R:.*]] = math.roundeven %[[B]] : f32
// FLOAT-NEXT: %[[I:.*]] = arith.fptosi %[[R]] : f32 to i32
// FLOAT-NEXT: %[[Q:.*]] = arith.addi %[[I]], %[[ZP]] : i32
// FLOAT-NEXT: arith.trunci %[[Q]] : i32 to i8
// FLOAT-NOT: math.ctlz
// FLOAT: return
func.func @qlinear_conv(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x5x5xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<[[[[1]], [[2]]], [[[-3]], [[4]]]]> : tensor<2x2x1x1xi8>
  %ws = onnx.Constant dense<[0.25, 0.375]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %b = onnx.Constant dense<[100, -7]> : tensor<2xi32>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {pads = [1, 1, 1, 1], kernel_shape = [1, 1]} : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x2x1x1xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x5x5xui8>
  return %y : tensor<1x2x5x5xui8>
}

// -----

// QGemm with transB: the weights are transposed at compile time to (K, N);
// one multiplier for all columns is a scalar constant (0.5 * 0.25 / 0.5 =
// 0.25 = 1 * 2^-2; the multiplication by 1 folds away).
// CHECK-LABEL: func @qgemm
// CHECK-DAG: arith.constant dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi8>
// CHECK-DAG: arith.constant dense<[7, 8]> : tensor<2xi32>
// CHECK: linalg.generic
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: linalg.generic
// CHECK: arith.shrui %{{.*}}, %c2_i64 : i64
func.func @qgemm(%a: tensor<1x2xi8>) -> tensor<1x2xi8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<0> : tensor<i8>
  %b = onnx.Constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %bs = onnx.Constant dense<0.25> : tensor<f32>
  %bz = onnx.Constant dense<0> : tensor<i8>
  %c = onnx.Constant dense<[7, 8]> : tensor<2xi32>
  %ys = onnx.Constant dense<0.5> : tensor<f32>
  %yz = onnx.Constant dense<0> : tensor<i8>
  %y = onnx.QGemm(%a, %as, %az, %b, %bs, %bz) C(%c) y_scale(%ys) y_zero_point(%yz) {transB = 1 : i64} : (tensor<1x2xi8>, tensor<f32>, tensor<i8>, tensor<2x2xi8>, tensor<f32>, tensor<i8>, tensor<2xi32>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

// A QuantizeLinear of a DequantizeLinear is a requantization on integers:
// (x - 3) * fl(0.5 / 0.25) = 2 * 2^0, plus the new zero point 7.
// CHECK-LABEL: func @requantize
// CHECK-NOT: arith.divf
// CHECK-NOT: arith.mulf
// CHECK: arith.subi %{{.*}}, %c3_i32 : i32
// CHECK: arith.muli %{{.*}}, %c2_i64 : i64
// CHECK: arith.addi %{{.*}}, %c7_i64 : i64
func.func @requantize(%x: tensor<4xui8>) -> tensor<4xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<3> : tensor<ui8>
  %s2 = onnx.Constant dense<0.25> : tensor<f32>
  %z2 = onnx.Constant dense<7> : tensor<ui8>
  %d = onnx.DequantizeLinear(%x, %s, %z) : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  %q = onnx.QuantizeLinear(%d, %s2, %z2) : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %q : tensor<4xui8>
}

// -----

// QLinearAdd: the x86 kernel's two fused multiply-adds in float32, on int64
// values counting units of 2^-F; sa/sc = 0.5, sb/sc = 0.25 and the fixed
// part 4 - (0.5*2 + 0.25*4) = 2 need F = 2: units 2, 1 (folds away) and 8.
// With requant=float (the default) the two fused multiply-adds are float32
// instructions: fma(a, 0.5, fma(b, 0.25, 2)), rounded and saturated.
// CHECK-LABEL: func @qlinear_add
// CHECK-NOT: arith.mulf
// FLOAT-LABEL: func @qlinear_add
// FLOAT-NOT: math.ctlz
// FLOAT-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// FLOAT-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// FLOAT-DAG: %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// FLOAT: %[[T:.*]] = math.fma %{{.*}}, %[[QUARTER]], %[[TWO]] : f32
// FLOAT: %[[R:.*]] = math.fma %{{.*}}, %[[HALF]], %[[T]] : f32
// FLOAT: math.roundeven
// FLOAT-NOT: math.ctlz
// CHECK: arith.addi %{{.*}}, %c8_i64 : i64
// CHECK: math.ctlz
// CHECK: arith.muli %{{.*}}, %c2_i64 : i64
func.func @qlinear_add(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<2> : tensor<ui8>
  %bs = onnx.Constant dense<0.25> : tensor<f32>
  %bz = onnx.Constant dense<4> : tensor<ui8>
  %cs = onnx.Constant dense<1.0> : tensor<f32>
  %cz = onnx.Constant dense<4> : tensor<ui8>
  %c = onnx.QLinearAdd(%a, %as, %b, %bs, %cs) A_zero_point(%az) B_zero_point(%bz) C_zero_point(%cz) : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %c : tensor<4xui8>
}

// -----

// Zero points keep their ONNX signedness when the lowering reads them: the
// accumulator starts at bias - x_zp * sum(w) = 100 - 200 * 3 for a ui8 zero
// point 200, and 100 - (-56) * 3 for an i8 -56 (the same byte).
// CHECK-LABEL: func @qlinear_conv_zero_point_u8
// CHECK: arith.constant dense<-500> : tensor<1x1xi32>
func.func @qlinear_conv_zero_point_u8(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<200> : tensor<ui8>
  %w = onnx.Constant dense<3> : tensor<1x1x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %b = onnx.Constant dense<100> : tensor<1xi32>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {kernel_shape = [1, 1]} : (tensor<1x1x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<1xi32>) -> tensor<1x1x2x2xui8>
  return %y : tensor<1x1x2x2xui8>
}

// CHECK-LABEL: func @qlinear_conv_zero_point_i8
// CHECK: arith.constant dense<268> : tensor<1x1xi32>
func.func @qlinear_conv_zero_point_i8(%x: tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<-56> : tensor<i8>
  %w = onnx.Constant dense<3> : tensor<1x1x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<i8>
  %b = onnx.Constant dense<100> : tensor<1xi32>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {kernel_shape = [1, 1]} : (tensor<1x1x2x2xi8>, tensor<f32>, tensor<i8>, tensor<1x1x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<1xi32>) -> tensor<1x1x2x2xi8>
  return %y : tensor<1x1x2x2xi8>
}
