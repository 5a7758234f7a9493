// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4" 2>&1 | FileCheck %s
// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4 block-size=16 quiet" | FileCheck %s --check-prefix=BLOCK
// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=u4 quiet" | FileCheck %s --check-prefix=U4
// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s8 exclude=conv quiet" | FileCheck %s --check-prefix=S8

// mode=weight-only: no calibration; the weights of MatMul, Gemm and Conv
// become integer constants behind a DequantizeLinear, the arithmetic and the
// biases stay float, no activation is quantized.

// CHECK: onnx-quantize: mode=weight-only: the weights of 3 ops quantized to s4 per channel (activations stay float)
// CHECK: module attributes {onnx.quantization = {activations = "u8", mode = "weight-only", per_channel = true, weights = "s4"}}
// CHECK-NOT: onnx.QuantizeLinear
// MatMul B (32x2), per column, as ONNX Runtime's weight-only quantizer
// (MatMulNBits, MLAS): the weight of largest magnitude lands on -8 exactly
// (column 0: -15, scale 15 / 8; column 1: +0.4, scale -0.4 / 8, negative),
// zero point 0, the other end saturating at 7, rounding half away from zero.
// CHECK: %[[MW:.*]] = onnx.Constant dense<{{\[\[}}-4, 6], [-3, 4], [-3, 2], [-2, 0]
// CHECK-SAME: tensor<32x2xi4>
// CHECK: %[[MS:.*]] = onnx.Constant dense<[1.875000e+00, -5.000000e-02]> : tensor<2xf32>
// CHECK: %[[MZ:.*]] = onnx.Constant dense<0> : tensor<2xi4>
// CHECK: %[[MDQ:.*]] = onnx.DequantizeLinear(%[[MW]], %[[MS]], %[[MZ]]) : (tensor<32x2xi4>, tensor<2xf32>, tensor<2xi4>) -> tensor<32x2xf32>
// CHECK: onnx.MatMul(%arg0, %[[MDQ]])
// Conv: per filter; its bias stays float.
// CHECK: onnx.DequantizeLinear({{.*}}) {axis = 0 : i64} : (tensor<2x16x1x1xi4>, tensor<2xf32>, tensor<2xi4>) -> tensor<2x16x1x1xf32>
// CHECK: onnx.Conv(%arg1, %{{.*}}, %{{.*}}) {{.*}} : (tensor<1x16x2x2xf32>, tensor<2x16x1x1xf32>, tensor<2xf32>)
// Gemm with transB: per row of B.
// CHECK: onnx.DequantizeLinear({{.*}}) {axis = 0 : i64} : (tensor<2x32xi4>, tensor<2xf32>, tensor<2xi4>) -> tensor<2x32xf32>
// CHECK: onnx.Gemm(%arg0, %{{.*}}, %{{.*}}) {{.*}}transB = 1

// block-size=16: a scale per 16 weights along the reduction axis (MatMul's
// rows, Conv's input channels, Gemm's columns with transB), the scales
// shaped as the weights with that axis divided by 16 (opset 21's blocked
// DequantizeLinear). Column 0's blocks have extremes -7.5 and -15.
// BLOCK: module attributes {onnx.quantization = {activations = "u8", block_size = 16 : i64, mode = "weight-only", per_channel = true, weights = "s4"}}
// BLOCK: %[[MS:.*]] = onnx.Constant dense<{{\[\[}}9.375000e-01, -5.000000e-02], [1.875000e+00, -5.000000e-02]]> : tensor<2x2xf32>
// BLOCK: %[[MZ:.*]] = onnx.Constant dense<0> : tensor<2x2xi4>
// BLOCK: onnx.DequantizeLinear(%{{.*}}, %[[MS]], %[[MZ]]) {axis = 0 : i64, block_size = 16 : i64} : (tensor<32x2xi4>, tensor<2x2xf32>, tensor<2x2xi4>) -> tensor<32x2xf32>
// BLOCK: onnx.DequantizeLinear({{.*}}) {block_size = 16 : i64} : (tensor<2x16x1x1xi4>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xi4>) -> tensor<2x16x1x1xf32>
// BLOCK: onnx.DequantizeLinear({{.*}}) {block_size = 16 : i64} : (tensor<2x32xi4>, tensor<2x2xf32>, tensor<2x2xi4>) -> tensor<2x32xf32>

// uint4 weight-only has zero points, as ORT's weight-only quantizer without
// is_symmetric: each group's range (widened to 0) over [0, 15]. Column 0:
// [-15, 15], scale 2, zero point roundf(7.5) = 8; column 1: [-0.3, 0.4],
// scale 0.7 / 15, zero point roundf(6.43) = 6.
// U4: %[[MW:.*]] = onnx.Constant dense<{{\[\[}}4, 0], [5, 2], [5, 4], [6, 6]
// U4-SAME: tensor<32x2xui4>
// U4: onnx.Constant dense<[2.000000e+00, 0.0466666706]> : tensor<2xf32>
// U4: onnx.Constant dense<[8, 6]> : tensor<2xui4>

// 8-bit weights work weight-only too; exclude= keeps a layer's float weights.
// S8: onnx.DequantizeLinear({{.*}}) : (tensor<32x2xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<32x2xf32>
// S8: onnx.Conv(%arg1, %{{.*}}, %{{.*}}) {{.*}} : (tensor<1x16x2x2xf32>, tensor<2x16x1x1xf32>, tensor<2xf32>)
// S8-NOT: tensor<2x16x1x1xi8>

func.func @main_graph(%x: tensor<1x32xf32>, %img: tensor<1x16x2x2xf32>) -> (tensor<1x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2xf32>) {
  %b = onnx.Constant dense<[[-7.5, -0.30000001192092896],
 [-6.5, -0.20000000298023224],
 [-5.5, -0.10000000149011612],
 [-4.5, 0.0],
 [-3.5, 0.10000000149011612],
 [-2.5, 0.20000000298023224],
 [-1.5, 0.30000001192092896],
 [-0.5, 0.4000000059604645],
 [0.5, -0.30000001192092896],
 [1.5, -0.20000000298023224],
 [2.5, -0.10000000149011612],
 [3.5, 0.0],
 [4.5, 0.10000000149011612],
 [5.5, 0.20000000298023224],
 [6.5, 0.30000001192092896],
 [7.5, 0.4000000059604645],
 [-15.0, -0.30000001192092896],
 [-13.0, -0.20000000298023224],
 [-11.0, -0.10000000149011612],
 [-9.0, 0.0],
 [-7.0, 0.10000000149011612],
 [-5.0, 0.20000000298023224],
 [-3.0, 0.30000001192092896],
 [-1.0, 0.4000000059604645],
 [1.0, -0.30000001192092896],
 [3.0, -0.20000000298023224],
 [5.0, -0.10000000149011612],
 [7.0, 0.0],
 [9.0, 0.10000000149011612],
 [11.0, 0.20000000298023224],
 [13.0, 0.30000001192092896],
 [15.0, 0.4000000059604645]]> : tensor<32x2xf32>
  %m = onnx.MatMul(%x, %b) : (tensor<1x32xf32>, tensor<32x2xf32>) -> tensor<1x2xf32> loc("matmul")
  %w = onnx.Constant dense<[[[[1.5]],

  [[-3.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]],

  [[0.0]]],


 [[[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]],

  [[0.5]]]]> : tensor<2x16x1x1xf32>
  %cb = onnx.Constant dense<[0.25, -0.5]> : tensor<2xf32>
  %c = onnx.Conv(%img, %w, %cb) {kernel_shape = [1, 1]} : (tensor<1x16x2x2xf32>, tensor<2x16x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32> loc("conv")
  %g = onnx.Constant dense<[[-0.4000000059604645, -0.20000000298023224, 0.0, 0.20000000298023224, 0.4000000059604645, -0.4000000059604645, -0.20000000298023224, 0.0, 0.20000000298023224, 0.4000000059604645, -0.4000000059604645, -0.20000000298023224, 0.0, 0.20000000298023224, 0.4000000059604645, -0.4000000059604645, -0.20000000298023224, 0.0, 0.20000000298023224, 0.4000000059604645, -0.4000000059604645, -0.20000000298023224, 0.0, 0.20000000298023224, 0.4000000059604645, -0.4000000059604645, -0.20000000298023224, 0.0, 0.20000000298023224, 0.4000000059604645, -0.4000000059604645, -0.20000000298023224],
 [7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<2x32xf32>
  %gb = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = onnx.Gemm(%x, %g, %gb) {transB = 1 : i64} : (tensor<1x32xf32>, tensor<2x32xf32>, tensor<2xf32>) -> tensor<1x2xf32> loc("gemm")
  return %m, %c, %y : tensor<1x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2xf32>
}
