// RUN: onnx-quant-opt %s --canonicalize --split-input-file | FileCheck %s
// Constant integers are read with their ONNX signedness wherever they are
// read (ElementsUtils.h): ui8 zero-extends, i8 sign-extends, for `dense`
// and `dense_resource` tensors alike. Folding a Cast shows the values read.

// CHECK-LABEL: func @cast_ui8
// CHECK: onnx.Constant dense<[0.000000e+00, 1.280000e+02, 2.000000e+02, 2.550000e+02]> : tensor<4xf32>
func.func @cast_ui8() -> tensor<4xf32> {
  %c = onnx.Constant dense<[0, 128, 200, 255]> : tensor<4xui8>
  %0 = onnx.Cast(%c) {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @cast_i8
// CHECK: onnx.Constant dense<[-1.280000e+02, -5.600000e+01, 0.000000e+00, 1.270000e+02]> : tensor<4xf32>
func.func @cast_i8() -> tensor<4xf32> {
  %c = onnx.Constant dense<[-128, -56, 0, 127]> : tensor<4xi8>
  %0 = onnx.Cast(%c) {to = 1 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The same bytes (00 80 C8 FF) as blobs.
// CHECK-LABEL: func @cast_ui8_blob
// CHECK: onnx.Constant dense<[0.000000e+00, 1.280000e+02, 2.000000e+02, 2.550000e+02]> : tensor<4xf32>
func.func @cast_ui8_blob() -> tensor<4xf32> {
  %c = onnx.Constant dense_resource<u8bytes> : tensor<4xui8>
  %0 = onnx.Cast(%c) {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      u8bytes: "0x010000000080C8FF"
    }
  }
#-}

// -----

// CHECK-LABEL: func @cast_i8_blob
// CHECK: onnx.Constant dense<[0.000000e+00, -1.280000e+02, -5.600000e+01, -1.000000e+00]> : tensor<4xf32>
func.func @cast_i8_blob() -> tensor<4xf32> {
  %c = onnx.Constant dense_resource<s8bytes> : tensor<4xi8>
  %0 = onnx.Cast(%c) {to = 1 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      s8bytes: "0x010000000080C8FF"
    }
  }
#-}
