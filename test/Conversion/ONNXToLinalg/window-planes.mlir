// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="int8-dot=amx" --canonicalize -split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="int8-dot=vnni" --canonicalize -split-input-file | FileCheck %s --check-prefix=VNNI
// int8-dot=amx: a convolution for AMX tiles whose window is strided, or
// spans few channel words, runs as a stride-1 window over planes of its
// padded input (WindowPlanes.cpp): plane (oh, ow) is the input at
// (s * y + oh, s * x + ow), its channels packed into words one plane after
// another, and the weights are packed to match (0 for taps past the
// window). Whether the planes compute what the convolution does is
// checked against ONNX Runtime by Integration/amx-convs.test.

// A 3x3 window of stride 2 over 64 channels (16 words): four phase planes
// of 11x11 (the output's 10 plus one tap), 64 words, a 2x2 window over
// them. Under vnni the window stays strided.
// CHECK-LABEL: func @stride2
// CHECK: %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[PLANES:.*]] = tensor.empty() : tensor<1x1x64x11x11xi32>
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 64, 11, 11] [1, 1, 2, 2]
// CHECK: %[[P0:.*]] = tensor.insert_slice %{{.*}} into %[[PLANES]][0, 0, 0, 0, 0] [1, 1, 16, 11, 11]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 1] [1, 64, 11, 11] [1, 1, 2, 2]
// CHECK: %[[P1:.*]] = tensor.insert_slice %{{.*}} into %[[P0]][0, 0, 16, 0, 0] [1, 1, 16, 11, 11]
// CHECK: tensor.extract_slice %[[X]][0, 0, 1, 0] [1, 64, 11, 11] [1, 1, 2, 2]
// CHECK: %[[P2:.*]] = tensor.insert_slice %{{.*}} into %[[P1]][0, 0, 32, 0, 0] [1, 1, 16, 11, 11]
// CHECK: tensor.extract_slice %[[X]][0, 0, 1, 1] [1, 64, 11, 11] [1, 1, 2, 2]
// CHECK: %[[P3:.*]] = tensor.insert_slice %{{.*}} into %[[P2]][0, 0, 48, 0, 0] [1, 1, 16, 11, 11]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[P3]], %{{.*}} : tensor<1x1x64x11x11xi32>, tensor<1x32x2x2x64xi32>)
// VNNI-LABEL: func @stride2
// VNNI-NOT: [1, 1, 2, 2]
// VNNI: ins(%{{.*}}, %{{.*}} : tensor<1x1x16x22x22xi32>, tensor<1x32x3x3x16xi32>)
func.func @stride2(%x: tensor<1x64x20x20xui8>) -> tensor<1x32x10x10xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x64x3x3xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x64x20x20xui8>, tensor<f32>, tensor<ui8>, tensor<32x64x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x10x10xui8>
  return %y : tensor<1x32x10x10xui8>
}

// -----

// A 1x1 window of stride 2 reads phase plane (0, 0) alone.
// CHECK-LABEL: func @pointwise_stride2
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 64, 10, 10] [1, 1, 2, 2]
// CHECK-NOT: [1, 1, 2, 2]
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<1x1x16x10x10xi32>, tensor<1x32x1x1x16xi32>)
func.func @pointwise_stride2(%x: tensor<1x64x20x20xui8>) -> tensor<1x32x10x10xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x64x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1], strides = [2, 2]} : (tensor<1x64x20x20xui8>, tensor<f32>, tensor<ui8>, tensor<32x64x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x10x10xui8>
  return %y : tensor<1x32x10x10xui8>
}

// -----

// A 7x7 stem of stride 2 over 3 channels (one word): 2 row phases x 7
// column taps folded into the words = 14 planes of 15x12, one word each,
// and a window of 4 taps down a column. The padded input grows by a row
// (29 -> 30) so that the odd row phase's last plane row is in bounds.
// CHECK-LABEL: func @stem
// CHECK: %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 3, 3] high[0, 0, 4, 3]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 3, 15, 12] [1, 1, 2, 2] : tensor<1x3x30x29xi8> to tensor<1x3x15x12xi8>
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 6] [1, 3, 15, 12] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[X]][0, 0, 1, 0] [1, 3, 15, 12] [1, 1, 2, 2]
// CHECK: %[[LAST:.*]] = tensor.insert_slice %{{.*}}[0, 0, 13, 0, 0] [1, 1, 1, 15, 12]
// CHECK: ins(%[[LAST]], %{{.*}} : tensor<1x1x14x15x12xi32>, tensor<1x32x4x1x14xi32>)
func.func @stem(%x: tensor<1x3x23x23xui8>) -> tensor<1x32x12x12xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x3x7x7xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [7, 7], pads = [3, 3, 3, 3], strides = [2, 2]} : (tensor<1x3x23x23xui8>, tensor<f32>, tensor<ui8>, tensor<32x3x7x7xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x12x12xui8>
  return %y : tensor<1x32x12x12xui8>
}

// -----

// Stride 1 over 16 channels (4 words): the 3 column taps fold into 12
// words (3 planes 14 wide, the output's width), a window of 3 row taps.
// CHECK-LABEL: func @folded
// CHECK: %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 16, 16, 14] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 1] [1, 16, 16, 14] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 16, 16, 14] [1, 1, 1, 1]
// CHECK: %[[LAST:.*]] = tensor.insert_slice %{{.*}}[0, 0, 8, 0, 0] [1, 1, 4, 16, 14]
// CHECK: ins(%[[LAST]], %{{.*}} : tensor<1x1x12x16x14xi32>, tensor<1x32x3x1x12xi32>)
func.func @folded(%x: tensor<1x16x14x14xui8>) -> tensor<1x32x14x14xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x16x3x3xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x16x14x14xui8>, tensor<f32>, tensor<ui8>, tensor<32x16x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x14x14xui8>
  return %y : tensor<1x32x14x14xui8>
}

// -----

// Stride 1 over 64 channels: a tap's 16 words fill a tile step already,
// so the window stays over the padded input (no planes).
// CHECK-LABEL: func @deep
// CHECK-NOT: tensor.extract_slice %{{.*}}[0, 0, 0, 1]
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<1x1x16x16x16xi32>, tensor<1x32x3x3x16xi32>)
func.func @deep(%x: tensor<1x64x14x14xui8>) -> tensor<1x32x14x14xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x64x3x3xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x64x14x14xui8>, tensor<f32>, tensor<ui8>, tensor<32x64x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x14x14xui8>
  return %y : tensor<1x32x14x14xui8>
}
