// RUN: onnx-quant-opt %s | onnx-quant-opt | FileCheck %s
// RUN: onnx-quant-opt %s -mlir-print-op-generic | onnx-quant-opt | FileCheck %s
// RUN: onnx-quant-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Round trip: every op of the dialect prints in a form that parses back to the
// same IR, in the custom and in the generic form. Optional operands print as
// keyword groups after the parentheses; optional and variadic results as
// extra results of the functional type.

// CHECK-LABEL: func @conv_relu
func.func @conv_relu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  // CHECK: onnx.Conv(%{{.*}}, %{{.*}}, %{{.*}}) {kernel_shape = [3, 3], pads = [1, 1, 1, 1]}
  %0 = onnx.Conv(%x, %w, %b) {kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: onnx.Relu
  %1 = onnx.Relu(%0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %1 : tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func @clip_optional_bounds
func.func @clip_optional_bounds(%x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // CHECK: onnx.Clip(%{{.*}}) max(%{{.*}}) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = onnx.Clip(%x) max(%hi) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @constant_and_defaults
func.func @constant_and_defaults(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: onnx.Constant dense<1.000000e+00> : tensor<3xf32>
  %c = onnx.Constant dense<1.0> : tensor<3xf32>
  // Attributes equal to their ONNX default are not printed.
  // CHECK: onnx.Softmax(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Softmax(%x) {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Add
  %1 = onnx.Add(%0, %c) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// CHECK-LABEL: func @dynamic_quantize
func.func @dynamic_quantize(%x: tensor<2x5xf32>) -> (tensor<2x5xui8>, tensor<f32>, tensor<ui8>) {
  // CHECK: onnx.DynamicQuantizeLinear(%{{.*}}) : (tensor<2x5xf32>) -> (tensor<2x5xui8>, tensor<f32>, tensor<ui8>)
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<2x5xf32>) -> (tensor<2x5xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %zp : tensor<2x5xui8>, tensor<f32>, tensor<ui8>
}

// CHECK-LABEL: func @qdq
func.func @qdq(%x: tensor<1x8xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<1x8xf32> {
  // CHECK: onnx.QuantizeLinear({{.*}}) : (tensor<1x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8xui8>
  %q = onnx.QuantizeLinear(%x, %s, %zp) : (tensor<1x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8xui8>
  // CHECK: onnx.DequantizeLinear
  %d = onnx.DequantizeLinear(%q, %s, %zp) : (tensor<1x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8xf32>
  return %d : tensor<1x8xf32>
}

//===----------------------------------------------------------------------===//
// Element-wise unary ops and activations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[ABS:.*]] = onnx.Abs(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Abs(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[CEIL:.*]] = onnx.Ceil(%[[ABS]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Ceil(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[ERF:.*]] = onnx.Erf(%[[CEIL]])
  %2 = onnx.Erf(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[EXP:.*]] = onnx.Exp(%[[ERF]])
  %3 = onnx.Exp(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[FLOOR:.*]] = onnx.Floor(%[[EXP]])
  %4 = onnx.Floor(%3) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[LOG:.*]] = onnx.Log(%[[FLOOR]])
  %5 = onnx.Log(%4) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[NEG:.*]] = onnx.Neg(%[[LOG]])
  %6 = onnx.Neg(%5) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[RECIP:.*]] = onnx.Reciprocal(%[[NEG]])
  %7 = onnx.Reciprocal(%6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[RELU:.*]] = onnx.Relu(%[[RECIP]])
  %8 = onnx.Relu(%7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[SIG:.*]] = onnx.Sigmoid(%[[RELU]])
  %9 = onnx.Sigmoid(%8) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[SQRT:.*]] = onnx.Sqrt(%[[SIG]])
  %10 = onnx.Sqrt(%9) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[TANH:.*]] = onnx.Tanh(%[[SQRT]])
  %11 = onnx.Tanh(%10) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[HSWISH:.*]] = onnx.HardSwish(%[[TANH]])
  %12 = onnx.HardSwish(%11) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[LRELU:.*]] = onnx.LeakyRelu(%[[HSWISH]]) {alpha = 1.000000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = onnx.LeakyRelu(%12) {alpha = 0.1 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[HSIG:.*]] = onnx.HardSigmoid(%[[LRELU]]) {alpha = 2.500000e-01 : f32, beta = 7.500000e-01 : f32}
  %14 = onnx.HardSigmoid(%13) {alpha = 0.25 : f32, beta = 0.75 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // Default alpha (0.01) is not printed.
  // CHECK: %[[LRELU2:.*]] = onnx.LeakyRelu(%[[HSIG]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = onnx.LeakyRelu(%14) {alpha = 0.00999999977 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[HSIG2:.*]] = onnx.HardSigmoid(%[[LRELU2]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %16 = onnx.HardSigmoid(%15) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: return %[[HSIG2]]
  return %16 : tensor<2x3xf32>
}

// CHECK-LABEL: func @clip_forms
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[LO:.*]]: tensor<f32>, %[[HI:.*]]: tensor<f32>)
func.func @clip_forms(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // CHECK: %[[C0:.*]] = onnx.Clip(%[[X]]) min(%[[LO]]) max(%[[HI]]) : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %0 = onnx.Clip(%x) min(%lo) max(%hi) : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[C1:.*]] = onnx.Clip(%[[C0]]) min(%[[LO]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = onnx.Clip(%0) min(%lo) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[C2:.*]] = onnx.Clip(%[[C1]]) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Clip(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
// GENERIC-LABEL: sym_name = "clip_forms"
// GENERIC: "onnx.Clip"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC: "onnx.Clip"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
// GENERIC: "onnx.Clip"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}>

// CHECK-LABEL: func @softmax_axis
func.func @softmax_axis(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: onnx.Softmax(%{{.*}}) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = onnx.Softmax(%x) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

//===----------------------------------------------------------------------===//
// Element-wise binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<f32>)
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: %[[ADD:.*]] = onnx.Add(%[[A]], %[[B]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[SUB:.*]] = onnx.Sub(%[[ADD]], %[[S]]) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = onnx.Sub(%0, %s) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: %[[MUL:.*]] = onnx.Mul(%[[B]], %[[SUB]]) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Mul(%b, %1) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[DIV:.*]] = onnx.Div(%[[MUL]], %[[A]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = onnx.Div(%2, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[POW:.*]] = onnx.Pow(%[[DIV]], %[[S]]) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = onnx.Pow(%3, %s) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: return %[[POW]]
  return %4 : tensor<2x3xf32>
}

// Dynamic and unranked operands are accepted.
// CHECK-LABEL: func @binary_dynamic
func.func @binary_dynamic(%a: tensor<?x3xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  // CHECK: onnx.Add(%{{.*}}, %{{.*}}) : (tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %0 = onnx.Add(%a, %b) : (tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

//===----------------------------------------------------------------------===//
// Matrix products and reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @gemm_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<5x4xf32>, %[[C:.*]]: tensor<5xf32>, %[[D:.*]]: tensor<3x4x5xf32>)
func.func @gemm_matmul(%a: tensor<2x4xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>, %d: tensor<3x4x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<3x2x5xf32>) {
  // CHECK: onnx.Gemm(%[[A]], %[[B]], %[[C]]) {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, transB = 1 : i64} : (tensor<2x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %0 = onnx.Gemm(%a, %b, %c) {alpha = 0.5 : f32, beta = 2.0 : f32, transB = 1 : i64} : (tensor<2x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // Gemm without the optional C.
  // CHECK: onnx.Gemm(%[[A]], %[[B]]) {transB = 1 : i64} : (tensor<2x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  %1 = onnx.Gemm(%a, %b) {transB = 1 : i64} : (tensor<2x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  // CHECK: onnx.MatMul(%[[A]], %[[D]]) : (tensor<2x4xf32>, tensor<3x4x5xf32>) -> tensor<3x2x5xf32>
  %2 = onnx.MatMul(%a, %d) : (tensor<2x4xf32>, tensor<3x4x5xf32>) -> tensor<3x2x5xf32>
  return %0, %1, %2 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<3x2x5xf32>
}

// CHECK-LABEL: func @reduce_mean
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> (tensor<2x1x1xf32>, tensor<3xf32>, tensor<1x1x1xf32>) {
  // CHECK: onnx.ReduceMean(%{{.*}}) {axes = [1, -1]} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %0 = onnx.ReduceMean(%x) {axes = [1, -1]} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // CHECK: onnx.ReduceMean(%{{.*}}) {axes = [0, 2], keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = onnx.ReduceMean(%x) {axes = [0, 2], keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // No axes: all of them.
  // CHECK: onnx.ReduceMean(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  %2 = onnx.ReduceMean(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %0, %1, %2 : tensor<2x1x1xf32>, tensor<3xf32>, tensor<1x1x1xf32>
}

//===----------------------------------------------------------------------===//
// Convolution, pooling, normalization
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @conv_forms
func.func @conv_forms(%x: tensor<1x4x8x8xf32>, %w: tensor<8x2x3x3xf32>, %wt: tensor<4x2x3x3xf32>, %bt: tensor<2xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x2x16x16xf32>) {
  // Grouped, strided, dilated convolution without bias.
  // CHECK: onnx.Conv(%{{.*}}, %{{.*}}) {auto_pad = "SAME_UPPER", dilations = [1, 1], group = 2 : i64, kernel_shape = [3, 3], strides = [2, 2]} : (tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x4x4xf32>
  %0 = onnx.Conv(%x, %w) {auto_pad = "SAME_UPPER", dilations = [1, 1], group = 2 : i64, kernel_shape = [3, 3], strides = [2, 2]} : (tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: onnx.ConvTranspose(%{{.*}}, %{{.*}}, %{{.*}}) {kernel_shape = [3, 3], output_padding = [1, 1], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x16x16xf32>
  %1 = onnx.ConvTranspose(%x, %wt, %bt) {kernel_shape = [3, 3], output_padding = [1, 1], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x16x16xf32>
  return %0, %1 : tensor<1x8x4x4xf32>, tensor<1x2x16x16xf32>
}

// CHECK-LABEL: func @pooling
func.func @pooling(%x: tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) {
  // MaxPool with the optional Indices result.
  // CHECK: %[[Y:.*]], %[[IND:.*]] = onnx.MaxPool(%{{.*}}) {kernel_shape = [2, 2], storage_order = 1 : i64, strides = [2, 2]} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  %y, %i = onnx.MaxPool(%x) {kernel_shape = [2, 2], storage_order = 1 : i64, strides = [2, 2]} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  // MaxPool without it.
  // CHECK: onnx.MaxPool(%{{.*}}) {ceil_mode = 1 : i64, kernel_shape = [2, 2], pads = [0, 0, 1, 1], strides = [2, 2]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %m = onnx.MaxPool(%x) {ceil_mode = 1 : i64, kernel_shape = [2, 2], pads = [0, 0, 1, 1], strides = [2, 2]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: onnx.AveragePool(%{{.*}}) {count_include_pad = 1 : i64, kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %a = onnx.AveragePool(%x) {count_include_pad = 1 : i64, kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: onnx.GlobalAveragePool(%{{.*}}) : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  %ga = onnx.GlobalAveragePool(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  // CHECK: onnx.GlobalMaxPool(%{{.*}}) : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  %gm = onnx.GlobalMaxPool(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  // CHECK: return %[[Y]], %[[IND]]
  return %y, %i, %m, %a, %ga, %gm : tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>
}
// GENERIC-LABEL: sym_name = "pooling"
// GENERIC: "onnx.MaxPool"(%{{.*}}) <{{{.*}}kernel_shape = [2, 2]{{.*}}storage_order = 1 : i64{{.*}}}> : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)

// CHECK-LABEL: func @batch_norm
func.func @batch_norm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  // Inference: one result.
  // CHECK: onnx.BatchNormalization(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 1.000000e-03 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %0 = onnx.BatchNormalization(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  // Training: the running mean and variance are extra results.
  // CHECK: %[[BN:.*]], %[[STATS:.*]]:2 = onnx.BatchNormalization(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {momentum = 8.000000e-01 : f32, training_mode = 1 : i64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %1:3 = onnx.BatchNormalization(%x, %s, %s, %s, %s) {momentum = 0.8 : f32, training_mode = 1 : i64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: return %{{.*}}, %[[BN]], %[[STATS]]#0, %[[STATS]]#1
  return %0, %1#0, %1#1, %1#2 : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func @layer_norm
func.func @layer_norm(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>) {
  // CHECK: onnx.LayerNormalization(%{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 1.000000e-03 : f32, stash_type = 0 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %0 = onnx.LayerNormalization(%x, %scale, %b) {epsilon = 1.0e-3 : f32, stash_type = 0 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // Without B, with the Mean and InvStdDev results.
  // CHECK: %[[LN:.*]], %[[LNSTATS:.*]]:2 = onnx.LayerNormalization(%{{.*}}, %{{.*}}) {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  %1:3 = onnx.LayerNormalization(%x, %scale) {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  // CHECK: return %{{.*}}, %[[LN]], %[[LNSTATS]]#0, %[[LNSTATS]]#1
  return %0, %1#0, %1#1, %1#2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
}

// CHECK-LABEL: func @dropout
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[R:.*]]: tensor<f32>, %[[T:.*]]: tensor<i1>)
func.func @dropout(%x: tensor<4xf32>, %r: tensor<f32>, %t: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
  // CHECK: %[[D0:.*]] = onnx.Dropout(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = onnx.Dropout(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // The mask result and both optional inputs.
  // CHECK: %[[D1:.*]], %[[MASK:.*]] = onnx.Dropout(%[[X]]) ratio(%[[R]]) training_mode(%[[T]]) {seed = 7 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  %1, %mask = onnx.Dropout(%x) ratio(%r) training_mode(%t) {seed = 7 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  // Only training_mode.
  // CHECK: %[[D2:.*]] = onnx.Dropout(%[[X]]) training_mode(%[[T]]) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  %2 = onnx.Dropout(%x) training_mode(%t) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  // CHECK: return %[[D0]], %[[D1]], %[[MASK]], %[[D2]]
  return %0, %1, %mask, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
}
// GENERIC-LABEL: sym_name = "dropout"
// GENERIC: "onnx.Dropout"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC: "onnx.Dropout"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1>, seed = 7 : i64}>
// GENERIC: "onnx.Dropout"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 1>}>

// CHECK-LABEL: func @resize
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x4xf32>, %[[ROI:.*]]: tensor<8xf32>, %[[SCALES:.*]]: tensor<4xf32>, %[[SIZES:.*]]: tensor<4xi64>, %[[EMPTY:.*]]: tensor<0xf32>)
func.func @resize(%x: tensor<1x3x4x4xf32>, %roi: tensor<8xf32>, %scales: tensor<4xf32>, %sizes: tensor<4xi64>, %empty: tensor<0xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) {
  // By scales, with roi.
  // CHECK: onnx.Resize(%[[X]]) roi(%[[ROI]]) scales(%[[SCALES]]) {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+00 : f32, mode = "linear"} : (tensor<1x3x4x4xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  %0 = onnx.Resize(%x) roi(%roi) scales(%scales) {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.0 : f32, mode = "linear"} : (tensor<1x3x4x4xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  // By sizes only.
  // CHECK: onnx.Resize(%[[X]]) sizes(%[[SIZES]]) {cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : i64, mode = "cubic"} : (tensor<1x3x4x4xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  %1 = onnx.Resize(%x) sizes(%sizes) {cubic_coeff_a = -0.5 : f32, exclude_outside = 1 : i64, mode = "cubic"} : (tensor<1x3x4x4xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  // An empty scales next to sizes counts as absent.
  // CHECK: onnx.Resize(%[[X]]) scales(%[[EMPTY]]) sizes(%[[SIZES]]) {nearest_mode = "ceil"} : (tensor<1x3x4x4xf32>, tensor<0xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  %2 = onnx.Resize(%x) scales(%empty) sizes(%sizes) {nearest_mode = "ceil"} : (tensor<1x3x4x4xf32>, tensor<0xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  return %0, %1, %2 : tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>
}
// GENERIC-LABEL: sym_name = "resize"
// GENERIC: "onnx.Resize"(%{{.*}}, %{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
// GENERIC: "onnx.Resize"(%{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 0, 0, 1>}>
// GENERIC: "onnx.Resize"(%{{.*}}, %{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 0, 1, 1>}>

//===----------------------------------------------------------------------===//
// Constants, shapes and data movement
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<ui8>, tensor<2xi1>, tensor<4xf32>) {
  // CHECK: onnx.Constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %0 = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: onnx.Constant dense<[1, -1, 0]> : tensor<3xi64>
  %1 = onnx.Constant dense<[1, -1, 0]> : tensor<3xi64>
  // CHECK: onnx.Constant dense<128> : tensor<ui8>
  %2 = onnx.Constant dense<128> : tensor<ui8>
  // CHECK: onnx.Constant dense<[true, false]> : tensor<2xi1>
  %3 = onnx.Constant dense<[true, false]> : tensor<2xi1>
  // CHECK: onnx.Constant dense_resource<blob> : tensor<4xf32>
  %4 = onnx.Constant dense_resource<blob> : tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<3xi64>, tensor<ui8>, tensor<2xi1>, tensor<4xf32>
}

// CHECK-LABEL: func @shape_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @shape_ops(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf16>, tensor<3xi64>, tensor<2xi64>, tensor<6x4xf32>, tensor<2x12xf32>, tensor<4x2x3xf32>, tensor<4x3x2xf32>) {
  // CHECK: %[[ID:.*]] = onnx.Identity(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = onnx.Identity(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Cast(%[[ID]]) {to = 10 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  %1 = onnx.Cast(%0) {to = 10 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  // CHECK: onnx.Shape(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %2 = onnx.Shape(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  // CHECK: onnx.Shape(%[[X]]) {end = 3 : i64, start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2xi64>
  %3 = onnx.Shape(%x) {end = 3 : i64, start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2xi64>
  // CHECK: %[[SHAPE:.*]] = onnx.Constant dense<[-1, 4]> : tensor<2xi64>
  %c = onnx.Constant dense<[-1, 4]> : tensor<2xi64>
  // CHECK: onnx.Reshape(%[[X]], %[[SHAPE]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %4 = onnx.Reshape(%x, %c) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  // CHECK: onnx.Reshape(%[[X]], %[[SHAPE]]) {allowzero = 1 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %5 = onnx.Reshape(%x, %c) {allowzero = 1 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  // CHECK: onnx.Flatten(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %6 = onnx.Flatten(%x) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK: onnx.Transpose(%[[X]]) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %7 = onnx.Transpose(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // No perm: reverse the dimensions.
  // CHECK: onnx.Transpose(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %8 = onnx.Transpose(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %0, %1, %2, %3, %4, %6, %7, %8 : tensor<2x3x4xf32>, tensor<2x3x4xf16>, tensor<3xi64>, tensor<2xi64>, tensor<6x4xf32>, tensor<2x12xf32>, tensor<4x2x3xf32>, tensor<4x3x2xf32>
}

// CHECK-LABEL: func @concat_split
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>, %[[SIZES:.*]]: tensor<2xi64>)
func.func @concat_split(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %sizes: tensor<2xi64>) -> (tensor<2x3xf32>, tensor<2x5xf32>, tensor<1x8xf32>, tensor<1x8xf32>) {
  // CHECK: %[[CAT:.*]] = onnx.Concat(%[[A]], %[[B]]) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = onnx.Concat(%a, %b) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // Split by explicit sizes: variadic results.
  // CHECK: %[[S:.*]]:2 = onnx.Split(%[[CAT]], %[[SIZES]]) {axis = 1 : i64} : (tensor<2x8xf32>, tensor<2xi64>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  %1:2 = onnx.Split(%0, %sizes) {axis = 1 : i64} : (tensor<2x8xf32>, tensor<2xi64>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  // Split in equal parts (no `split` operand).
  // CHECK: %[[E:.*]]:2 = onnx.Split(%[[CAT]]) : (tensor<2x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>)
  %2:2 = onnx.Split(%0) : (tensor<2x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>)
  // CHECK: return %[[S]]#0, %[[S]]#1, %[[E]]#0, %[[E]]#1
  return %1#0, %1#1, %2#0, %2#1 : tensor<2x3xf32>, tensor<2x5xf32>, tensor<1x8xf32>, tensor<1x8xf32>
}

// A single-result Split.
// CHECK-LABEL: func @split_one
func.func @split_one(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // CHECK: onnx.Split(%{{.*}}) {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = onnx.Split(%a) {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>, %[[ST:.*]]: tensor<2xi64>, %[[EN:.*]]: tensor<2xi64>, %[[AX:.*]]: tensor<2xi64>, %[[STEP:.*]]: tensor<2xi64>)
func.func @slice(%x: tensor<4x6xf32>, %starts: tensor<2xi64>, %ends: tensor<2xi64>, %axes: tensor<2xi64>, %steps: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  // CHECK: onnx.Slice(%[[X]], %[[ST]], %[[EN]]) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %0 = onnx.Slice(%x, %starts, %ends) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: onnx.Slice(%[[X]], %[[ST]], %[[EN]]) axes(%[[AX]]) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = onnx.Slice(%x, %starts, %ends) axes(%axes) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: onnx.Slice(%[[X]], %[[ST]], %[[EN]]) axes(%[[AX]]) steps(%[[STEP]]) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %2 = onnx.Slice(%x, %starts, %ends) axes(%axes) steps(%steps) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  // Steps without axes.
  // CHECK: onnx.Slice(%[[X]], %[[ST]], %[[EN]]) steps(%[[STEP]]) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = onnx.Slice(%x, %starts, %ends) steps(%steps) : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1, %2, %3 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
// GENERIC-LABEL: sym_name = "slice"
// GENERIC: "onnx.Slice"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}>
// GENERIC: "onnx.Slice"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}>
// GENERIC: "onnx.Slice"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}>
// GENERIC: "onnx.Slice"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}>

// CHECK-LABEL: func @squeeze_unsqueeze_pad_gather
func.func @squeeze_unsqueeze_pad_gather(%x: tensor<1x3x1xf32>, %axes: tensor<1xi64>, %pads: tensor<6xi64>, %v: tensor<f32>, %idx: tensor<2xi32>) -> (tensor<3x1xf32>, tensor<3xf32>, tensor<1x1x3x1xf32>, tensor<3x5x3xf32>, tensor<3x5x3xf32>, tensor<1x2x1xf32>) {
  // CHECK: onnx.Squeeze(%{{.*}}, %{{.*}}) : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %0 = onnx.Squeeze(%x, %axes) : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  // No axes: all size-1 dimensions.
  // CHECK: onnx.Squeeze(%{{.*}}) : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %1 = onnx.Squeeze(%x) : (tensor<1x3x1xf32>) -> tensor<3xf32>
  // CHECK: onnx.Unsqueeze(%{{.*}}, %{{.*}}) : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<1x1x3x1xf32>
  %2 = onnx.Unsqueeze(%x, %axes) : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<1x1x3x1xf32>
  // CHECK: onnx.Pad(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x3x1xf32>, tensor<6xi64>, tensor<f32>) -> tensor<3x5x3xf32>
  %3 = onnx.Pad(%x, %pads, %v) : (tensor<1x3x1xf32>, tensor<6xi64>, tensor<f32>) -> tensor<3x5x3xf32>
  // CHECK: onnx.Pad(%{{.*}}, %{{.*}}) {mode = "edge"} : (tensor<1x3x1xf32>, tensor<6xi64>) -> tensor<3x5x3xf32>
  %4 = onnx.Pad(%x, %pads) {mode = "edge"} : (tensor<1x3x1xf32>, tensor<6xi64>) -> tensor<3x5x3xf32>
  // CHECK: onnx.Gather(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<1x3x1xf32>, tensor<2xi32>) -> tensor<1x2x1xf32>
  %5 = onnx.Gather(%x, %idx) {axis = 1 : i64} : (tensor<1x3x1xf32>, tensor<2xi32>) -> tensor<1x2x1xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x1xf32>, tensor<3xf32>, tensor<1x1x3x1xf32>, tensor<3x5x3xf32>, tensor<3x5x3xf32>, tensor<1x2x1xf32>
}

//===----------------------------------------------------------------------===//
// Quantization: QDQ and QOperator
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @qdq_forms
func.func @qdq_forms(%x: tensor<1x4x2x2xf32>, %s: tensor<f32>, %zp: tensor<i8>, %w: tensor<4x3x3x3xi8>, %ws: tensor<4xf32>, %wzp: tensor<4xi8>) -> (tensor<1x4x2x2xi8>, tensor<1x4x2x2xui8>, tensor<4x3x3x3xf32>, tensor<4x3x3x3xf32>, tensor<1x4x2x2xf32>) {
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x4x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x2x2xi8>
  %0 = onnx.QuantizeLinear(%x, %s, %zp) : (tensor<1x4x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x2x2xi8>
  // Without zero point: ui8.
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}) : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x2x2xui8>
  %1 = onnx.QuantizeLinear(%x, %s) : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x2x2xui8>
  // Per-axis dequantization of weights along axis 0.
  // CHECK: onnx.DequantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3x3x3xf32>
  %2 = onnx.DequantizeLinear(%w, %ws, %wzp) {axis = 0 : i64} : (tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3x3x3xf32>
  // Per-axis with a negative axis and no zero point.
  // CHECK: onnx.DequantizeLinear(%{{.*}}, %{{.*}}) {axis = -4 : i64} : (tensor<4x3x3x3xi8>, tensor<4xf32>) -> tensor<4x3x3x3xf32>
  %3 = onnx.DequantizeLinear(%w, %ws) {axis = -4 : i64} : (tensor<4x3x3x3xi8>, tensor<4xf32>) -> tensor<4x3x3x3xf32>
  // Per-channel quantization on the default axis 1.
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<1x4x2x2xi8>
  %4 = onnx.QuantizeLinear(%x, %ws, %wzp) : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<1x4x2x2xi8>
  // CHECK: onnx.DequantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x4x2x2xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<1x4x2x2xf32>
  %5 = onnx.DequantizeLinear(%4, %ws, %wzp) : (tensor<1x4x2x2xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<1x4x2x2xf32>
  return %0, %1, %2, %3, %5 : tensor<1x4x2x2xi8>, tensor<1x4x2x2xui8>, tensor<4x3x3x3xf32>, tensor<4x3x3x3xf32>, tensor<1x4x2x2xf32>
}

// CHECK-LABEL: func @dequantize_i32
func.func @dequantize_i32(%b: tensor<4xi32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: onnx.DequantizeLinear(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = onnx.DequantizeLinear(%b, %s) {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @qlinear_conv_matmul
func.func @qlinear_conv_matmul(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>, %ws: tensor<4xf32>, %wzp: tensor<4xi8>, %b: tensor<4xi32>, %a: tensor<2x3xui8>, %m: tensor<3x5xi8>, %mzp: tensor<i8>) -> (tensor<1x4x6x6xui8>, tensor<1x4x6x6xui8>, tensor<2x5xui8>) {
  // CHECK: onnx.QLinearConv(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {kernel_shape = [3, 3]} : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x6xui8>
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %ws, %wzp, %s, %zp, %b) {kernel_shape = [3, 3]} : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x6xui8>
  // Without the bias.
  // CHECK: onnx.QLinearConv(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  %1 = onnx.QLinearConv(%x, %s, %zp, %w, %ws, %wzp, %s, %zp) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  // CHECK: onnx.QLinearMatMul(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  %2 = onnx.QLinearMatMul(%a, %s, %zp, %m, %s, %mzp, %s, %zp) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  return %0, %1, %2 : tensor<1x4x6x6xui8>, tensor<1x4x6x6xui8>, tensor<2x5xui8>
}

// CHECK-LABEL: func @qlinear_concat
func.func @qlinear_concat(%a: tensor<1x2xui8>, %b: tensor<1x3xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<1x5xui8> {
  // CHECK: onnx.QLinearConcat(%{{.*}}) {axis = 1 : i64} : (tensor<f32>, tensor<ui8>, tensor<1x2xui8>, tensor<f32>, tensor<ui8>, tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x5xui8>
  %0 = onnx.QLinearConcat(%s, %zp, %a, %s, %zp, %b, %s, %zp) {axis = 1 : i64} : (tensor<f32>, tensor<ui8>, tensor<1x2xui8>, tensor<f32>, tensor<ui8>, tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x5xui8>
  return %0 : tensor<1x5xui8>
}

// CHECK-LABEL: func @qlinear_add
// CHECK-SAME: (%[[A:.*]]: tensor<1x4xui8>, %[[B:.*]]: tensor<4xui8>, %[[S:.*]]: tensor<f32>, %[[ZP:.*]]: tensor<ui8>)
func.func @qlinear_add(%a: tensor<1x4xui8>, %b: tensor<4xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> (tensor<1x4xui8>, tensor<1x4xui8>, tensor<1x4xui8>) {
  // All three zero points.
  // CHECK: onnx.QLinearAdd(%[[A]], %[[S]], %[[B]], %[[S]], %[[S]]) A_zero_point(%[[ZP]]) B_zero_point(%[[ZP]]) C_zero_point(%[[ZP]]) : (tensor<1x4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4xui8>
  %0 = onnx.QLinearAdd(%a, %s, %b, %s, %s) A_zero_point(%zp) B_zero_point(%zp) C_zero_point(%zp) : (tensor<1x4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4xui8>
  // None.
  // CHECK: onnx.QLinearAdd(%[[A]], %[[S]], %[[B]], %[[S]], %[[S]]) : (tensor<1x4xui8>, tensor<f32>, tensor<4xui8>, tensor<f32>, tensor<f32>) -> tensor<1x4xui8>
  %1 = onnx.QLinearAdd(%a, %s, %b, %s, %s) : (tensor<1x4xui8>, tensor<f32>, tensor<4xui8>, tensor<f32>, tensor<f32>) -> tensor<1x4xui8>
  // Only B's.
  // CHECK: onnx.QLinearAdd(%[[A]], %[[S]], %[[B]], %[[S]], %[[S]]) B_zero_point(%[[ZP]]) : (tensor<1x4xui8>, tensor<f32>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>) -> tensor<1x4xui8>
  %2 = onnx.QLinearAdd(%a, %s, %b, %s, %s) B_zero_point(%zp) : (tensor<1x4xui8>, tensor<f32>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>) -> tensor<1x4xui8>
  return %0, %1, %2 : tensor<1x4xui8>, tensor<1x4xui8>, tensor<1x4xui8>
}
// GENERIC-LABEL: sym_name = "qlinear_add"
// GENERIC: "onnx.QLinearAdd"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1>}>
// GENERIC: "onnx.QLinearAdd"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 0, 1, 0>}>
// GENERIC: "onnx.QLinearAdd"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 1, 1, 0>}>

// CHECK-LABEL: func @qlinear_global_average_pool
func.func @qlinear_global_average_pool(%x: tensor<1x4x8x8xui8>, %xn: tensor<1x8x8x4xi8>, %s: tensor<f32>, %zp: tensor<ui8>, %izp: tensor<i8>) -> (tensor<1x4x1x1xui8>, tensor<1x1x1x4xi8>) {
  // CHECK: onnx.QLinearGlobalAveragePool(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x1x1xui8>
  %0 = onnx.QLinearGlobalAveragePool(%x, %s, %zp, %s, %zp) : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x1x1xui8>
  // CHECK: onnx.QLinearGlobalAveragePool(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {channels_last = 1 : i64} : (tensor<1x8x8x4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x1x1x4xi8>
  %1 = onnx.QLinearGlobalAveragePool(%xn, %s, %izp, %s, %izp) {channels_last = 1 : i64} : (tensor<1x8x8x4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x1x1x4xi8>
  return %0, %1 : tensor<1x4x1x1xui8>, tensor<1x1x1x4xi8>
}

// CHECK-LABEL: func @integer_ops
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xui8>, %[[B:.*]]: tensor<3x4xi8>, %[[AZP:.*]]: tensor<ui8>, %[[BZP:.*]]: tensor<4xi8>, %[[X:.*]]: tensor<1x3x5x5xui8>, %[[W:.*]]: tensor<2x3x3x3xi8>, %[[WZP:.*]]: tensor<i8>)
func.func @integer_ops(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>, %azp: tensor<ui8>, %bzp: tensor<4xi8>, %x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xi8>, %wzp: tensor<i8>) -> (tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<1x2x3x3xi32>, tensor<1x2x5x5xi32>) {
  // CHECK: onnx.MatMulInteger(%[[A]], %[[B]]) a_zero_point(%[[AZP]]) b_zero_point(%[[BZP]]) : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<2x4xi32>
  %0 = onnx.MatMulInteger(%a, %b) a_zero_point(%azp) b_zero_point(%bzp) : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<2x4xi32>
  // CHECK: onnx.MatMulInteger(%[[A]], %[[B]]) : (tensor<2x3xui8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %1 = onnx.MatMulInteger(%a, %b) : (tensor<2x3xui8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  // Only b's zero point.
  // CHECK: onnx.MatMulInteger(%[[A]], %[[B]]) b_zero_point(%[[BZP]]) : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<4xi8>) -> tensor<2x4xi32>
  %2 = onnx.MatMulInteger(%a, %b) b_zero_point(%bzp) : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<4xi8>) -> tensor<2x4xi32>
  // CHECK: onnx.ConvInteger(%[[X]], %[[W]]) x_zero_point(%[[AZP]]) w_zero_point(%[[WZP]]) {kernel_shape = [3, 3]} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x2x3x3xi32>
  %3 = onnx.ConvInteger(%x, %w) x_zero_point(%azp) w_zero_point(%wzp) {kernel_shape = [3, 3]} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x2x3x3xi32>
  // CHECK: onnx.ConvInteger(%[[X]], %[[W]]) w_zero_point(%[[WZP]]) {pads = [1, 1, 1, 1]} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>, tensor<i8>) -> tensor<1x2x5x5xi32>
  %4 = onnx.ConvInteger(%x, %w) w_zero_point(%wzp) {pads = [1, 1, 1, 1]} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>, tensor<i8>) -> tensor<1x2x5x5xi32>
  return %0, %1, %2, %3, %4 : tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<1x2x3x3xi32>, tensor<1x2x5x5xi32>
}
// GENERIC-LABEL: sym_name = "integer_ops"
// GENERIC: "onnx.MatMulInteger"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}>
// GENERIC: "onnx.MatMulInteger"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
// GENERIC: "onnx.MatMulInteger"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}>
// GENERIC: "onnx.ConvInteger"({{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1>{{.*}}}>
// GENERIC: "onnx.ConvInteger"({{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1, 0, 1>{{.*}}}>

// CHECK-LABEL: func @unary_math
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @unary_math(%x: tensor<2x3xf32>) {
  // CHECK: onnx.Sin(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u0 = onnx.Sin(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cos(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u1 = onnx.Cos(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Tan(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u2 = onnx.Tan(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Asin(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u3 = onnx.Asin(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Acos(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u4 = onnx.Acos(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Atan(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u5 = onnx.Atan(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sinh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u6 = onnx.Sinh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cosh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u7 = onnx.Cosh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Asinh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u8 = onnx.Asinh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Acosh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u9 = onnx.Acosh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Atanh(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u10 = onnx.Atanh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sign(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u11 = onnx.Sign(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Round(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u12 = onnx.Round(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Softplus(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u13 = onnx.Softplus(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Softsign(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u14 = onnx.Softsign(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @activations
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @activations(%x: tensor<2x3xf32>) {
  // CHECK: onnx.Elu(%[[X]]) {alpha = 5.000000e-01 : f32}
  %0 = onnx.Elu(%x) {alpha = 0.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Celu(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Celu(%x) {alpha = 1.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Selu(%[[X]]) {gamma = 2.000000e+00 : f32}
  %2 = onnx.Selu(%x) {gamma = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.ThresholdedRelu(%[[X]]) {alpha = 2.000000e+00 : f32}
  %3 = onnx.ThresholdedRelu(%x) {alpha = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Shrink(%[[X]]) {bias = 1.000000e+00 : f32, lambd = 1.500000e+00 : f32}
  %4 = onnx.Shrink(%x) {bias = 1.0 : f32, lambd = 1.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.IsNaN(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %5 = onnx.IsNaN(%x) : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.IsInf(%[[X]]) {detect_negative = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %6 = onnx.IsInf(%x) {detect_negative = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func @binary_compare_logic
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xi32>, %[[B:.*]]: tensor<3xi32>, %[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<2x3xi1>, %[[Q:.*]]: tensor<3xi1>)
func.func @binary_compare_logic(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %x: tensor<2x3xf32>, %s: tensor<3xf32>, %p: tensor<2x3xi1>, %q: tensor<3xi1>) {
  // CHECK: onnx.Mod(%[[A]], %[[B]]) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = onnx.Mod(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.Mod(%[[X]], %[[S]]) {fmod = 1 : i64}
  %1 = onnx.Mod(%x, %s) {fmod = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.PRelu(%[[X]], %[[S]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Equal(%[[A]], %[[B]]) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %3 = onnx.Equal(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  // CHECK: onnx.Greater(%[[X]], %[[S]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %4 = onnx.Greater(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.GreaterOrEqual(%[[X]], %[[S]])
  %5 = onnx.GreaterOrEqual(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.Less(%[[X]], %[[S]])
  %6 = onnx.Less(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.LessOrEqual(%[[X]], %[[S]])
  %7 = onnx.LessOrEqual(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.And(%[[P]], %[[Q]]) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %8 = onnx.And(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Or(%[[P]], %[[Q]])
  %9 = onnx.Or(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Xor(%[[P]], %[[Q]])
  %10 = onnx.Xor(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Not(%[[P]]) : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %11 = onnx.Not(%p) : (tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Where(%[[Q]], %[[X]], %[[S]]) : (tensor<3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %12 = onnx.Where(%q, %x, %s) : (tensor<3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @variadic
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<3xf32>)
func.func @variadic(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // CHECK: onnx.Max(%[[X]], %[[S]], %[[X]]) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Max(%x, %s, %x) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Min(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Min(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sum(%[[X]], %[[S]])
  %2 = onnx.Sum(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Mean(%[[X]], %[[S]])
  %3 = onnx.Mean(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @reductions
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[AXES:.*]]: tensor<1xi64>, %[[K:.*]]: tensor<i64>)
func.func @reductions(%x: tensor<2x3x4xf32>, %axes: tensor<1xi64>, %k: tensor<i64>) {
  // CHECK: onnx.ReduceMax(%[[X]]) {axes = [1]} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %0 = onnx.ReduceMax(%x) {axes = [1]} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceMin(%[[X]]) {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = onnx.ReduceMin(%x) {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: onnx.ReduceProd(%[[X]]) {axes = [-1]}
  %2 = onnx.ReduceProd(%x) {axes = [-1]} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  // CHECK: onnx.ReduceL1(%[[X]]) {axes = [0, 2]}
  %3 = onnx.ReduceL1(%x) {axes = [0, 2]} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  // CHECK: onnx.ReduceL2(%[[X]])
  %4 = onnx.ReduceL2(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceLogSum(%[[X]])
  %5 = onnx.ReduceLogSum(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceLogSumExp(%[[X]])
  %6 = onnx.ReduceLogSumExp(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceSumSquare(%[[X]])
  %7 = onnx.ReduceSumSquare(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceSum(%[[X]], %[[AXES]]) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  %8 = onnx.ReduceSum(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  // CHECK: onnx.ReduceSum(%[[X]]) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %9 = onnx.ReduceSum(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.ArgMax(%[[X]]) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  %10 = onnx.ArgMax(%x) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  // CHECK: onnx.ArgMin(%[[X]]) {keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
  %11 = onnx.ArgMin(%x) {keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
  // CHECK: onnx.LogSoftmax(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %12 = onnx.LogSoftmax(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Hardmax(%[[X]]) {axis = 0 : i64}
  %13 = onnx.Hardmax(%x) {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Trilu(%[[X]], %[[K]]) {upper = 0 : i64} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  %14 = onnx.Trilu(%x, %k) {upper = 0 : i64} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Trilu(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %15 = onnx.Trilu(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}
