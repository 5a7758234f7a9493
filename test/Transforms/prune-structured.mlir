// RUN: onnx-quant-opt %s --onnx-prune="structured=channels sparsity=0.5 min-elements=0 quiet=true" --split-input-file -verify-diagnostics | FileCheck %s
// RUN: onnx-quant-opt %s --onnx-prune="structured=channels sparsity=0.5 criterion=l2 min-elements=0 quiet=true" --split-input-file -verify-diagnostics | FileCheck %s --check-prefix=L2
// RUN: onnx-quant-opt %s --onnx-prune="structured=channels sparsity=0.5 min-elements=0" --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=SUMMARY

// SUMMARY: onnx-prune: 3 of 3 weight tensors changed (structured=channels sparsity=0.5 criterion=l1 min-elements=0)
// SUMMARY-NEXT: onnx-prune: output channels 8 -> 6, MACs 204 -> 102 (50.0% fewer)

// conv1 -> BN -> Relu -> {conv2, GlobalAveragePool -> Flatten -> Gemm}.
// L1 norms of conv1's filters: 1, 0.1+1.5=1.6, 2, 0.2+0.3=0.5: channels 1 and
// 2 stay. BN entries, conv2's input channels and the Gemm's rows follow.
// CHECK-LABEL: func @chain
// CHECK: %[[W1:.*]] = onnx.Constant dense<{{\[\[\[\[}}1.000000e-01]], {{\[\[}}1.500000e+00]]], {{\[\[\[}}0.000000e+00]], {{\[\[}}2.000000e+00]]]]> : tensor<2x2x1x1xf32>
// CHECK: %[[B1:.*]] = onnx.Constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[C1:.*]] = onnx.Conv(%{{.*}}, %[[W1]], %[[B1]]) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK: onnx.Constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[BN:.*]] = onnx.BatchNormalization(%[[C1]], {{.*}} -> tensor<1x2x4x4xf32>
// CHECK: %[[R:.*]] = onnx.Relu(%[[BN]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[W2:.*]] = onnx.Constant dense<{{\[\[\[\[}}2.000000e+00]], {{\[\[}}3.000000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK: onnx.Conv(%[[R]], %[[W2]]) : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
// CHECK: %[[P:.*]] = onnx.GlobalAveragePool(%[[R]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
// CHECK: %[[F:.*]] = onnx.Flatten(%[[P]]) : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
// CHECK: %[[G:.*]] = onnx.Constant dense<{{\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00, 9.000000e+00]]> : tensor<2x3xf32>
// CHECK: onnx.Gemm(%[[F]], %[[G]]) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>

// L2 norms: 1, 1.51, 2, 0.36: the same channels.
// L2-LABEL: func @chain
// L2: onnx.Conv({{.*}} -> tensor<1x2x4x4xf32>
func.func @chain(%x: tensor<1x2x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x3xf32>) {
  %w1 = onnx.Constant dense<[[[[1.0]], [[0.0]]], [[[0.1]], [[1.5]]], [[[0.0]], [[2.0]]], [[[-0.2]], [[0.3]]]]> : tensor<4x2x1x1xf32>
  %b1 = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w2 = onnx.Constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32>
  %c1 = onnx.Conv(%x, %w1, %b1) : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %bn = onnx.BatchNormalization(%c1, %s, %s, %s, %s) : (tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %r = onnx.Relu(%bn) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  // expected-remark @+1 {{output channels not pruned: they reach 'return' (it uses them), which cannot drop the same channels}}
  %c2 = onnx.Conv(%r, %w2) : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x1x4x4xf32>
  %p = onnx.GlobalAveragePool(%r) : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %f = onnx.Flatten(%p) : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %g = onnx.Constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  // expected-remark @+1 {{output channels not pruned: they reach 'return' (it uses them), which cannot drop the same channels}}
  %y = onnx.Gemm(%f, %g) : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  return %c2, %y : tensor<1x1x4x4xf32>, tensor<1x3xf32>
}

// -----

// A residual Add of two convolutions: both drop the same channels, chosen by
// their summed norms (a: 1, 1, 4, 1; b: 3, 0, 0, 1 -> sums 4, 1, 4, 2).
// CHECK-LABEL: func @residual
// CHECK-DAG: onnx.Constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: onnx.Constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}0.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK: onnx.Add({{.*}} -> tensor<1x2x2x2xf32>
// CHECK: onnx.Conv({{.*}} : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x2xf32>
func.func @residual(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %wa = onnx.Constant dense<[[[[1.0]]], [[[1.0]]], [[[4.0]]], [[[1.0]]]]> : tensor<4x1x1x1xf32>
  %wb = onnx.Constant dense<[[[[3.0]]], [[[0.0]]], [[[0.0]]], [[[1.0]]]]> : tensor<4x1x1x1xf32>
  %wc = onnx.Constant dense<1.0> : tensor<1x4x1x1xf32>
  %a = onnx.Conv(%x, %wa) : (tensor<1x1x2x2xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x2x2xf32>
  %b = onnx.Conv(%x, %wb) : (tensor<1x1x2x2xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x2x2xf32>
  %s = onnx.Add(%a, %b) : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  // expected-remark @+1 {{output channels not pruned}}
  %y = onnx.Conv(%s, %wc) : (tensor<1x4x2x2xf32>, tensor<1x4x1x1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// The shortcut of a residual Add is the graph input, which cannot drop
// channels: the conv is left alone.
// CHECK-LABEL: func @identity_shortcut
// CHECK: onnx.Conv({{.*}} -> tensor<1x2x2x2xf32>
func.func @identity_shortcut(%x: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x2x1x1xf32>
  %wc = onnx.Constant dense<1.0> : tensor<1x2x1x1xf32>
  // expected-remark @+1 {{output channels not pruned: they reach a graph input, which cannot drop the same channels}}
  %a = onnx.Conv(%x, %w) : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %s = onnx.Add(%a, %x) : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  // expected-remark @+1 {{output channels not pruned}}
  %y = onnx.Conv(%s, %wc) : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// Channels that feed a Concat stay (its consumers see them at an offset).
// The remark names the layer ('Conv', and its node name when it has one: an
// imported node's location prints as the file).
// CHECK-LABEL: func @concat
// CHECK: onnx.Conv({{.*}} -> tensor<1x2x2x2xf32>
func.func @concat(%x: tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x2x1x1xf32>
  // expected-remark @+1 {{'Conv': output channels not pruned: they reach 'Concat' node 'cat' (it uses them), which cannot drop the same channels}}
  %a = onnx.Conv(%x, %w) : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %c = onnx.Concat(%a, %x) {axis = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32> loc("cat")
  return %c : tensor<1x4x2x2xf32>
}

// -----

// A depthwise conv passes channels through (its filters and group follow);
// a Flatten of a 2x1 map gives the Gemm two rows per channel.
// Filter norms of the first conv: 1, 3, 2, 0.5 -> channels 1 and 2 stay.
// CHECK-LABEL: func @depthwise_flatten
// CHECK: onnx.Constant dense<{{\[\[\[\[}}2.000000e+01]]], {{\[\[\[}}3.000000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK: onnx.Conv({{.*}}) {group = 2 : i64} : (tensor<1x2x2x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x1xf32>
// CHECK: onnx.Flatten({{.*}} -> tensor<1x4xf32>
// CHECK: onnx.Constant dense<[3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<4xf32>
// CHECK: onnx.MatMul
func.func @depthwise_flatten(%x: tensor<1x1x2x1xf32>) -> tensor<1xf32> {
  %w = onnx.Constant dense<[[[[1.0]]], [[[3.0]]], [[[-2.0]]], [[[0.5]]]]> : tensor<4x1x1x1xf32>
  %dw = onnx.Constant dense<[[[[10.0]]], [[[20.0]]], [[[30.0]]], [[[40.0]]]]> : tensor<4x1x1x1xf32>
  %g = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %a = onnx.Conv(%x, %w) : (tensor<1x1x2x1xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x2x1xf32>
  %d = onnx.Conv(%a, %dw) {group = 4 : i64} : (tensor<1x4x2x1xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x2x1xf32>
  %f = onnx.Flatten(%d) : (tensor<1x4x2x1xf32>) -> tensor<1x8xf32>
  %y = onnx.MatMul(%f, %g) : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}

// -----

// Conv b reads conv a's channels and has its own: the norms that choose b's
// filters are those of the original filters (1 and 0.5 + 5), not of the
// filters after a's channel 1 (norm 0.1) has gone (1 and 0.5), whichever
// group is rewritten first. So b keeps filter 1, now [0.5], and c reads b's
// channel 1.
// CHECK-LABEL: func @chain_norms
// CHECK: onnx.Constant dense<1.000000e+00> : tensor<1x1x1x1xf32>
// CHECK: onnx.Conv({{.*}} -> tensor<1x1x1x1xf32>
// CHECK: onnx.Constant dense<5.000000e-01> : tensor<1x1x1x1xf32>
// CHECK: onnx.Conv({{.*}} -> tensor<1x1x1x1xf32>
// CHECK: onnx.Constant dense<3.000000e+00> : tensor<1x1x1x1xf32>
// CHECK: onnx.Conv({{.*}} -> tensor<1x1x1x1xf32>
func.func @chain_norms(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %wa = onnx.Constant dense<[[[[1.0]]], [[[0.1]]]]> : tensor<2x1x1x1xf32>
  %wb = onnx.Constant dense<[[[[1.0]], [[0.0]]], [[[0.5]], [[5.0]]]]> : tensor<2x2x1x1xf32>
  %wc = onnx.Constant dense<[[[[2.0]], [[3.0]]]]> : tensor<1x2x1x1xf32>
  %a = onnx.Conv(%x, %wa) : (tensor<1x1x1x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %b = onnx.Conv(%a, %wb) : (tensor<1x2x1x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  // expected-remark @+1 {{output channels not pruned: they reach 'return'}}
  %c = onnx.Conv(%b, %wc) : (tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %c : tensor<1x1x1x1xf32>
}
