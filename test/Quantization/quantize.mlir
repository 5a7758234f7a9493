// RUN: onnx-quant-opt %s --onnx-quantize --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --onnx-quantize="activations=s8 per-channel=false" --split-input-file | FileCheck %s --check-prefix=S8
// RUN: onnx-quant-opt %s --onnx-quantize="activations=u16" --split-input-file | FileCheck %s --check-prefix=U16
// RUN: onnx-quant-opt %s --onnx-quantize="activations=s16" --split-input-file | FileCheck %s --check-prefix=S16
// RUN: onnx-quant-opt %s --onnx-quantize --onnx-fuse-qdq --split-input-file | FileCheck %s --check-prefix=FUSED

// x in [0, 2.55] -> u8 scale 0.01, zero point 0. Gemm weights (K, N) per
// column (axis 1): column 0 max|w| = 1 -> scale 1/127, column 1 max|w| = 2 ->
// 2/127; w_q = [[127, -32], [32, 127]] (0.25 * 127 = 31.75 rounds to 32).
// Bias [0.1, -0.2] in int32 with scale 0.01 * s_w: [1270, -1270]. Output
// [-1, 3] -> scale 4/255, zero point round(255/4) = 64.
// CHECK-LABEL: func @gemm
// CHECK: %[[XS:.*]] = onnx.Constant dense<0.00999999977> : tensor<f32>
// CHECK: %[[XZ:.*]] = onnx.Constant dense<0> : tensor<ui8>
// CHECK: %[[Q:.*]] = onnx.QuantizeLinear(%arg0, %[[XS]], %[[XZ]]) : (tensor<1x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
// CHECK: %[[DQ:.*]] = onnx.DequantizeLinear(%[[Q]], %[[XS]], %[[XZ]])
// CHECK: %[[WQ:.*]] = onnx.Constant dense<{{\[\[}}127, -32], [32, 127]]> : tensor<2x2xi8>
// CHECK: %[[WS:.*]] = onnx.Constant dense<[0.00787401571, 0.0157480314]> : tensor<2xf32>
// CHECK: %[[WZ:.*]] = onnx.Constant dense<0> : tensor<2xi8>
// CHECK: %[[W:.*]] = onnx.DequantizeLinear(%[[WQ]], %[[WS]], %[[WZ]]) : (tensor<2x2xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x2xf32>
// CHECK: %[[BQ:.*]] = onnx.Constant dense<[1270, -1270]> : tensor<2xi32>
// CHECK: %[[BS:.*]] = onnx.Constant dense<[7.87401586E-5, 1.57480317E-4]> : tensor<2xf32>
// CHECK: %[[B:.*]] = onnx.DequantizeLinear(%[[BQ]], %[[BS]]) {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[G:.*]] = onnx.Gemm(%[[DQ]], %[[W]], %[[B]])
// CHECK: %[[YS:.*]] = onnx.Constant dense<0.0156862754> : tensor<f32>
// CHECK: %[[YZ:.*]] = onnx.Constant dense<64> : tensor<ui8>
// CHECK: %[[YQ:.*]] = onnx.QuantizeLinear(%[[G]], %[[YS]], %[[YZ]])
// CHECK: %[[Y:.*]] = onnx.DequantizeLinear(%[[YQ]], %[[YS]], %[[YZ]])
// CHECK: return %[[Y]]

// Per tensor: one weight scale 2/127; s8 activations: x zero point -128.
// S8-LABEL: func @gemm
// S8-DAG: onnx.Constant dense<-128> : tensor<i8>
// S8-DAG: onnx.Constant dense<{{\[\[}}64, -32], [16, 127]]> : tensor<2x2xi8>
// S8-DAG: onnx.Constant dense<0.0157480314> : tensor<f32>
// 16-bit activations (ONNX Runtime's QUInt16/QInt16): x in [0, 2.55] ->
// scale 2.55 / 65535, zero point 0 (u16) or -32768 (s16); the output [-1, 3]
// -> scale 4 / 65535, zero point round(1 / scale) = round(16383.75) = 16384
// (u16) or -32768 + 16384 (s16). Weights stay s8, the bias int32.
// U16-LABEL: func @gemm
// U16: %[[XS:.*]] = onnx.Constant dense<3.89105044E-5> : tensor<f32>
// U16: %[[XZ:.*]] = onnx.Constant dense<0> : tensor<ui16>
// U16: onnx.QuantizeLinear(%arg0, %[[XS]], %[[XZ]]) : (tensor<1x2xf32>, tensor<f32>, tensor<ui16>) -> tensor<1x2xui16>
// U16: onnx.Constant dense<{{\[\[}}127, -32], [32, 127]]> : tensor<2x2xi8>
// U16: onnx.Constant dense<6.10360876E-5> : tensor<f32>
// U16: onnx.Constant dense<16384> : tensor<ui16>
// S16-LABEL: func @gemm
// S16: onnx.Constant dense<-32768> : tensor<i16>
// S16: onnx.QuantizeLinear({{.*}}) -> tensor<1x2xi16>
// S16: onnx.Constant dense<-16384> : tensor<i16>
func.func @gemm(%x: tensor<1x2xf32> {onnx.name = "x", onnx.range = array<f32: 0.0, 2.55>}) -> tensor<1x2xf32> {
  %w = onnx.Constant dense<[[1.0, -0.5], [0.25, 2.0]]> : tensor<2x2xf32>
  %b = onnx.Constant dense<[0.1, -0.2]> : tensor<2xf32>
  %y = onnx.Gemm(%x, %w, %b) {onnx.ranges = [array<f32: -1.0, 3.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// Conv -> Relu: the Relu disappears; the Conv output is quantized with the
// Relu's range [0, 2.55] (zero point 0: saturation is the Relu). MaxPool
// and Flatten reuse that scale.
// CHECK-LABEL: func @conv_relu
// CHECK-NOT: onnx.Relu
// CHECK: %[[C:.*]] = onnx.Conv
// CHECK: %[[Q:.*]] = onnx.QuantizeLinear(%[[C]], %[[S:.*]], %[[Z:.*]]) :
// CHECK: %[[DQ:.*]] = onnx.DequantizeLinear(%[[Q]], %[[S]], %[[Z]])
// CHECK: %[[P:.*]] = onnx.MaxPool(%[[DQ]])
// CHECK: onnx.QuantizeLinear(%[[P]], %{{.*}}, %{{.*}})
// CHECK: onnx.Flatten
// CHECK: onnx.QuantizeLinear
// CHECK-NOT: onnx.Relu
func.func @conv_relu(%x: tensor<1x1x2x2xf32> {onnx.range = array<f32: -1.0, 1.0>}) -> tensor<1x2xf32> {
  %w = onnx.Constant dense<[[[[1.0]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>
  %c = onnx.Conv(%x, %w) {onnx.ranges = [array<f32: -1.0, 1.0>]} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %r = onnx.Relu(%c) {onnx.ranges = [array<f32: 0.0, 2.55>]} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = onnx.MaxPool(%r) {kernel_shape = [2, 2], onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
  %f = onnx.Flatten(%p) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
  return %f : tensor<1x2xf32>
}

// -----

// A residual Add of two activations: both inputs and the output get Q/DQ.
// A zero-width range (an all-zero tensor) gets scale 1, not 0.
// CHECK-LABEL: func @add
// CHECK: %[[ONE:.*]] = onnx.Constant dense<1.000000e+00> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%arg1, %[[ONE]], %{{.*}})
// CHECK: onnx.QuantizeLinear(%arg0,
// CHECK: %[[S:.*]] = onnx.Add
// CHECK: onnx.QuantizeLinear(%[[S]],
func.func @add(%a: tensor<1x4xf32> {onnx.range = array<f32: -1.0, 1.0>}, %b: tensor<1x4xf32> {onnx.range = array<f32: 0.0, 0.0>}) -> tensor<1x4xf32> {
  %s = onnx.Add(%a, %b) {onnx.ranges = [array<f32: -1.0, 1.0>]} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}

// -----

// A bias the int32 cannot hold at scale s_x * s_w (s_x = 1e-8: 100 / (1e-8 /
// 127) = 1.3e12): as ONNX Runtime's QDQ quantizer, the weight scale of that
// column widens until the bias fits, 1.0001 * 2 |b| / (2^32 - 2) / s_x
// (column 0: 4.657, so its weights 1 and 0.25 round to 0; column 1: 0.0233
// for |b| = 0.5, weights -0.5 and 1 to -21 and 43), and the bias lands
// just inside int32.
// CHECK-LABEL: func @bias_widens_weights
// CHECK: onnx.Constant dense<{{\[\[}}0, -21], [0, 43]]> : tensor<2x2xi8>
// CHECK: onnx.Constant dense<[4.65707874, 0.0232853927]> : tensor<2xf32>
// CHECK: onnx.Constant dense<[2147268875, 2147268885]> : tensor<2xi32>
func.func @bias_widens_weights(%x: tensor<1x2xf32> {onnx.name = "x", onnx.range = array<f32: 0.0, 2.55e-6>}) -> tensor<1x2xf32> {
  %w = onnx.Constant dense<[[1.0, -0.5], [0.25, 1.0]]> : tensor<2x2xf32>
  %b = onnx.Constant dense<[100.0, 0.5]> : tensor<2xf32>
  %y = onnx.Gemm(%x, %w, %b) {onnx.ranges = [array<f32: -1.0, 3.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// A Conv -> Relu read only by a Concat, and a Conv read only by it, are
// quantized with the Concat's parameters ([0, 5.1]: scale 0.02, zero point
// 0), so the Concat's inputs and output share them (fuse-qdq then folds the
// round trips and the Concat moves integers): each element is rounded once,
// onto the Concat's grid. The third input, a Conv that a Relu also reads,
// keeps its own range [0, 2.55] (scale 0.01).
// CHECK-LABEL: func @concat_shares_params
// CHECK-NOT: onnx.Relu
// CHECK: %[[A:.*]] = onnx.Conv
// CHECK: %[[AS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: %[[AZ:.*]] = onnx.Constant dense<0> : tensor<ui8>
// CHECK: onnx.QuantizeLinear(%[[A]], %[[AS]], %[[AZ]])
// CHECK: %[[B:.*]] = onnx.Conv
// CHECK: %[[BS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[B]], %[[BS]],
// CHECK: %[[C:.*]] = onnx.Conv
// CHECK: %[[CS:.*]] = onnx.Constant dense<0.00999999977> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[C]], %[[CS]],
// CHECK: %[[CAT:.*]] = onnx.Concat
// CHECK: %[[YS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[CAT]], %[[YS]],
// After fuse-qdq the Concat reads the first two QLinearConvs' bytes as they
// are; only the third input is requantized.
// FUSED-LABEL: func @concat_shares_params
// FUSED: %[[A:.*]] = onnx.QLinearConv
// FUSED: %[[B:.*]] = onnx.QLinearConv
// FUSED: %[[C:.*]] = onnx.QLinearConv
// FUSED: %[[CR:.*]] = onnx.QuantizeLinear
// FUSED: onnx.Concat(%[[A]], %[[B]], %[[CR]]) {axis = 1 : i64} : ({{.*}}) -> tensor<1x3x2x2xui8>
func.func @concat_shares_params(%x: tensor<1x1x2x2xf32> {onnx.range = array<f32: -1.0, 1.0>}) -> (tensor<1x3x2x2xf32>, tensor<1x1x2x2xf32>) {
  %w = onnx.Constant dense<[[[[1.0]]]]> : tensor<1x1x1x1xf32>
  %a = onnx.Conv(%x, %w) {onnx.ranges = [array<f32: -1.0, 1.0>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %ar = onnx.Relu(%a) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %b = onnx.Conv(%x, %w) {onnx.ranges = [array<f32: 0.0, 5.1>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %c = onnx.Conv(%x, %w) {onnx.ranges = [array<f32: 0.0, 2.55>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %cr = onnx.Relu(%c) {onnx.ranges = [array<f32: 0.0, 2.55>]} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %y = onnx.Concat(%ar, %b, %c) {axis = 1 : i64, onnx.ranges = [array<f32: 0.0, 5.1>]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %y, %cr : tensor<1x3x2x2xf32>, tensor<1x1x2x2xf32>
}

// -----

// A Concat whose range reaches below 0 would not saturate at 0: the Relu
// folded into the Conv keeps the Relu's own parameters ([0, 2.55]: scale
// 0.01, zero point 0); the Concat's are [-2.55, 2.55] (zero point 128).
// CHECK-LABEL: func @concat_keeps_folded_relu
// CHECK-NOT: onnx.Relu
// CHECK: %[[A:.*]] = onnx.Conv
// CHECK: %[[AS:.*]] = onnx.Constant dense<0.00999999977> : tensor<f32>
// CHECK: %[[AZ:.*]] = onnx.Constant dense<0> : tensor<ui8>
// CHECK: onnx.QuantizeLinear(%[[A]], %[[AS]], %[[AZ]])
// CHECK: %[[CAT:.*]] = onnx.Concat
// CHECK: %[[YS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: %[[YZ:.*]] = onnx.Constant dense<128> : tensor<ui8>
// CHECK: onnx.QuantizeLinear(%[[CAT]], %[[YS]], %[[YZ]])
func.func @concat_keeps_folded_relu(%x: tensor<1x1x2x2xf32> {onnx.range = array<f32: -2.55, 2.55>}) -> tensor<1x2x2x2xf32> {
  %w = onnx.Constant dense<[[[[1.0]]]]> : tensor<1x1x1x1xf32>
  %a = onnx.Conv(%x, %w) {onnx.ranges = [array<f32: -2.55, 2.55>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %ar = onnx.Relu(%a) {onnx.ranges = [array<f32: 0.0, 2.55>]} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %y = onnx.Concat(%ar, %x) {axis = 1 : i64, onnx.ranges = [array<f32: -2.55, 2.55>]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// Nested Concats: the inner one is read only by the outer one, so it shares
// the outer one's parameters ([0, 5.1]: scale 0.02), and so do the Convs
// only it reads; every Concat then moves bytes.
// CHECK-LABEL: func @nested_concats_share_params
// CHECK: %[[A:.*]] = onnx.Conv
// CHECK: %[[AS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[A]], %[[AS]],
// CHECK: %[[B:.*]] = onnx.Conv
// CHECK: %[[BS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[B]], %[[BS]],
// CHECK: %[[IN:.*]] = onnx.Concat
// CHECK: %[[INS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[IN]], %[[INS]],
// CHECK: %[[OUT:.*]] = onnx.Concat
// CHECK: %[[OUTS:.*]] = onnx.Constant dense<2.000000e-02> : tensor<f32>
// CHECK: onnx.QuantizeLinear(%[[OUT]], %[[OUTS]],
// FUSED-LABEL: func @nested_concats_share_params
// FUSED: %[[A:.*]] = onnx.QLinearConv
// FUSED: %[[B:.*]] = onnx.QLinearConv
// FUSED: %[[C:.*]] = onnx.QLinearConv
// FUSED-NOT: onnx.QuantizeLinear
// FUSED: %[[IN:.*]] = onnx.Concat(%[[A]], %[[B]])
// FUSED-NOT: onnx.QuantizeLinear
// FUSED: onnx.Concat(%[[IN]], %[[C]])
func.func @nested_concats_share_params(%xf: tensor<1x1x2x2xf32> {onnx.range = array<f32: 0.0, 2.55>}) -> tensor<1x3x2x2xf32> {
  %w = onnx.Constant dense<[[[[1.0]]]]> : tensor<1x1x1x1xf32>
  %a = onnx.Conv(%xf, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %b = onnx.Conv(%xf, %w) {onnx.ranges = [array<f32: 0.0, 2.0>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %c = onnx.Conv(%xf, %w) {onnx.ranges = [array<f32: 0.0, 5.1>]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %in = onnx.Concat(%a, %b) {axis = 1 : i64, onnx.ranges = [array<f32: 0.0, 2.0>]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %out = onnx.Concat(%in, %c) {axis = 1 : i64, onnx.ranges = [array<f32: 0.0, 5.1>]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %out : tensor<1x3x2x2xf32>
}
