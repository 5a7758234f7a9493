// RUN: onnx-quant-opt %s --onnx-fuse-qdq --split-input-file | FileCheck %s
// DequantizeLinear -> op -> QuantizeLinear islands become integer ops.

// Conv with an int32 bias of scale x_scale * w_scale, then a Relu: a
// QLinearConv and a Max with the output zero point.
// CHECK-LABEL: func @conv_relu
// CHECK-DAG: %[[XS:.*]] = onnx.Constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[XZ:.*]] = onnx.Constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<1> : tensor<4x2x1x1xi8>
// CHECK-DAG: %[[WS:.*]] = onnx.Constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]> : tensor<4xf32>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-DAG: %[[YS:.*]] = onnx.Constant dense<2.500000e-01> : tensor<f32>
// CHECK-DAG: %[[YZ:.*]] = onnx.Constant dense<10> : tensor<ui8>
// CHECK-DAG: %[[WZ:.*]] = onnx.Constant dense<0> : tensor<4xi8>
// CHECK: %[[C:.*]] = onnx.QLinearConv(%arg0, %[[XS]], %[[XZ]], %[[W]], %[[WS]], %[[WZ]], %[[YS]], %[[YZ]], %[[B]]) {strides = [1, 1]} : {{.*}} -> tensor<1x4x3x3xui8>
// CHECK: %[[R:.*]] = onnx.Max(%[[C]], %[[YZ]]) : (tensor<1x4x3x3xui8>, tensor<ui8>) -> tensor<1x4x3x3xui8>
// CHECK: return %[[R]]
func.func @conv_relu(%x: tensor<1x2x3x3xui8>) -> tensor<1x4x3x3xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<4x2x1x1xi8>
  %ws = onnx.Constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %bs = onnx.Constant dense<[0.05, 0.1, 0.15, 0.2]> : tensor<4xf32>
  %b = onnx.Constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<10> : tensor<ui8>
  %dx = onnx.DequantizeLinear(%x, %xs, %xz) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %dw = onnx.DequantizeLinear(%w, %ws) {axis = 0 : i64} : (tensor<4x2x1x1xi8>, tensor<4xf32>) -> tensor<4x2x1x1xf32>
  %db = onnx.DequantizeLinear(%b, %bs) {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %c = onnx.Conv(%dx, %dw, %db) {strides = [1, 1]} : (tensor<1x2x3x3xf32>, tensor<4x2x1x1xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %r = onnx.Relu(%c) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %y = onnx.QuantizeLinear(%r, %ys, %yz) : (tensor<1x4x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
  return %y : tensor<1x4x3x3xui8>
}

// -----

// A bias whose scale is not x_scale * w_scale has no QLinearConv form: the
// island stays in float.
// CHECK-LABEL: func @conv_bias_scale_mismatch
// CHECK-NOT: onnx.QLinearConv
// CHECK: onnx.Conv
func.func @conv_bias_scale_mismatch(%x: tensor<1x2x3x3xui8>) -> tensor<1x4x3x3xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<4x2x1x1xi8>
  %ws = onnx.Constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %bs = onnx.Constant dense<0.01> : tensor<f32>
  %b = onnx.Constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<10> : tensor<ui8>
  %dx = onnx.DequantizeLinear(%x, %xs, %xz) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %dw = onnx.DequantizeLinear(%w, %ws) {axis = 0 : i64} : (tensor<4x2x1x1xi8>, tensor<4xf32>) -> tensor<4x2x1x1xf32>
  %db = onnx.DequantizeLinear(%b, %bs) : (tensor<4xi32>, tensor<f32>) -> tensor<4xf32>
  %c = onnx.Conv(%dx, %dw, %db) {strides = [1, 1]} : (tensor<1x2x3x3xf32>, tensor<4x2x1x1xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %y = onnx.QuantizeLinear(%c, %ys, %yz) : (tensor<1x4x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
  return %y : tensor<1x4x3x3xui8>
}

// -----

// Weights computed at run time: no integer form either.
// CHECK-LABEL: func @conv_runtime_weights
// CHECK-NOT: onnx.QLinearConv
// CHECK: onnx.Conv
func.func @conv_runtime_weights(%x: tensor<1x2x3x3xui8>, %w: tensor<4x2x1x1xi8>) -> tensor<1x4x3x3xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %dx = onnx.DequantizeLinear(%x, %s, %z) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xf32>
  %dw = onnx.DequantizeLinear(%w, %s) : (tensor<4x2x1x1xi8>, tensor<f32>) -> tensor<4x2x1x1xf32>
  %c = onnx.Conv(%dx, %dw) : (tensor<1x2x3x3xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x3x3xf32>
  %y = onnx.QuantizeLinear(%c, %s, %z) : (tensor<1x4x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
  return %y : tensor<1x4x3x3xui8>
}

// -----

// DequantizeLinear sinks below MaxPool and Flatten; Gemm with per-column
// weights (transB: axis 0) and an int32 bias becomes a QGemm.
// CHECK-LABEL: func @pool_flatten_gemm
// CHECK: %[[P:.*]] = onnx.MaxPool(%arg0) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xui8>) -> tensor<1x2x2x2xui8>
// CHECK: %[[F:.*]] = onnx.Flatten(%[[P]]) : (tensor<1x2x2x2xui8>) -> tensor<1x8xui8>
// CHECK: %[[G:.*]] = onnx.QGemm(%[[F]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) C(%{{.*}}) y_scale(%{{.*}}) y_zero_point(%{{.*}}) {transB = 1 : i64} : {{.*}} -> tensor<1x3xui8>
// CHECK: %[[D:.*]] = onnx.DequantizeLinear(%[[G]]
// CHECK: return %[[D]]
func.func @pool_flatten_gemm(%x: tensor<1x2x4x4xui8>) -> tensor<1x3xf32> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<3> : tensor<ui8>
  %w = onnx.Constant dense<2> : tensor<3x8xi8>
  %ws = onnx.Constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %bs = onnx.Constant dense<[0.05, 0.1, 0.15]> : tensor<3xf32>
  %b = onnx.Constant dense<[7, 8, 9]> : tensor<3xi32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<100> : tensor<ui8>
  %dx = onnx.DequantizeLinear(%x, %xs, %xz) : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %p = onnx.MaxPool(%dx) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %f = onnx.Flatten(%p) : (tensor<1x2x2x2xf32>) -> tensor<1x8xf32>
  %dw = onnx.DequantizeLinear(%w, %ws) {axis = 0 : i64} : (tensor<3x8xi8>, tensor<3xf32>) -> tensor<3x8xf32>
  %db = onnx.DequantizeLinear(%b, %bs) {axis = 0 : i64} : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  %g = onnx.Gemm(%f, %dw, %db) {transB = 1 : i64} : (tensor<1x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %q = onnx.QuantizeLinear(%g, %ys, %yz) : (tensor<1x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3xui8>
  %y = onnx.DequantizeLinear(%q, %ys, %yz) : (tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}

// -----

// Add of two quantized tensors -> QLinearAdd; MatMul with constant weights
// -> QLinearMatMul; GlobalAveragePool -> QLinearGlobalAveragePool.
// CHECK-LABEL: func @add_matmul_pool
// CHECK: %[[A:.*]] = onnx.QLinearAdd(%arg0, %{{.*}}, %arg1, %{{.*}}, %{{.*}}) A_zero_point(%{{.*}}) B_zero_point(%{{.*}}) C_zero_point(%{{.*}}) : {{.*}} -> tensor<1x4x2x2xui8>
// CHECK: %[[P:.*]] = onnx.QLinearGlobalAveragePool(%[[A]], {{.*}}) : {{.*}} -> tensor<1x4x1x1xui8>
// CHECK: %[[R:.*]] = onnx.Reshape(%[[P]], %{{.*}}) : (tensor<1x4x1x1xui8>, tensor<2xi64>) -> tensor<1x4xui8>
// CHECK: onnx.QLinearMatMul(%[[R]], {{.*}}) : {{.*}} -> tensor<1x2xui8>
func.func @add_matmul_pool(%a: tensor<1x4x2x2xui8>, %b: tensor<1x4x2x2xui8>) -> tensor<1x2xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %s2 = onnx.Constant dense<0.75> : tensor<f32>
  %w = onnx.Constant dense<3> : tensor<4x2xi8>
  %ws = onnx.Constant dense<0.02> : tensor<f32>
  %shape = onnx.Constant dense<[1, 4]> : tensor<2xi64>
  %da = onnx.DequantizeLinear(%a, %s, %z) : (tensor<1x4x2x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x2x2xf32>
  %db = onnx.DequantizeLinear(%b, %s2, %z) : (tensor<1x4x2x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x2x2xf32>
  %sum = onnx.Add(%da, %db) : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %qs = onnx.QuantizeLinear(%sum, %s2, %z) : (tensor<1x4x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x2x2xui8>
  %ds = onnx.DequantizeLinear(%qs, %s2, %z) : (tensor<1x4x2x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x2x2xf32>
  %p = onnx.GlobalAveragePool(%ds) : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  %qp = onnx.QuantizeLinear(%p, %s, %z) : (tensor<1x4x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x1x1xui8>
  %dp = onnx.DequantizeLinear(%qp, %s, %z) : (tensor<1x4x1x1xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x1x1xf32>
  %r = onnx.Reshape(%dp, %shape) : (tensor<1x4x1x1xf32>, tensor<2xi64>) -> tensor<1x4xf32>
  %dw = onnx.DequantizeLinear(%w, %ws) : (tensor<4x2xi8>, tensor<f32>) -> tensor<4x2xf32>
  %m = onnx.MatMul(%r, %dw) : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %y = onnx.QuantizeLinear(%m, %s, %z) : (tensor<1x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  return %y : tensor<1x2xui8>
}

// -----

// An AveragePool whose window is the whole unpadded input is a
// GlobalAveragePool (as ONNX Runtime runs it); a smaller window, or a padded
// one, stays in float between DequantizeLinear and QuantizeLinear.
// CHECK-LABEL: func @average_pool_windows
// CHECK-DAG: %[[D:.*]] = onnx.DequantizeLinear(%arg0
// CHECK-DAG: %[[G:.*]] = onnx.QLinearGlobalAveragePool(%arg0, {{.*}}) : {{.*}} -> tensor<1x4x1x1xui8>
// CHECK: %[[W:.*]] = onnx.AveragePool(%[[D]]) {kernel_shape = [2, 2], strides = [2, 2]}
// CHECK: onnx.QuantizeLinear(%[[W]]
// CHECK: %[[P:.*]] = onnx.AveragePool(%[[D]]) {kernel_shape = [4, 4], pads = [1, 1, 1, 1]}
// CHECK: onnx.QuantizeLinear(%[[P]]
// CHECK: return %[[G]]
func.func @average_pool_windows(%a: tensor<1x4x4x4xui8>) -> (tensor<1x4x1x1xui8>, tensor<1x4x2x2xui8>, tensor<1x4x3x3xui8>) {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %d = onnx.DequantizeLinear(%a, %s, %z) : (tensor<1x4x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x4xf32>
  %g = onnx.AveragePool(%d) {kernel_shape = [4, 4], strides = [4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %qg = onnx.QuantizeLinear(%g, %s, %z) : (tensor<1x4x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x1x1xui8>
  %w = onnx.AveragePool(%d) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  %qw = onnx.QuantizeLinear(%w, %s, %z) : (tensor<1x4x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x2x2xui8>
  %p = onnx.AveragePool(%d) {kernel_shape = [4, 4], pads = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x3x3xf32>
  %qp = onnx.QuantizeLinear(%p, %s, %z) : (tensor<1x4x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
  return %qg, %qw, %qp : tensor<1x4x1x1xui8>, tensor<1x4x2x2xui8>, tensor<1x4x3x3xui8>
}

// -----

// Concat requantizes each input to the output's parameters; where they are
// already the same, the QuantizeLinear/DequantizeLinear pair disappears.
// CHECK-LABEL: func @concat
// CHECK: %[[D:.*]] = onnx.DequantizeLinear(%arg1
// CHECK: %[[Q:.*]] = onnx.QuantizeLinear(%[[D]]
// CHECK: onnx.Concat(%arg0, %[[Q]]) {axis = 1 : i64} : (tensor<1x2xui8>, tensor<1x2xui8>) -> tensor<1x4xui8>
func.func @concat(%a: tensor<1x2xui8>, %b: tensor<1x2xui8>) -> tensor<1x4xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %s2 = onnx.Constant dense<0.25> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %da = onnx.DequantizeLinear(%a, %s, %z) : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2xf32>
  %db = onnx.DequantizeLinear(%b, %s2, %z) : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2xf32>
  %c = onnx.Concat(%da, %db) {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  %y = onnx.QuantizeLinear(%c, %s, %z) : (tensor<1x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4xui8>
  return %y : tensor<1x4xui8>
}

// -----

// A float op without an integer form keeps its DequantizeLinear and
// QuantizeLinear; a Relu on dequantized values becomes an integer Max.
// CHECK-LABEL: func @float_island
// CHECK: %[[M:.*]] = onnx.Max(%arg0, %{{.*}}) : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
// CHECK: %[[D:.*]] = onnx.DequantizeLinear(%[[M]]
// CHECK: %[[S:.*]] = onnx.Sigmoid(%[[D]])
// CHECK: onnx.QuantizeLinear(%[[S]]
func.func @float_island(%x: tensor<4xui8>) -> tensor<4xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %d = onnx.DequantizeLinear(%x, %s, %z) : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  %r = onnx.Relu(%d) : (tensor<4xf32>) -> tensor<4xf32>
  %g = onnx.Sigmoid(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %y = onnx.QuantizeLinear(%g, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// -----

// Dropout at inference is the identity: the DequantizeLinear -> Dropout ->
// QuantizeLinear round trip with the same parameters folds away.
// CHECK-LABEL: func @dropout_round_trip
// CHECK-NEXT: return %arg0
func.func @dropout_round_trip(%x: tensor<4xui8>) -> tensor<4xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %r = onnx.Constant dense<0.5> : tensor<f32>
  %d = onnx.DequantizeLinear(%x, %s, %z) : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  %o = onnx.Dropout(%d) ratio(%r) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %y = onnx.QuantizeLinear(%o, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// -----

// 4-bit weights (weights=s4 with int8 activations) take the int8 kernel: the
// QLinearMatMul reads them widened to int8, the same values.
// CHECK-LABEL: func @matmul_int4_weights
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<{{\[\[}}-8, 7], [1, -1], [0, 3]]> : tensor<3x2xi8>
// CHECK-DAG: %[[WZ:.*]] = onnx.Constant dense<0> : tensor<2xi8>
// CHECK: onnx.QLinearMatMul(%arg0, %{{.*}}, %{{.*}}, %[[W]], %{{.*}}, %[[WZ]], %{{.*}}, %{{.*}}) : {{.*}} -> tensor<1x2xui8>
func.func @matmul_int4_weights(%a: tensor<1x3xui8>) -> tensor<1x2xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<[[-8, 7], [1, -1], [0, 3]]> : tensor<3x2xi4>
  %ws = onnx.Constant dense<[0.1, 0.2]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi4>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<10> : tensor<ui8>
  %da = onnx.DequantizeLinear(%a, %as, %az) : (tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3xf32>
  %dw = onnx.DequantizeLinear(%w, %ws, %wz) : (tensor<3x2xi4>, tensor<2xf32>, tensor<2xi4>) -> tensor<3x2xf32>
  %m = onnx.MatMul(%da, %dw) : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  %y = onnx.QuantizeLinear(%m, %ys, %yz) : (tensor<1x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  return %y : tensor<1x2xui8>
}

// -----

// Blocked scales have no QLinear form: the MatMul stays float between its
// DequantizeLinears and QuantizeLinear.
// CHECK-LABEL: func @matmul_blocked_weights
// CHECK-NOT: onnx.QLinearMatMul
// CHECK: onnx.DequantizeLinear(%{{.*}}) {axis = 0 : i64, block_size = 16 : i64}
// CHECK: onnx.MatMul
func.func @matmul_blocked_weights(%a: tensor<1x32xui8>) -> tensor<1x2xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<3> : tensor<32x2xi4>
  %ws = onnx.Constant dense<0.1> : tensor<2x2xf32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<10> : tensor<ui8>
  %da = onnx.DequantizeLinear(%a, %as, %az) : (tensor<1x32xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x32xf32>
  %dw = onnx.DequantizeLinear(%w, %ws) {axis = 0 : i64, block_size = 16 : i64} : (tensor<32x2xi4>, tensor<2x2xf32>) -> tensor<32x2xf32>
  %m = onnx.MatMul(%da, %dw) : (tensor<1x32xf32>, tensor<32x2xf32>) -> tensor<1x2xf32>
  %y = onnx.QuantizeLinear(%m, %ys, %yz) : (tensor<1x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  return %y : tensor<1x2xui8>
}
