// RUN: onnx-quant-opt %s -split-input-file -verify-diagnostics
// BUG: DequantizeLinearOp::verify tests `isInteger(8)`/`isInteger(32)`, which
// are true for signed (si8, si32) integers too, so it accepts x of type si8
// although its message says "i8, ui8 or i32" (QuantizeLinear's result check
// rejects si8). ONNX integers are signless or unsigned in this dialect.

func.func @dequantize_si8(%x: tensor<4xsi8>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects x with i8, ui8 or i32 elements, got 'tensor<4xsi8>'}}
  %0 = onnx.DequantizeLinear(%x, %s) : (tensor<4xsi8>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
