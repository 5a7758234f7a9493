// RUN: onnx-quant-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=128" --split-input-file | FileCheck %s --check-prefix=LANES
// RUN: onnx-quant-opt %s --convert-onnx-to-linalg="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=WIDE

// Per tensor, uint8: round half to even of x / scale, plus the zero point,
// saturated to [0, 255]; the result is the signless i8 of the same bits.
// CHECK-LABEL: func @quantize_u8
// CHECK: linalg.generic
// CHECK: %[[D:.*]] = arith.divf
// CHECK: %[[R:.*]] = math.roundeven %[[D]]
// CHECK: %[[Z:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[ZF:.*]] = arith.sitofp %[[Z]] : i32 to f32
// CHECK: %[[A:.*]] = arith.addf %[[R]], %[[ZF]]
// CHECK: %[[LO:.*]] = arith.maximumf %[[A]], %{{.*}}
// CHECK: %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}}
// CHECK: %[[I:.*]] = arith.fptosi %[[HI]] : f32 to i32
// CHECK: arith.trunci %[[I]] : i32 to i8
func.func @quantize_u8(%x: tensor<2x3xf32>) -> tensor<2x3xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %y = onnx.QuantizeLinear(%x, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// -----

// int8 bounds, and the saturation constants.
// CHECK-LABEL: func @quantize_s8
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.constant -1.280000e+02 : f32
// CHECK: arith.constant 1.270000e+02 : f32
func.func @quantize_s8(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<-3> : tensor<i8>
  %y = onnx.QuantizeLinear(%x, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// Per axis: the 1-D scale and zero point broadcast along axis 1.
// CHECK: #[[PARAM:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func @dequantize_per_axis
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[PARAM]], #[[PARAM]], #{{.*}}]
// CHECK: %[[X:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[Z:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[D:.*]] = arith.subi %[[X]], %[[Z]] : i32
// CHECK: %[[F:.*]] = arith.sitofp %[[D]] : i32 to f32
// CHECK: arith.mulf %[[F]], %{{.*}} : f32
func.func @dequantize_per_axis(%x: tensor<2x3x4xi8>) -> tensor<2x3x4xf32> {
  %s = onnx.Constant dense<[0.5, 0.25, 2.0]> : tensor<3xf32>
  %z = onnx.Constant dense<[0, 1, -1]> : tensor<3xi8>
  %y = onnx.DequantizeLinear(%x, %s, %z) : (tensor<2x3x4xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// An int32 bias without zero point.
// CHECK-LABEL: func @dequantize_i32
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK-NOT: arith.subi
func.func @dequantize_i32(%x: tensor<3xi32>) -> tensor<3xf32> {
  %s = onnx.Constant dense<[0.5, 0.25, 2.0]> : tensor<3xf32>
  %y = onnx.DequantizeLinear(%x, %s) {axis = 0 : i64} : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// A 1-element scale with a scalar zero point (as ONNX Runtime writes biases).
// CHECK-LABEL: func @dequantize_single_element
// CHECK: arith.subi
// CHECK: arith.mulf
func.func @dequantize_single_element(%x: tensor<3xi32>) -> tensor<3xf32> {
  %s = onnx.Constant dense<[0.5]> : tensor<1xf32>
  %z = onnx.Constant dense<0> : tensor<i32>
  %y = onnx.DequantizeLinear(%x, %s, %z) {axis = 0 : i64} : (tensor<3xi32>, tensor<1xf32>, tensor<i32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// 16-bit results (opset 21) saturate to their own range; an f16 input is
// widened first, since 65535 exceeds f16.
// CHECK-LABEL: func @quantize_i16
// CHECK-DAG: arith.constant -3.276800e+04 : f32
// CHECK-DAG: arith.constant 3.276700e+04 : f32
// CHECK: arith.trunci %{{.*}} : i32 to i16
func.func @quantize_i16(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i16>) -> tensor<4xi16> {
  %y = onnx.QuantizeLinear(%x, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<i16>) -> tensor<4xi16>
  return %y : tensor<4xi16>
}

// CHECK-LABEL: func @quantize_u16_from_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-DAG: arith.constant 0.000000e+00 : f32
// CHECK-DAG: arith.constant 6.553500e+04 : f32
// CHECK: arith.trunci %{{.*}} : i32 to i16
func.func @quantize_u16_from_f16(%x: tensor<4xf16>, %s: tensor<f16>, %z: tensor<ui16>) -> tensor<4xui16> {
  %y = onnx.QuantizeLinear(%x, %s, %z) : (tensor<4xf16>, tensor<f16>, tensor<ui16>) -> tensor<4xui16>
  return %y : tensor<4xui16>
}

// -----

// DynamicQuantizeLinear: min and max of x as one row (in vector-wide lanes
// first when the target has vectors: exact in any order), then in
// one-element tensors the scale ((max(hi, 0) - min(lo, 0)) / 255, 255 / 255
// = 1 when the range is empty) and the zero point (round(clamp(0 - lo /
// scale, 0, 255))), then the element-wise u8 quantization with them.
// CHECK-LABEL: func @dynamic_quantize
// CHECK: %[[LO:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<1x10xf32>)
// CHECK: arith.minimumf
// CHECK: %[[HI:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<1x10xf32>)
// CHECK: arith.maximumf
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[LO]], %[[HI]] : tensor<1xf32>, tensor<1xf32>)
// CHECK: %[[EQ:.*]] = arith.cmpf oeq
// CHECK: %[[RANGE:.*]] = arith.select %[[EQ]], %{{.*}}, %{{.*}} : f32
// CHECK: arith.divf %[[RANGE]], %{{.*}} : f32
// CHECK: %[[Z:.*]] = linalg.generic {{.*}} ins(%[[LO]], %[[S]] : tensor<1xf32>, tensor<1xf32>)
// CHECK: math.roundeven
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5xf32>, tensor<f32>, tensor<i8>)
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5xi8>, tensor<f32>, tensor<i8>
// 128-bit vectors: 4 lanes over 2 x 4 elements, the lanes, then the 2 left.
// LANES-LABEL: func @dynamic_quantize
// LANES: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x2x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// LANES: arith.minimumf
// LANES: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4xf32>) outs(%{{.*}} : tensor<1xf32>)
// LANES: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2xf32>) outs(%{{.*}} : tensor<1xf32>)
// LANES: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x2x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// LANES: arith.maximumf
func.func @dynamic_quantize(%x: tensor<2x5xf32>) -> (tensor<2x5xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<2x5xf32>) -> (tensor<2x5xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %zp : tensor<2x5xui8>, tensor<f32>, tensor<ui8>
}

// -----

// A long tensor (128 x 1,024) reduces into eight vectors of partial results
// (512-bit vectors: 8 x 16 lanes, eight independent chains in the kernel),
// then those 128.
// WIDE-LABEL: func @dynamic_quantize_long
// WIDE: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x1024x128xf32>) outs(%{{.*}} : tensor<1x128xf32>)
// WIDE: arith.minimumf
// WIDE: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x128xf32>) outs(%{{.*}} : tensor<1xf32>)
// WIDE: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x1024x128xf32>) outs(%{{.*}} : tensor<1x128xf32>)
// WIDE: arith.maximumf
// A short one (2,047 elements: fewer than 8 x 16 lanes x 16 steps) keeps one vector.
// WIDE-LABEL: func @dynamic_quantize_short
// WIDE: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x127x16xf32>) outs(%{{.*}} : tensor<1x16xf32>)
func.func @dynamic_quantize_long(%x: tensor<128x1024xf32>) -> (tensor<128x1024xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<128x1024xf32>) -> (tensor<128x1024xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %zp : tensor<128x1024xui8>, tensor<f32>, tensor<ui8>
}
func.func @dynamic_quantize_short(%x: tensor<2047xf32>) -> (tensor<2047xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<2047xf32>) -> (tensor<2047xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %zp : tensor<2047xui8>, tensor<f32>, tensor<ui8>
}
