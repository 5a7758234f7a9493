// RUN: onnx-quant-opt %s -split-input-file -verify-diagnostics
// BUG: verifyConvolution reports the weights' dimension *size* where the
// message says "dimension": kernel_shape = [5, 3] against 4x3x3x3 weights says
// "got 5 for dimension 3", although the mismatch is in spatial dimension 0
// (weight dimension 2), whose size is 3. The message should name the dimension
// and its size.

func.func @conv_kernel_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x6xf32> {
  // expected-error-re @+1 {{'onnx.Conv' op expects kernel_shape to match the weights' spatial dimensions, got 5 for {{.*}}dimension {{(0|2)}}{{[^0-9].*}}3}}
  %0 = onnx.Conv(%x, %w) {kernel_shape = [5, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x6xf32>
  return %0 : tensor<1x4x4x6xf32>
}
