// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=ewq" 2>&1 | FileCheck %s
// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=fastewq bits=8 per-channel=false quiet" | FileCheck %s --check-prefix=FAST8

// weights=ewq: each output channel's weights sorted and cut into 2^bits runs
// of equal length, each run's level its mean; a weight stored as its run's
// index (4 bits), the op reading Gather(levels, Cast(indices) + channel *
// 16). Column 0 (-16 .. 15): runs of two, levels -15.5, -13.5, ..., 14.5;
// column 1 (0, 0.5, .., 3.5 four times): runs of two equal values.
// CHECK: onnx-quantize: mode=weight-only: the weights of 1 ops as 4-bit EWQ codebooks per channel (activations stay float)
// CHECK-NEXT: weight SQNR (dB) {{ *}}uniform s4 {{ *}}EWQ {{ *}}FastEWQ
// CHECK-NEXT: matmul
// CHECK-NEXT: codebooks computed in {{.*}} ms (EWQ) and {{.*}} ms (FastEWQ)
// CHECK: module attributes {onnx.quantization = {activations = "u8", bits = 4 : i64, mode = "weight-only", per_channel = true, weights = "ewq"}}
// CHECK: %[[IDX:.*]] = onnx.Constant dense<{{\[\[}}0, 0], [0, 2], [1, 4], [1, 6], [2, 8], [2, 10], [3, 12], [3, 14], [4, 0]
// CHECK-SAME: tensor<32x2xui4>
// CHECK: %[[LEVELS:.*]] = onnx.Constant dense<[-1.550000e+01, -1.350000e+01, {{.*}}, 1.450000e+01, 0.000000e+00, 0.000000e+00, 5.000000e-01, 5.000000e-01, {{.*}}, 3.500000e+00, 3.500000e+00]> : tensor<32xf32>
// CHECK: %[[CAST:.*]] = onnx.Cast(%[[IDX]]) {to = 6 : i64} : (tensor<32x2xui4>) -> tensor<32x2xi32>
// CHECK: %[[OFFSETS:.*]] = onnx.Constant dense<{{\[\[}}0, 16]]> : tensor<1x2xi32>
// CHECK: %[[ADD:.*]] = onnx.Add(%[[CAST]], %[[OFFSETS]])
// CHECK: %[[W:.*]] = onnx.Gather(%[[LEVELS]], %[[ADD]]) : (tensor<32xf32>, tensor<32x2xi32>) -> tensor<32x2xf32>
// CHECK: onnx.MatMul(%arg0, %[[W]])

// 8 bits, one table for the tensor: 256 levels for 64 weights (each run of
// 64 * r / 256 weights: a level per weight, the rest empty, taking the level
// below), uint8 indices, no channel offset.
// FAST8: module attributes {onnx.quantization = {activations = "u8", bits = 8 : i64, mode = "weight-only", per_channel = false, weights = "fastewq"}}
// FAST8: onnx.Constant {{.*}} : tensor<32x2xui8>
// FAST8: onnx.Constant {{.*}} : tensor<256xf32>
// FAST8: %[[CAST:.*]] = onnx.Cast(%{{.*}}) {to = 6 : i64} : (tensor<32x2xui8>) -> tensor<32x2xi32>
// FAST8: onnx.Gather(%{{.*}}, %[[CAST]]) : (tensor<256xf32>, tensor<32x2xi32>) -> tensor<32x2xf32>

func.func @main_graph(%x: tensor<1x32xf32>) -> tensor<1x2xf32> {
  %b = onnx.Constant dense<[[-16.0, 0.0],
 [-15.0, 0.5],
 [-14.0, 1.0],
 [-13.0, 1.5],
 [-12.0, 2.0],
 [-11.0, 2.5],
 [-10.0, 3.0],
 [-9.0, 3.5],
 [-8.0, 0.0],
 [-7.0, 0.5],
 [-6.0, 1.0],
 [-5.0, 1.5],
 [-4.0, 2.0],
 [-3.0, 2.5],
 [-2.0, 3.0],
 [-1.0, 3.5],
 [0.0, 0.0],
 [1.0, 0.5],
 [2.0, 1.0],
 [3.0, 1.5],
 [4.0, 2.0],
 [5.0, 2.5],
 [6.0, 3.0],
 [7.0, 3.5],
 [8.0, 0.0],
 [9.0, 0.5],
 [10.0, 1.0],
 [11.0, 1.5],
 [12.0, 2.0],
 [13.0, 2.5],
 [14.0, 3.0],
 [15.0, 3.5]]> : tensor<32x2xf32>
  %m = onnx.MatMul(%x, %b) : (tensor<1x32xf32>, tensor<32x2xf32>) -> tensor<1x2xf32> loc("matmul")
  return %m : tensor<1x2xf32>
}
