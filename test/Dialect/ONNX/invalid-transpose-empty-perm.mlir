// RUN: onnx-quant-opt %s -split-input-file -verify-diagnostics
// BUG: TransposeOp::verify only checks perm's length inside its loop over the
// entries, so an empty `perm` passes for any rank, and TransposeOp::fold then
// treats it as the identity permutation.

func.func @transpose_empty_perm(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'onnx.Transpose' op expects perm to be a permutation of [0, 3)}}
  %0 = onnx.Transpose(%x) {perm = []} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
