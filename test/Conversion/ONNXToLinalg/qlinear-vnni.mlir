// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="int8-dot=vnni" --canonicalize -split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="int8-dot=sdot" --canonicalize -split-input-file | FileCheck %s --check-prefix=SDOT
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="int8-dot=amx" --canonicalize -split-input-file | FileCheck %s --check-prefix=AMX
// int8-dot=vnni: a u8 x s8 convolution of three or more input channels reads
// its operands packed four channels to an int32 (byte j = channel 4c + j),
// for vpdpbusd. The weights are packed at compile time, channels past the
// last with weight 0; the input by a pass over it, the bytes past the last
// channel its zero point; the contraction's multiply-add is the 4-way byte
// dot product.

// Five channels: two packed words per filter, the words last (G, F/G,
// KH, KW, C4). Filter 0 is 1..5: bytes 01 02 03 04 -> 0x04030201 =
// 67305985, then 05 00 00 00 -> 5. Filter 1 is -1 -2 127 -128 7:
// FF FE 7F 80 -> 0x807FFEFF = -2139095297, then 7.
// CHECK-LABEL: func @packed
// CHECK-DAG: arith.constant dense<{{\[\[\[\[\[}}67305985, 5]]], {{\[\[\[}}-2139095297, 7]]]]]> : tensor<1x2x1x1x2xi32>
// CHECK-NOT: tensor.pad
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} : tensor<1x5x4x4xi8> into tensor<1x1x5x4x4xi8>
// Byte j of the words: channels j, j + 4, ... as a strided slice, so that
// the packing is an element-wise op (vectorized along the rows).
// CHECK: %[[B0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0, 0] [1, 1, 1, 4, 4] [1, 1, 4, 1, 1] : tensor<1x1x5x4x4xi8> to tensor<1x1x1x4x4xi8>
// CHECK: %[[B1:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 0, 0] [1, 1, 1, 4, 4] [1, 1, 4, 1, 1]
// CHECK: %[[B2:.*]] = tensor.extract_slice %[[X]][0, 0, 2, 0, 0] [1, 1, 1, 4, 4] [1, 1, 4, 1, 1]
// CHECK: %[[B3:.*]] = tensor.extract_slice %[[X]][0, 0, 3, 0, 0] [1, 1, 1, 4, 4] [1, 1, 4, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]], #[[ID]], #[[ID]], #[[ID]]], {{.*}} ins(%[[B0]], %[[B1]], %[[B2]], %[[B3]] : tensor<1x1x1x4x4xi8>, tensor<1x1x1x4x4xi8>, tensor<1x1x1x4x4xi8>, tensor<1x1x1x4x4xi8>) outs(%{{.*}} : tensor<1x1x1x4x4xi32>)
// CHECK: arith.shli
// CHECK: arith.ori
// The last word's channel 4 with the zero point (10) in bytes 1-3, read
// from the input itself, not from a padded copy: 10 << 8, 10 << 16, 10 << 24.
// CHECK: %[[B4:.*]] = tensor.extract_slice %[[X]][0, 0, 4, 0, 0] [1, 1, 1, 4, 4] [1, 1, 4, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[B4]] : tensor<1x1x1x4x4xi8>)
// CHECK: arith.extui
// CHECK-NEXT: arith.ori %{{.*}}, %c2560_i32
// CHECK-NEXT: arith.ori %{{.*}}, %c655360_i32
// CHECK-NEXT: arith.ori %{{.*}}, %c167772160_i32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x1x2x4x4xi32>, tensor<1x2x1x1x2xi32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[W:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT: %[[AV:.*]] = vector.broadcast %[[A]] : i32 to vector<1xi32>
// CHECK-NEXT: %[[AB:.*]] = vector.bitcast %[[AV]] : vector<1xi32> to vector<4xi8>
// CHECK-NEXT: %[[AE:.*]] = arith.extui %[[AB]] : vector<4xi8> to vector<4xi32>
// CHECK-NEXT: %[[WV:.*]] = vector.broadcast %[[W]] : i32 to vector<1xi32>
// CHECK-NEXT: %[[WB:.*]] = vector.bitcast %[[WV]] : vector<1xi32> to vector<4xi8>
// CHECK-NEXT: %[[WE:.*]] = arith.extsi %[[WB]] : vector<4xi8> to vector<4xi32>
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[AE]], %[[WE]] : vector<4xi32>
// CHECK-NEXT: %[[S:.*]] = vector.reduction <add>, %[[P]] : vector<4xi32> into i32
// CHECK-NEXT: arith.addi %[[ACC]], %[[S]] : i32
// int8-dot=sdot (AArch64, s8 x s8): the same packing with each activation
// byte's top bit flipped (x - 128 as s8), both bytes sign-extended, and
// 128 * sum(w) added to the accumulator's start: bias 0 - 10 * sum(w) +
// 128 * sum(w) = 118 * 15 = 1770 and 118 * 3 = 354.
// SDOT-LABEL: func @packed
// SDOT-DAG: arith.constant dense<{{\[\[}}1770, 354]]> : tensor<1x2xi32>
// SDOT-DAG: %[[FLIP:.*]] = arith.constant -128 : i8
// SDOT: arith.xori %{{.*}}, %[[FLIP]] : i8
// SDOT: vector.bitcast
// SDOT-NEXT: arith.extsi %{{.*}} : vector<4xi8> to vector<4xi32>
// SDOT: vector.bitcast
// SDOT-NEXT: arith.extsi %{{.*}} : vector<4xi8> to vector<4xi32>
// SDOT: vector.reduction <add>
func.func @packed(%x: tensor<1x5x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<[[[[1]], [[2]], [[3]], [[4]], [[5]]], [[[-1]], [[-2]], [[127]], [[-128]], [[7]]]]> : tensor<2x5x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x5x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x5x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// Two input channels (fewer than three): the widening form, unpacked.
// CHECK-LABEL: func @two_channels
// CHECK-NOT: vector.bitcast
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: return
func.func @two_channels(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<2x2x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x2x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// int8-dot=amx: packed as for vnni; a stride-1 convolution large enough for
// AMX tiles (32 filters, 16 positions) with more than 16 channel words has
// them padded to a multiple of 16: 72 channels, 18 words -> 32 (the
// weights' words past the last are 0, the input's hold the zero point,
// 0x0A0A0A0A = 168430090). The words are packed in place into the filled
// padded buffer (no copy of the input into a padded one).
// AMX-LABEL: func @amx_padded
// AMX-NOT: tensor.pad
// AMX-DAG: %[[FILL:.*]] = arith.constant 168430090 : i32
// AMX: %[[FILLED:.*]] = linalg.fill ins(%[[FILL]] : i32) outs(%{{.*}} : tensor<1x1x32x4x4xi32>)
// AMX: %[[INIT:.*]] = tensor.extract_slice %[[FILLED]][0, 0, 0, 0, 0] [1, 1, 18, 4, 4] [1, 1, 1, 1, 1]
// AMX: %[[WORDS:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x1x18x4x4xi32>)
// AMX: %[[PADDED:.*]] = tensor.insert_slice %[[WORDS]] into %[[FILLED]][0, 0, 0, 0, 0] [1, 1, 18, 4, 4]
// AMX: linalg.generic {{.*}} ins(%[[PADDED]], %{{.*}} : tensor<1x1x32x4x4xi32>, tensor<1x32x1x1x32xi32>)
// Under vnni the words stay 18.
// CHECK-LABEL: func @amx_padded
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x18x4x4xi32>, tensor<1x32x1x1x18xi32>)
func.func @amx_padded(%x: tensor<1x72x4x4xui8>) -> tensor<1x32x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x72x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x72x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<32x72x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x4x4xui8>
  return %y : tensor<1x32x4x4xui8>
}

// -----

// Fewer than 16 channel words: none added (a tile step of 4 x 10 bytes
// does them all; getAMXChannelWords), so no fill either.
// AMX-LABEL: func @amx_exact_words
// AMX-NOT: linalg.fill
// AMX: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x10x4x4xi32>, tensor<1x32x1x1x10xi32>)
func.func @amx_exact_words(%x: tensor<1x40x4x4xui8>) -> tensor<1x32x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<32x40x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x40x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<32x40x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x4x4xui8>
  return %y : tensor<1x32x4x4xui8>
}

// -----

// Fewer than 32 filters (kAMXMinFilters): no AMX tile, so no padding either
// (the rows on vpdpbusd would do the padded words: 4x slower measured).
// AMX-LABEL: func @amx_few_filters
// AMX: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x10x4x4xi32>, tensor<1x16x1x1x10xi32>)
func.func @amx_few_filters(%x: tensor<1x40x4x4xui8>) -> tensor<1x16x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<16x40x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x40x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<16x40x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x16x4x4xui8>
  return %y : tensor<1x16x4x4xui8>
}

// -----

// MatMulInteger of u8 A and constant s8 B (dynamic quantization): A's rows
// are packed to words of 4 bytes along K (K = 5 padded with 0 to 8), B to
// (2, N) words at compile time (byte j of word (w, n) = B[4w + j][n]:
// 1, 3, 5, 7 -> 0x07050301), and the product is the 4-way byte dot product
// into the accumulators that start at -a_zp * sum(B) per column.
// CHECK-LABEL: func @matmul_integer_packed
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[}}117768961, 134611970], [9, 10]]> : tensor<2x2xi32>
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 0] high[0, 3]
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x2xi32>)
// CHECK:   arith.shli
// CHECK:   arith.ori
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[W]] : tensor<3x2xi32>, tensor<2x2xi32>) outs(%{{.*}} : tensor<3x2xi32>)
// CHECK:   vector.bitcast {{.*}} : vector<1xi32> to vector<4xi8>
// CHECK:   vector.reduction <add>
func.func @matmul_integer_packed(%a: tensor<3x5xui8>, %az: tensor<ui8>) -> tensor<3x2xi32> {
  %b = onnx.Constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xi8>
  %y = onnx.MatMulInteger(%a, %b) a_zero_point(%az) : (tensor<3x5xui8>, tensor<5x2xi8>, tensor<ui8>) -> tensor<3x2xi32>
  return %y : tensor<3x2xi32>
}

// -----

// QGemm of a u8 activation: the same packed product, B's columns (1, 2)
// and (3, 4) as one word each (0x0201 = 513, 0x0403 = 1027), from the
// accumulators' start bias - a_zp * sum(B) per column (7 - 2 * 3,
// 8 - 2 * 7), and the requantization after it.
// CHECK-LABEL: func @qgemm_packed
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[}}513, 1027]]> : tensor<1x2xi32>
// CHECK-DAG: arith.constant dense<[1, -6]> : tensor<2xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x1xi32>, tensor<1x2xi32>) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK:   vector.reduction <add>
// CHECK: arith.sitofp %{{.*}} : i32 to f32
func.func @qgemm_packed(%a: tensor<1x2xui8>) -> tensor<1x2xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<2> : tensor<ui8>
  %b = onnx.Constant dense<[[1, 3], [2, 4]]> : tensor<2x2xi8>
  %bs = onnx.Constant dense<0.25> : tensor<f32>
  %bz = onnx.Constant dense<0> : tensor<i8>
  %c = onnx.Constant dense<[7, 8]> : tensor<2xi32>
  %ys = onnx.Constant dense<0.5> : tensor<f32>
  %yz = onnx.Constant dense<0> : tensor<ui8>
  %y = onnx.QGemm(%a, %as, %az, %b, %bs, %bz) C(%c) y_scale(%ys) y_zero_point(%yz) : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>, tensor<2x2xi8>, tensor<f32>, tensor<i8>, tensor<2xi32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  return %y : tensor<1x2xui8>
}

// -----

// ConvInteger with constant weights (dynamic quantization's): packed as
// QLinearConv, the input padded with its zero point read when the model
// runs (tensor.extract) and each filter starting at -x_zp * sum(w).
// CHECK-LABEL: func @conv_integer_packed
// CHECK: %[[ZP:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[ZP]] : i8
// CHECK: vector.bitcast {{.*}} : vector<1xi32> to vector<4xi8>
// CHECK: vector.reduction <add>
func.func @conv_integer_packed(%x: tensor<1x4x5x5xui8>, %xz: tensor<ui8>) -> tensor<1x3x5x5xi32> {
  %w = onnx.Constant dense<1> : tensor<3x4x3x3xi8>
  %y = onnx.ConvInteger(%x, %w) x_zero_point(%xz) {pads = [1, 1, 1, 1]} : (tensor<1x4x5x5xui8>, tensor<3x4x3x3xi8>, tensor<ui8>) -> tensor<1x3x5x5xi32>
  return %y : tensor<1x3x5x5xi32>
}

// -----

// Weights that fit in 4 bits (s4 quantized, widened to s8 for the kernels),
// 64 words or more: the object keeps each word's four nibbles in an i16 and
// an element-wise op spreads them (onnxq-hoist-constants then runs it once
// per process). Filter 0's first word holds -8 -7 -6 -5: nibbles 8 9 A B,
// 0xBA98 = -17768, then -4 -3 -2 -1: 0xFEDC = -292; a byte is its nibble moved to the top and arithmetically
// back down, masked and shifted to its place.
// CHECK-LABEL: func @nibble_words
// CHECK: %[[NIBBLES:.*]] = arith.constant dense<{{\[\[\[\[\[}}-17768, -292, 12816, 30292]]], {{.*}}> : tensor<1x16x1x1x4xi16>
// CHECK: %[[WORDS:.*]] = linalg.generic {{.*}} ins(%[[NIBBLES]] : tensor<1x16x1x1x4xi16>) outs(%{{.*}} : tensor<1x16x1x1x4xi32>)
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK-COUNT-4: arith.shrsi
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[WORDS]] : tensor<1x1x4x4x4xi32>, tensor<1x16x1x1x4xi32>)
func.func @nibble_words(%x: tensor<1x16x4x4xui8>) -> tensor<1x16x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<[[[[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]]], [[[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]]], [[[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]]], [[[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]]], [[[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]]], [[[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]]], [[[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]]], [[[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]]], [[[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]]], [[[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]]], [[[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]]], [[[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]]], [[[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]]], [[[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]]], [[[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]]], [[[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]]]]> : tensor<16x16x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x16x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<16x16x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x16x4x4xui8>
  return %y : tensor<1x16x4x4xui8>
}

// -----

// One weight of 8 (outside int4): the words stay int32 constants.
// CHECK-LABEL: func @byte_words
// CHECK-NOT: xi16>
// CHECK: arith.constant dense<{{.*}}> : tensor<1x16x1x1x4xi32>
// CHECK-NOT: xi16>
// CHECK: return
func.func @byte_words(%x: tensor<1x16x4x4xui8>) -> tensor<1x16x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %w = onnx.Constant dense<[[[[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]]], [[[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]]], [[[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]]], [[[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]]], [[[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]]], [[[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]]], [[[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]]], [[[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]]], [[[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]]], [[[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]]], [[[2]], [[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]]], [[[3]], [[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]]], [[[4]], [[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]]], [[[5]], [[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]]], [[[6]], [[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]]], [[[7]], [[-8]], [[-7]], [[-6]], [[-5]], [[-4]], [[-3]], [[-2]], [[-1]], [[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[8]]]]> : tensor<16x16x1x1xi8>
  %ws = onnx.Constant dense<0.25> : tensor<f32>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %y = onnx.QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz) {kernel_shape = [1, 1]} : (tensor<1x16x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<16x16x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x16x4x4xui8>
  return %y : tensor<1x16x4x4xui8>
}
