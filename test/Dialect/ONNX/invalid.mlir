// RUN: onnx-quant-opt %s -split-input-file -verify-diagnostics
// One case per error message of the onnx op verifiers
// (lib/Dialect/ONNX/IR/*Ops.cpp and VerifyUtils.cpp).

func.func @clip_min_not_scalar(%x: tensor<4xf32>, %m: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Clip' op expects min to be a scalar, got 'tensor<2xf32>'}}
  %0 = onnx.Clip(%x) min(%m) : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clip_max_not_scalar(%x: tensor<4xf32>, %m: tensor<1x2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Clip' op expects max to be a scalar, got 'tensor<1x2xf32>'}}
  %0 = onnx.Clip(%x) max(%m) : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Softmax' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.Softmax(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Add' op expects broadcast-compatible operands, got 'tensor<2x3xf32>' and 'tensor<4xf32>'}}
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @sub_broadcast(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Sub' op expects broadcast-compatible operands, got 'tensor<2x3xf32>' and 'tensor<3x3xf32>'}}
  %0 = onnx.Sub(%a, %b) : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @mul_broadcast(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Mul' op expects broadcast-compatible operands, got 'tensor<2x3xf32>' and 'tensor<2xf32>'}}
  %0 = onnx.Mul(%a, %b) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @div_broadcast(%a: tensor<5x2x3xf32>, %b: tensor<4x1x3xf32>) -> tensor<5x2x3xf32> {
  // expected-error @+1 {{'onnx.Div' op expects broadcast-compatible operands, got 'tensor<5x2x3xf32>' and 'tensor<4x1x3xf32>'}}
  %0 = onnx.Div(%a, %b) : (tensor<5x2x3xf32>, tensor<4x1x3xf32>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// -----

func.func @pow_broadcast(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Pow' op expects broadcast-compatible operands, got 'tensor<2x3xf32>' and 'tensor<2xf32>'}}
  %0 = onnx.Pow(%a, %b) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gemm_rank(%a: tensor<1x2x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.Gemm' op expects A of rank 2, got rank 3}}
  %0 = onnx.Gemm(%a, %b) : (tensor<1x2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_b_rank(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.Gemm' op expects B of rank 2, got rank 1}}
  %0 = onnx.Gemm(%a, %b) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_inner(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x4xf32> {
  // transB = 1 takes B's dimension 1 (5) as the inner one.
  // expected-error @+1 {{'onnx.Gemm' op expects matching inner dimensions, got 4 and 5}}
  %0 = onnx.Gemm(%a, %b) {transB = 1 : i64} : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gemm_c_rank(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>, %c: tensor<1x2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.Gemm' op expects C of rank <= 2, got rank 3}}
  %0 = onnx.Gemm(%a, %b, %c) : (tensor<2x4xf32>, tensor<4x5xf32>, tensor<1x2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_c_broadcast(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.Gemm' op expects broadcast-compatible operands, got 'tensor<3xf32>' and 'tensor<2x5xf32>'}}
  %0 = onnx.Gemm(%a, %b, %c) : (tensor<2x4xf32>, tensor<4x5xf32>, tensor<3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4x5xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'onnx.MatMul' op expects operands of rank >= 1}}
  %0 = onnx.MatMul(%a, %b) : (tensor<f32>, tensor<4x5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @matmul_inner(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.MatMul' op expects matching inner dimensions, got 3 and 4}}
  %0 = onnx.MatMul(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_mean_axis(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'onnx.ReduceMean' op expects axes in [-3, 2] for rank 3, got 3}}
  %0 = onnx.ReduceMean(%x) {axes = [3]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @reduce_mean_unique(%x: tensor<2x3x4xf32>) -> tensor<2x3x1xf32> {
  // expected-error @+1 {{'onnx.ReduceMean' op expects unique axes, got -1 twice}}
  %0 = onnx.ReduceMean(%x) {axes = [2, -1]} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x3x1xf32>
}

// -----

func.func @conv_bias_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects bias of rank 1, got rank 2}}
  %0 = onnx.Conv(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_bias_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects a bias of 4 elements, got 3}}
  %0 = onnx.Conv(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_group(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects group >= 1, got 0}}
  %0 = onnx.Conv(%x, %w) {group = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_auto_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects auto_pad to be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got 'SAME'}}
  %0 = onnx.Conv(%x, %w) {auto_pad = "SAME"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @conv_input_rank(%x: tensor<3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects an input of rank >= 3 (N, C, spatial...), got rank 2}}
  %0 = onnx.Conv(%x, %w) : (tensor<3x8xf32>, tensor<4x3x3xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @conv_kernel_shape_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects kernel_shape to have 2 values, got 1}}
  %0 = onnx.Conv(%x, %w) {kernel_shape = [3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects pads to have 4 values, got 2}}
  %0 = onnx.Conv(%x, %w) {pads = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_negative_pads(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects pads values >= 0, got -1}}
  %0 = onnx.Conv(%x, %w) {pads = [0, 0, -1, 0]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_strides_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects strides values >= 1, got 0}}
  %0 = onnx.Conv(%x, %w) {strides = [1, 0]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_dilations_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects dilations to have 2 values, got 3}}
  %0 = onnx.Conv(%x, %w) {dilations = [1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects weights of the input's rank 4, got rank 3}}
  %0 = onnx.Conv(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects input channels (4) = weight channels (3) * group (1)}}
  %0 = onnx.Conv(%x, %w) : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_filters_group(%x: tensor<1x4x8x8xf32>, %w: tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op expects the number of filters (5) to be a multiple of group (2)}}
  %0 = onnx.Conv(%x, %w) {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32>
  return %0 : tensor<1x5x6x6xf32>
}

// -----

// The message names the spatial dimension whose size differs (a regression:
// it once named the size where it said "dimension").
func.func @conv_kernel_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x6xf32> {
  // expected-error-re @+1 {{'onnx.Conv' op expects kernel_shape to match the weights' spatial dimensions, got 5 for {{.*}}dimension {{(0|2)}}{{[^0-9].*}}3}}
  %0 = onnx.Conv(%x, %w) {kernel_shape = [5, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x6xf32>
  return %0 : tensor<1x4x4x6xf32>
}

// -----

func.func @conv_transpose_group(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op expects group >= 1, got 0}}
  %0 = onnx.ConvTranspose(%x, %w) {group = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return %0 : tensor<1x2x10x10xf32>
}

// -----

func.func @conv_transpose_window(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op expects strides to have 2 values, got 1}}
  %0 = onnx.ConvTranspose(%x, %w) {strides = [2]} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return %0 : tensor<1x2x10x10xf32>
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x10x10xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op expects weights with 4 input channels in dimension 0, got 3}}
  %0 = onnx.ConvTranspose(%x, %w) : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return %0 : tensor<1x2x10x10xf32>
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op expects output_padding and output_shape to have one value per spatial dimension (2), got 1}}
  %0 = onnx.ConvTranspose(%x, %w) {output_padding = [1]} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return %0 : tensor<1x2x10x10xf32>
}

// -----

func.func @conv_transpose_output_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op expects output_padding and output_shape to have one value per spatial dimension (2), got 3}}
  %0 = onnx.ConvTranspose(%x, %w) {output_shape = [10, 10, 10]} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return %0 : tensor<1x2x10x10xf32>
}

// -----

func.func @conv_transpose_bias(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<1x4x10x10xf32> {
  // Output channels are W[1] * group = 4.
  // expected-error @+1 {{'onnx.ConvTranspose' op expects a bias of 4 elements, got 2}}
  %0 = onnx.ConvTranspose(%x, %w, %b) {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x4x10x10xf32>
  return %0 : tensor<1x4x10x10xf32>
}

// -----

func.func @max_pool_ceil_mode(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op expects ceil_mode 0 or 1, got 2}}
  %0 = onnx.MaxPool(%x) {ceil_mode = 2 : i64, kernel_shape = [2, 2]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool_storage_order(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op expects storage_order 0 or 1, got 2}}
  %0 = onnx.MaxPool(%x) {kernel_shape = [2, 2], storage_order = 2 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool_kernel_zero(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op expects kernel_shape values >= 1, got 0}}
  %0 = onnx.MaxPool(%x) {kernel_shape = [2, 0]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @average_pool_ceil_mode(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op expects ceil_mode 0 or 1, got -1}}
  %0 = onnx.AveragePool(%x) {ceil_mode = -1 : i64, kernel_shape = [2, 2]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @average_pool_rank(%x: tensor<3x8xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op expects an input of rank >= 3 (N, C, spatial...), got rank 2}}
  %0 = onnx.AveragePool(%x) {kernel_shape = [2]} : (tensor<3x8xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @global_average_pool_rank(%x: tensor<3x8xf32>) -> tensor<3x1xf32> {
  // expected-error @+1 {{'onnx.GlobalAveragePool' op expects an input of rank >= 3, got rank 2}}
  %0 = onnx.GlobalAveragePool(%x) : (tensor<3x8xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// -----

func.func @global_max_pool_rank(%x: tensor<8xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{'onnx.GlobalMaxPool' op expects an input of rank >= 3, got rank 1}}
  %0 = onnx.GlobalMaxPool(%x) : (tensor<8xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @batch_norm_input_rank(%x: tensor<3xf32>, %s: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op expects an input of rank >= 2, got rank 1}}
  %0 = onnx.BatchNormalization(%x, %s, %s, %s, %s) : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @batch_norm_scale_rank(%x: tensor<2x3x4x4xf32>, %s: tensor<1x3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op expects scale of rank 1, got rank 2}}
  %0 = onnx.BatchNormalization(%x, %s, %v, %v, %v) : (tensor<2x3x4x4xf32>, tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_channels(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %v: tensor<4xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op expects input_var of 3 elements (one per channel), got 4}}
  %0 = onnx.BatchNormalization(%x, %s, %s, %s, %v) : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_two_results(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op expects 1 or 3 results, got 2}}
  %0:2 = onnx.BatchNormalization(%x, %s, %s, %s, %s) {training_mode = 1 : i64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_stats_inference(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op expects training_mode = 1 when the running mean and variance are results}}
  %0:3 = onnx.BatchNormalization(%x, %s, %s, %s, %s) : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3x4x4xf32>
}

// -----

func.func @layer_norm_results(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'onnx.LayerNormalization' op expects at most 3 results, got 4}}
  %0:4 = onnx.LayerNormalization(%x, %s) : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x4xf32>
}

// -----

func.func @layer_norm_axis(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'onnx.LayerNormalization' op expects axis in [-2, 1] for rank 2, got -3}}
  %0 = onnx.LayerNormalization(%x, %s) {axis = -3 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dropout_ratio(%x: tensor<4xf32>, %r: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Dropout' op expects ratio to be a scalar, got 'tensor<2xf32>'}}
  %0 = onnx.Dropout(%x) ratio(%r) : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dropout_training_mode(%x: tensor<4xf32>, %t: tensor<2xi1>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Dropout' op expects training_mode to be a scalar, got 'tensor<2xi1>'}}
  %0 = onnx.Dropout(%x) training_mode(%t) : (tensor<4xf32>, tensor<2xi1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @resize_mode(%x: tensor<1x3x4x4xf32>, %s: tensor<4xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+1 {{'onnx.Resize' op expects mode nearest, linear or cubic, got 'bilinear'}}
  %0 = onnx.Resize(%x) scales(%s) {mode = "bilinear"} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @resize_coordinate_mode(%x: tensor<1x3x4x4xf32>, %s: tensor<4xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+1 {{'onnx.Resize' op expects a known coordinate_transformation_mode, got 'half_pixel_mirrored'}}
  %0 = onnx.Resize(%x) scales(%s) {coordinate_transformation_mode = "half_pixel_mirrored"} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @resize_nearest_mode(%x: tensor<1x3x4x4xf32>, %s: tensor<4xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+1 {{'onnx.Resize' op expects a known nearest_mode, got 'round'}}
  %0 = onnx.Resize(%x) scales(%s) {nearest_mode = "round"} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @resize_both(%x: tensor<1x3x4x4xf32>, %s: tensor<4xf32>, %z: tensor<4xi64>) -> tensor<1x3x8x8xf32> {
  // expected-error @+1 {{'onnx.Resize' op expects exactly one of scales and sizes}}
  %0 = onnx.Resize(%x) scales(%s) sizes(%z) : (tensor<1x3x4x4xf32>, tensor<4xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @resize_neither(%x: tensor<1x3x4x4xf32>, %s: tensor<0xf32>) -> tensor<1x3x8x8xf32> {
  // An empty scales without sizes gives neither.
  // expected-error @+1 {{'onnx.Resize' op expects exactly one of scales and sizes}}
  %0 = onnx.Resize(%x) scales(%s) : (tensor<1x3x4x4xf32>, tensor<0xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @cast_unsupported_to(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Cast' op expects `to` to be a supported ONNX data type, got 8 (STRING)}}
  %0 = onnx.Cast(%x) {to = 8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_result_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Cast' op expects a result of element type 'f16' for to = FLOAT16, got 'f32'}}
  %0 = onnx.Cast(%x) {to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @shape_result(%x: tensor<4x2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'onnx.Shape' op expects a 1-D i64 result, got 'tensor<2xi32>'}}
  %0 = onnx.Shape(%x) : (tensor<4x2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reshape_shape_type(%x: tensor<4x2xf32>, %s: tensor<2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'onnx.Reshape' op expects shape to be a 1-D integer tensor, got 'tensor<2xf32>'}}
  %0 = onnx.Reshape(%x, %s) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reshape_elements(%x: tensor<4x2xf32>, %s: tensor<2xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'onnx.Reshape' op expects the same number of elements, got 'tensor<4x2xf32>' and 'tensor<3x3xf32>'}}
  %0 = onnx.Reshape(%x, %s) : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @flatten_result_rank(%x: tensor<2x3x4xf32>) -> tensor<24xf32> {
  // expected-error @+1 {{'onnx.Flatten' op expects a result of rank 2, got rank 1}}
  %0 = onnx.Flatten(%x) : (tensor<2x3x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}

// -----

func.func @flatten_axis(%x: tensor<2x3x4xf32>) -> tensor<24x1xf32> {
  // expected-error @+1 {{'onnx.Flatten' op expects axis in [-3, 3] for rank 3, got 4}}
  %0 = onnx.Flatten(%x) {axis = 4 : i64} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  return %0 : tensor<24x1xf32>
}

// -----

func.func @transpose_perm_repeat(%x: tensor<2x3x4xf32>) -> tensor<2x2x4xf32> {
  // expected-error @+1 {{'onnx.Transpose' op expects perm to be a permutation of [0, 3)}}
  %0 = onnx.Transpose(%x) {perm = [0, 0, 2]} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}

// -----

func.func @transpose_perm_length(%x: tensor<2x3x4xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'onnx.Transpose' op expects perm to be a permutation of [0, 3)}}
  %0 = onnx.Transpose(%x) {perm = [1, 0]} : (tensor<2x3x4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// An empty perm is not the identity (a regression: it once passed the
// verifier and folded away).
func.func @transpose_empty_perm(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'onnx.Transpose' op expects perm to be a permutation of [0, 3)}}
  %0 = onnx.Transpose(%x) {perm = []} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @concat_no_input() -> tensor<0xf32> {
  // expected-error @+1 {{'onnx.Concat' op expects at least one input}}
  %0 = onnx.Concat() {axis = 0 : i64} : () -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'onnx.Concat' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.Concat(%a, %a) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_input_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'onnx.Concat' op expects inputs of rank 2, got rank 1}}
  %0 = onnx.Concat(%a, %b) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_other_dims(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'onnx.Concat' op expects inputs to match the result outside the concatenation axis, got 'tensor<3x3xf32>' for 'tensor<2x6xf32>'}}
  %0 = onnx.Concat(%a, %b) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @split_no_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Split' op expects at least one result}}
  onnx.Split(%x) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @split_sizes_type(%x: tensor<4xf32>, %s: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Split' op expects split to be a 1-D integer tensor, got 'tensor<2xf32>'}}
  %0:2 = onnx.Split(%x, %s) : (tensor<4xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @split_axis(%x: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Split' op expects axis in [-1, 0] for rank 1, got 1}}
  %0:2 = onnx.Split(%x) {axis = 1 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @slice_starts_type(%x: tensor<4xf32>, %s: tensor<1xf32>, %e: tensor<1xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Slice' op expects starts to be a 1-D integer tensor, got 'tensor<1xf32>'}}
  %0 = onnx.Slice(%x, %s, %e) : (tensor<4xf32>, tensor<1xf32>, tensor<1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_ends_rank(%x: tensor<4xf32>, %s: tensor<1xi64>, %e: tensor<1x1xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Slice' op expects ends to be a 1-D integer tensor, got 'tensor<1x1xi64>'}}
  %0 = onnx.Slice(%x, %s, %e) : (tensor<4xf32>, tensor<1xi64>, tensor<1x1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_axes_type(%x: tensor<4xf32>, %s: tensor<1xi64>, %a: tensor<1xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Slice' op expects axes to be a 1-D integer tensor, got 'tensor<1xf32>'}}
  %0 = onnx.Slice(%x, %s, %s) axes(%a) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_steps_type(%x: tensor<4xf32>, %s: tensor<1xi64>, %t: tensor<i64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Slice' op expects steps to be a 1-D integer tensor, got 'tensor<i64>'}}
  %0 = onnx.Slice(%x, %s, %s) steps(%t) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<i64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_lengths(%x: tensor<4x4xf32>, %s: tensor<2xi64>, %e: tensor<1xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'onnx.Slice' op expects starts and ends of the same length, got 2 and 1}}
  %0 = onnx.Slice(%x, %s, %e) : (tensor<4x4xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @squeeze_axes(%x: tensor<1x4xf32>, %a: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Squeeze' op expects axes to be a 1-D integer tensor, got 'tensor<1xf32>'}}
  %0 = onnx.Squeeze(%x, %a) : (tensor<1x4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unsqueeze_axes(%x: tensor<4xf32>, %a: tensor<i64>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.Unsqueeze' op expects axes to be a 1-D integer tensor, got 'tensor<i64>'}}
  %0 = onnx.Unsqueeze(%x, %a) : (tensor<4xf32>, tensor<i64>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @unsqueeze_rank(%x: tensor<4xf32>, %a: tensor<2xi64>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.Unsqueeze' op expects a result of rank 3, got rank 2}}
  %0 = onnx.Unsqueeze(%x, %a) : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @pad_mode(%x: tensor<4xf32>, %p: tensor<2xi64>) -> tensor<6xf32> {
  // expected-error @+1 {{'onnx.Pad' op expects mode constant, reflect, edge or wrap, got 'circular'}}
  %0 = onnx.Pad(%x, %p) {mode = "circular"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @pad_pads_type(%x: tensor<4xf32>, %p: tensor<2xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'onnx.Pad' op expects pads to be a 1-D integer tensor, got 'tensor<2xf32>'}}
  %0 = onnx.Pad(%x, %p) : (tensor<4xf32>, tensor<2xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @pad_constant_value(%x: tensor<4xf32>, %p: tensor<2xi64>, %v: tensor<2xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'onnx.Pad' op expects constant_value to be a scalar, got 'tensor<2xf32>'}}
  %0 = onnx.Pad(%x, %p, %v) : (tensor<4xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @pad_count(%x: tensor<2x4xf32>, %p: tensor<2xi64>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'onnx.Pad' op expects 4 pads for rank 2, got 2}}
  %0 = onnx.Pad(%x, %p) : (tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @gather_indices(%x: tensor<4x3xf32>, %i: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Gather' op expects integer indices, got 'tensor<2xf32>'}}
  %0 = onnx.Gather(%x, %i) : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_axis(%x: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Gather' op expects axis in [-2, 1] for rank 2, got -3}}
  %0 = onnx.Gather(%x, %i) {axis = -3 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @quantize_result(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xi32> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects a result with i8, ui8, i16 or ui16 elements, got 'tensor<4xi32>'}}
  %0 = onnx.QuantizeLinear(%x, %s) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @qlinear_concat_pairs(%a: tensor<1x2xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<1x2xui8> {
  // expected-error @+1 {{'onnx.QLinearConcat' op expects (tensor, scale, zero point) triples, got 2 inputs}}
  %0 = onnx.QLinearConcat(%s, %zp, %a, %s) {axis = 1 : i64} : (tensor<f32>, tensor<ui8>, tensor<1x2xui8>, tensor<f32>) -> tensor<1x2xui8>
  return %0 : tensor<1x2xui8>
}

// -----

func.func @qlinear_concat_types(%a: tensor<1x2xi8>, %s: tensor<f32>, %zp: tensor<ui8>, %izp: tensor<i8>) -> tensor<1x2xui8> {
  // expected-error @+1 {{'onnx.QLinearConcat' op expects input 0 and its zero point of the result's element type 'ui8', got 'tensor<1x2xi8>' and 'tensor<i8>'}}
  %0 = onnx.QLinearConcat(%s, %zp, %a, %s, %izp) {axis = 1 : i64} : (tensor<f32>, tensor<ui8>, tensor<1x2xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2xui8>
  return %0 : tensor<1x2xui8>
}

// -----

func.func @qlinear_concat_rank(%a: tensor<1x2xui8>, %b: tensor<2xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<1x4xui8> {
  // expected-error @+1 {{'onnx.QLinearConcat' op expects inputs of rank 2, got rank 1}}
  %0 = onnx.QLinearConcat(%s, %zp, %a, %s, %zp, %b, %s, %zp) {axis = 1 : i64} : (tensor<f32>, tensor<ui8>, tensor<1x2xui8>, tensor<f32>, tensor<ui8>, tensor<2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4xui8>
  return %0 : tensor<1x4xui8>
}

// -----

func.func @dynamic_quantize_signed(%x: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+1 {{'onnx.DynamicQuantizeLinear' op expects y of ui8, got 'tensor<4xi8>'}}
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<4xf32>) -> (tensor<4xi8>, tensor<f32>, tensor<ui8>)
  return %y : tensor<4xi8>
}

// -----

func.func @dynamic_quantize_f16(%x: tensor<4xf16>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.DynamicQuantizeLinear' op expects an f32 input, got 'tensor<4xf16>'}}
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<4xf16>) -> (tensor<4xui8>, tensor<f32>, tensor<ui8>)
  return %y : tensor<4xui8>
}

// -----

func.func @dynamic_quantize_scale_rank(%x: tensor<4xf32>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.DynamicQuantizeLinear' op expects a rank-0 y_scale and y_zero_point, got 'tensor<1xf32>'}}
  %y, %s, %zp = onnx.DynamicQuantizeLinear(%x) : (tensor<4xf32>) -> (tensor<4xui8>, tensor<1xf32>, tensor<ui8>)
  return %y : tensor<4xui8>
}

// -----

func.func @quantize_zero_point_type(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<i8>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects y_zero_point and the result to have the same element type, got 'i8' and 'ui8'}}
  %0 = onnx.QuantizeLinear(%x, %s, %zp) : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @quantize_scale_type(%x: tensor<4xf32>, %s: tensor<i32>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects a floating-point scale, got 'tensor<i32>'}}
  %0 = onnx.QuantizeLinear(%x, %s) : (tensor<4xf32>, tensor<i32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @quantize_scale_zero_point_shape(%x: tensor<2x4xf32>, %s: tensor<4xf32>, %zp: tensor<ui8>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects scale and zero point of the same shape, got 'tensor<4xf32>' and 'tensor<ui8>'}}
  %0 = onnx.QuantizeLinear(%x, %s, %zp) : (tensor<2x4xf32>, tensor<4xf32>, tensor<ui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @quantize_scale_rank(%x: tensor<2x4xf32>, %s: tensor<2x4xf32>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects a scalar or 1-D scale, got rank 2}}
  %0 = onnx.QuantizeLinear(%x, %s) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @quantize_axis(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.QuantizeLinear(%x, %s) {axis = 2 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @quantize_per_axis_length(%x: tensor<2x4xf32>, %s: tensor<3xf32>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op expects a per-axis scale of length 4 (dimension 1), got 3}}
  %0 = onnx.QuantizeLinear(%x, %s) : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @dequantize_input(%x: tensor<4xi64>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects x with i4, ui4, i8, ui8, i16, ui16 or i32 elements, got 'tensor<4xi64>'}}
  %0 = onnx.DequantizeLinear(%x, %s) : (tensor<4xi64>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Signed (si8) integers are not ONNX integers: they are refused (a regression:
// `isInteger(8)` once accepted them).
func.func @dequantize_si8(%x: tensor<4xsi8>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects x with i4, ui4, i8, ui8, i16, ui16 or i32 elements, got 'tensor<4xsi8>'}}
  %0 = onnx.DequantizeLinear(%x, %s) : (tensor<4xsi8>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dequantize_result(%x: tensor<4xi8>, %s: tensor<f32>) -> tensor<4xi32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a floating-point result, got 'tensor<4xi32>'}}
  %0 = onnx.DequantizeLinear(%x, %s) : (tensor<4xi8>, tensor<f32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Blocked scales (block_size, opset 21): x's rank, one entry per block along
// the axis.
func.func @dequantize_block_rank(%x: tensor<2x64xi4>, %s: tensor<4xf32>) -> tensor<2x64xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a blocked scale of x's rank 2, got rank 1}}
  %0 = onnx.DequantizeLinear(%x, %s) {axis = 1 : i64, block_size = 32 : i64} : (tensor<2x64xi4>, tensor<4xf32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// -----

func.func @dequantize_block_count(%x: tensor<2x65xi4>, %s: tensor<2x2xf32>) -> tensor<2x65xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a blocked scale with dimension 1 of 3 (block_size 32 along axis 1), got 2}}
  %0 = onnx.DequantizeLinear(%x, %s) {axis = 1 : i64, block_size = 32 : i64} : (tensor<2x65xi4>, tensor<2x2xf32>) -> tensor<2x65xf32>
  return %0 : tensor<2x65xf32>
}

// -----

func.func @dequantize_block_other_dim(%x: tensor<2x64xi4>, %s: tensor<3x2xf32>) -> tensor<2x64xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a blocked scale with dimension 0 of 2 (block_size 32 along axis 1), got 3}}
  %0 = onnx.DequantizeLinear(%x, %s) {axis = 1 : i64, block_size = 32 : i64} : (tensor<2x64xi4>, tensor<3x2xf32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// -----

func.func @dequantize_block_zero_point(%x: tensor<2x64xi4>, %s: tensor<2x2xf32>, %z: tensor<2xi4>) -> tensor<2x64xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a zero point of the scale's shape, got 'tensor<2xi4>'}}
  %0 = onnx.DequantizeLinear(%x, %s, %z) {axis = 1 : i64, block_size = 32 : i64} : (tensor<2x64xi4>, tensor<2x2xf32>, tensor<2xi4>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// -----

func.func @dequantize_block_negative(%x: tensor<2x64xi4>, %s: tensor<2x2xf32>) -> tensor<2x64xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a positive block_size, got -32}}
  %0 = onnx.DequantizeLinear(%x, %s) {axis = 1 : i64, block_size = -32 : i64} : (tensor<2x64xi4>, tensor<2x2xf32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// -----

func.func @dequantize_zero_point_type(%x: tensor<4xi8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects x_zero_point and x to have the same element type, got 'ui8' and 'i8'}}
  %0 = onnx.DequantizeLinear(%x, %s, %zp) : (tensor<4xi8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dequantize_per_axis_length(%x: tensor<4x3xi8>, %s: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op expects a per-axis scale of length 4 (dimension 0), got 3}}
  %0 = onnx.DequantizeLinear(%x, %s) {axis = 0 : i64} : (tensor<4x3xi8>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @qlinear_conv_x(%x: tensor<1x3x8x8xf32>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>, %wzp: tensor<i8>) -> tensor<1x4x6x6xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects x with i8 or ui8 elements, got 'tensor<1x3x8x8xf32>'}}
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %s, %wzp, %s, %zp) : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %0 : tensor<1x4x6x6xui8>
}

// -----

func.func @qlinear_conv_w_zero_point(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>) -> tensor<1x4x6x6xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects its zero point and w to have the same element type, got 'ui8' and 'i8'}}
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %s, %zp, %s, %zp) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %0 : tensor<1x4x6x6xui8>
}

// -----

func.func @qlinear_conv_y(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>, %wzp: tensor<i8>, %yzp: tensor<i32>) -> tensor<1x4x6x6xi32> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects y with i8 or ui8 elements, got 'tensor<1x4x6x6xi32>'}}
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %s, %wzp, %s, %yzp) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i32>) -> tensor<1x4x6x6xi32>
  return %0 : tensor<1x4x6x6xi32>
}

// -----

func.func @qlinear_conv_x_scale(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %s3: tensor<3xf32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>, %wzp: tensor<i8>) -> tensor<1x4x6x6xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects x_scale to be a scalar, got 'tensor<3xf32>'}}
  %0 = onnx.QLinearConv(%x, %s3, %zp, %w, %s, %wzp, %s, %zp) : (tensor<1x3x8x8xui8>, tensor<3xf32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %0 : tensor<1x4x6x6xui8>
}

// -----

func.func @qlinear_conv_y_scale(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %s2: tensor<2xf32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>, %wzp: tensor<i8>) -> tensor<1x4x6x6xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects y_scale to be a scalar, got 'tensor<2xf32>'}}
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %s, %wzp, %s2, %zp) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<2xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %0 : tensor<1x4x6x6xui8>
}

// -----

func.func @qlinear_conv_w_scale_length(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<4x3x3x3xi8>, %ws: tensor<3xf32>, %wzp: tensor<3xi8>) -> tensor<1x4x6x6xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects a per-axis scale of length 4 (dimension 0), got 3}}
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %ws, %wzp, %s, %zp) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %0 : tensor<1x4x6x6xui8>
}

// -----

func.func @qlinear_conv_channels(%x: tensor<1x3x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<4x2x3x3xi8>, %wzp: tensor<i8>) -> tensor<1x4x6x6xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op expects input channels (3) = weight channels (2) * group (1)}}
  %0 = onnx.QLinearConv(%x, %s, %zp, %w, %s, %wzp, %s, %zp) : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x2x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %0 : tensor<1x4x6x6xui8>
}

// -----

func.func @qlinear_matmul_b(%a: tensor<2x3xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %b: tensor<3x4xi16>, %bzp: tensor<i16>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QLinearMatMul' op expects b with i8 or ui8 elements, got 'tensor<3x4xi16>'}}
  %0 = onnx.QLinearMatMul(%a, %s, %zp, %b, %s, %bzp, %s, %zp) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi16>, tensor<f32>, tensor<i16>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @qlinear_matmul_a_scale(%a: tensor<2x3xui8>, %s: tensor<f32>, %s2: tensor<2xf32>, %zp: tensor<ui8>, %b: tensor<3x4xi8>, %bzp: tensor<i8>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QLinearMatMul' op expects a_scale to be a scalar, got 'tensor<2xf32>'}}
  %0 = onnx.QLinearMatMul(%a, %s2, %zp, %b, %s, %bzp, %s, %zp) : (tensor<2x3xui8>, tensor<2xf32>, tensor<ui8>, tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @qlinear_add_zero_point(%a: tensor<4xui8>, %s: tensor<f32>, %zp: tensor<i8>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.QLinearAdd' op expects its zero point and A to have the same element type, got 'i8' and 'ui8'}}
  %0 = onnx.QLinearAdd(%a, %s, %a, %s, %s) A_zero_point(%zp) : (tensor<4xui8>, tensor<f32>, tensor<i8>, tensor<4xui8>, tensor<f32>, tensor<f32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @qlinear_add_scale(%a: tensor<4xui8>, %s: tensor<f32>, %s4: tensor<4xf32>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.QLinearAdd' op expects B_scale to be a scalar, got 'tensor<4xf32>'}}
  %0 = onnx.QLinearAdd(%a, %s, %a, %s4, %s) : (tensor<4xui8>, tensor<f32>, tensor<4xui8>, tensor<4xf32>, tensor<f32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @qlinear_add_broadcast(%a: tensor<4xui8>, %b: tensor<3xui8>, %s: tensor<f32>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.QLinearAdd' op expects broadcast-compatible operands, got 'tensor<4xui8>' and 'tensor<3xui8>'}}
  %0 = onnx.QLinearAdd(%a, %s, %b, %s, %s) : (tensor<4xui8>, tensor<f32>, tensor<3xui8>, tensor<f32>, tensor<f32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @qlinear_add_result(%a: tensor<4xui8>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.QLinearAdd' op expects C with i8 or ui8 elements, got 'tensor<4xf32>'}}
  %0 = onnx.QLinearAdd(%a, %s, %a, %s, %s) : (tensor<4xui8>, tensor<f32>, tensor<4xui8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qlinear_gap_channels_last(%x: tensor<1x4x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<1x4x1x1xui8> {
  // expected-error @+1 {{'onnx.QLinearGlobalAveragePool' op expects channels_last 0 or 1, got 2}}
  %0 = onnx.QLinearGlobalAveragePool(%x, %s, %zp, %s, %zp) {channels_last = 2 : i64} : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x1x1xui8>
  return %0 : tensor<1x4x1x1xui8>
}

// -----

func.func @qlinear_gap_rank(%x: tensor<4x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4x1xui8> {
  // expected-error @+1 {{'onnx.QLinearGlobalAveragePool' op expects an input of rank >= 3, got rank 2}}
  %0 = onnx.QLinearGlobalAveragePool(%x, %s, %zp, %s, %zp) : (tensor<4x8xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4x1xui8>
  return %0 : tensor<4x1xui8>
}

// -----

func.func @qlinear_gap_y_zero_point(%x: tensor<1x4x8x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %izp: tensor<i8>) -> tensor<1x4x1x1xui8> {
  // expected-error @+1 {{'onnx.QLinearGlobalAveragePool' op expects its zero point and Y to have the same element type, got 'i8' and 'ui8'}}
  %0 = onnx.QLinearGlobalAveragePool(%x, %s, %zp, %s, %izp) : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<i8>) -> tensor<1x4x1x1xui8>
  return %0 : tensor<1x4x1x1xui8>
}

// -----

func.func @matmul_integer_result(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>) -> tensor<2x4xi64> {
  // expected-error @+1 {{'onnx.MatMulInteger' op expects an i32 result, got 'tensor<2x4xi64>'}}
  %0 = onnx.MatMulInteger(%a, %b) : (tensor<2x3xui8>, tensor<3x4xi8>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}

// -----

func.func @matmul_integer_a(%a: tensor<2x3xf32>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'onnx.MatMulInteger' op expects A with i8 or ui8 elements, got 'tensor<2x3xf32>'}}
  %0 = onnx.MatMulInteger(%a, %b) : (tensor<2x3xf32>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @matmul_integer_b_zero_point(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>, %zp: tensor<ui8>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'onnx.MatMulInteger' op expects its zero point and B to have the same element type, got 'ui8' and 'i8'}}
  %0 = onnx.MatMulInteger(%a, %b) b_zero_point(%zp) : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<ui8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @conv_integer_result(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{'onnx.ConvInteger' op expects an i32 result, got 'tensor<1x2x3x3xf32>'}}
  %0 = onnx.ConvInteger(%x, %w) : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @conv_integer_group(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x3x3xi32> {
  // expected-error @+1 {{'onnx.ConvInteger' op expects input channels (3) = weight channels (3) * group (3)}}
  %0 = onnx.ConvInteger(%x, %w) {group = 3 : i64} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @conv_integer_x_zero_point(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xi8>, %zp: tensor<i8>) -> tensor<1x2x3x3xi32> {
  // expected-error @+1 {{'onnx.ConvInteger' op expects its zero point and x to have the same element type, got 'i8' and 'ui8'}}
  %0 = onnx.ConvInteger(%x, %w) x_zero_point(%zp) : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xi8>, tensor<i8>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

// Checks ODS generates from the op definitions.

func.func @unary_result_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'onnx.Relu' op requires the same type for all operands and results}}
  %0 = onnx.Relu(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @max_pool_kernel_shape_required(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op requires attribute 'kernel_shape'}}
  %0 = onnx.MaxPool(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @cast_to_required(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Cast' op requires attribute 'to'}}
  %0 = onnx.Cast(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Constant' op failed to verify that all of {value, output} have same type}}
  %0 = "onnx.Constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @clip_segment_sizes(%x: tensor<4xf32>, %m: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Clip' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'}}
  %0 = "onnx.Clip"(%x, %m) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qgemm_float_bias(%a: tensor<2x3xui8>, %s: tensor<f32>, %za: tensor<ui8>, %b: tensor<3x4xi8>, %zb: tensor<i8>, %c: tensor<4xf32>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QGemm' op expects an i32 bias C, got 'tensor<4xf32>'}}
  %0 = onnx.QGemm(%a, %s, %za, %b, %s, %zb) C(%c) y_scale(%s) y_zero_point(%za) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @qgemm_zero_point_without_scale(%a: tensor<2x3xui8>, %s: tensor<f32>, %za: tensor<ui8>, %b: tensor<3x4xi8>, %zb: tensor<i8>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QGemm' op expects y_scale with y_zero_point}}
  %0 = onnx.QGemm(%a, %s, %za, %b, %s, %zb) y_zero_point(%za) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<ui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @isnan_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.IsNaN' op expects the result to have bool (i1) elements, got 'f32'}}
  %0 = onnx.IsNaN(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @isinf_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.IsInf' op expects the result to have bool (i1) elements, got 'i8'}}
  %0 = onnx.IsInf(%x) : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

func.func @mod_broadcast(%a: tensor<2x3xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'onnx.Mod' op expects broadcast-compatible operands, got 'tensor<2x3xi32>' and 'tensor<4xi32>'}}
  %0 = onnx.Mod(%a, %b) : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @mod_float_fmod(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Mod' op expects fmod = 1 for floating-point operands}}
  %0 = onnx.Mod(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @prelu_broadcast(%x: tensor<2x3xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.PRelu' op expects broadcast-compatible operands, got 'tensor<2x3xf32>' and 'tensor<2xf32>'}}
  %0 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @equal_result(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Equal' op expects the result to have bool (i1) elements, got 'f32'}}
  %0 = onnx.Equal(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @greater_broadcast(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Greater' op expects broadcast-compatible operands, got 'tensor<4xf32>' and 'tensor<3xf32>'}}
  %0 = onnx.Greater(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @and_operand(%a: tensor<4xi8>, %b: tensor<4xi1>) {
  // expected-error @+1 {{'onnx.And' op expects A to have bool (i1) elements, got 'i8'}}
  %0 = onnx.And(%a, %b) : (tensor<4xi8>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @or_operand(%a: tensor<4xi1>, %b: tensor<4xi8>) {
  // expected-error @+1 {{'onnx.Or' op expects B to have bool (i1) elements, got 'i8'}}
  %0 = onnx.Or(%a, %b) : (tensor<4xi1>, tensor<4xi8>) -> tensor<4xi1>
  return
}

// -----

func.func @xor_broadcast(%a: tensor<4xi1>, %b: tensor<3xi1>) {
  // expected-error @+1 {{'onnx.Xor' op expects broadcast-compatible operands, got 'tensor<4xi1>' and 'tensor<3xi1>'}}
  %0 = onnx.Xor(%a, %b) : (tensor<4xi1>, tensor<3xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @where_condition(%c: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Where' op expects condition to have bool (i1) elements, got 'f32'}}
  %0 = onnx.Where(%c, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_types(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'onnx.Where' op expects X and Y to have the same element type, got 'f32' and 'i32'}}
  %0 = onnx.Where(%c, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_broadcast(%c: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.Where' op expects broadcast-compatible operands, got 'tensor<3xi1>' and 'tensor<4xf32>'}}
  %0 = onnx.Where(%c, %x, %x) : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @max_no_input() {
  // expected-error @+1 {{'onnx.Max' op expects at least one input}}
  %0 = onnx.Max() : () -> tensor<4xf32>
  return
}

// -----

func.func @sum_broadcast(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Sum' op expects broadcast-compatible operands, got 'tensor<3xf32>' and 'tensor<4xf32>'}}
  %0 = onnx.Sum(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_max_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ReduceMax' op expects axes in [-2, 1] for rank 2, got 2}}
  %0 = onnx.ReduceMax(%x) {axes = [2]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_l2_duplicate_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ReduceL2' op expects unique axes, got -1 twice}}
  %0 = onnx.ReduceL2(%x) {axes = [1, -1]} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @reduce_sum_axes_type(%x: tensor<2x3xf32>, %axes: tensor<1xf32>) {
  // expected-error @+1 {{'onnx.ReduceSum' op expects axes to be a 1-D integer tensor, got 'tensor<1xf32>'}}
  %0 = onnx.ReduceSum(%x, %axes) : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @argmax_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMax' op expects an int64 result}}
  %0 = onnx.ArgMax(%x) : (tensor<2x3xf32>) -> tensor<1x3xi32>
  return
}

// -----

func.func @argmin_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMin' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.ArgMin(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return
}

// -----

func.func @logsoftmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.LogSoftmax' op expects axis in [-2, 1] for rank 2, got -3}}
  %0 = onnx.LogSoftmax(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @hardmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Hardmax' op expects axis in [-2, 1] for rank 2, got 2}}
  %0 = onnx.Hardmax(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @trilu_rank(%x: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Trilu' op expects input of rank >= 2, got rank 1}}
  %0 = onnx.Trilu(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @trilu_k(%x: tensor<3x3xf32>, %k: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Trilu' op expects k to be a scalar, got 'tensor<2xi64>'}}
  %0 = onnx.Trilu(%x, %k) : (tensor<3x3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return
}

// -----

func.func @constant_of_shape_value(%s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.ConstantOfShape' op expects a one-element value, got 'tensor<2xf32>'}}
  %0 = onnx.ConstantOfShape(%s) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @constant_of_shape_type(%s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.ConstantOfShape' op expects a result of the value's element type 'i64', got 'tensor<?x?xf32>'}}
  %0 = onnx.ConstantOfShape(%s) {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @constant_of_shape_input(%s: tensor<2x2xi64>) {
  // expected-error @+1 {{'onnx.ConstantOfShape' op expects input to be a 1-D integer tensor, got 'tensor<2x2xi64>'}}
  %0 = onnx.ConstantOfShape(%s) : (tensor<2x2xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @range_not_scalar(%a: tensor<2xi64>, %b: tensor<i64>) {
  // expected-error @+1 {{'onnx.Range' op expects start to be a scalar, got 'tensor<2xi64>'}}
  %0 = onnx.Range(%a, %b, %b) : (tensor<2xi64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @range_types(%a: tensor<i64>, %b: tensor<f32>) {
  // expected-error @+1 {{'onnx.Range' op expects start and delta to have the same element type, got 'i64' and 'f32'}}
  %0 = onnx.Range(%a, %a, %b) : (tensor<i64>, tensor<i64>, tensor<f32>) -> tensor<?xi64>
  return
}

// -----

func.func @expand_shape(%x: tensor<3xf32>, %s: tensor<1x2xi64>) {
  // expected-error @+1 {{'onnx.Expand' op expects shape to be a 1-D integer tensor, got 'tensor<1x2xi64>'}}
  %0 = onnx.Expand(%x, %s) : (tensor<3xf32>, tensor<1x2xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @gelu_approximation(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Gelu' op expects approximate none or tanh, got 'fast'}}
  %0 = onnx.Gelu(%x) {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_elements_rank(%x: tensor<2x3xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.GatherElements' op expects indices of the data's rank 2, got 'tensor<2xi64>'}}
  %0 = onnx.GatherElements(%x, %i) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @topk_k_too_large(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xi64>) {
  %k = onnx.Constant dense<4> : tensor<1xi64>
  // expected-error @+1 {{'onnx.TopK' op expects one K in [0, 3]}}
  %v, %i = onnx.TopK(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %v, %i : tensor<*xf32>, tensor<*xi64>
}

// -----

func.func @topk_indices_type(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi32>) {
  // expected-error @+1 {{'onnx.TopK' op expects int64 indices}}
  %v, %i = onnx.TopK(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi32>)
  return %v, %i : tensor<*xf32>, tensor<*xi32>
}

// -----

func.func @topk_largest(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>) {
  // expected-error @+1 {{'onnx.TopK' op expects largest 0 or 1, got 2}}
  %v, %i = onnx.TopK(%x, %k) {largest = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %v, %i : tensor<*xf32>, tensor<*xi64>
}

// -----

func.func @scatternd_updates_shape(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'onnx.ScatterND' op expects updates of shape 2x5, got 2x4}}
  %0 = onnx.ScatterND(%x, %i, %u) : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatternd_long_tuples(%x: tensor<4x5xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'onnx.ScatterND' op expects index tuples of at most the data's rank 2}}
  %0 = onnx.ScatterND(%x, %i, %u) : (tensor<4x5xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatternd_reduction(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %u: tensor<2x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'onnx.ScatterND' op expects reduction none, add, mul, max or min, got 'sum'}}
  %0 = onnx.ScatterND(%x, %i, %u) {reduction = "sum"} : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_elements_updates(%x: tensor<4x5xf32>, %i: tensor<2x5xi64>, %u: tensor<2x4xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'onnx.ScatterElements' op expects updates of the indices' shape 2x5, got 2x4}}
  %0 = onnx.ScatterElements(%x, %i, %u) : (tensor<4x5xf32>, tensor<2x5xi64>, tensor<2x4xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_elements_type(%x: tensor<4x5xf32>, %i: tensor<2x5xi64>, %u: tensor<2x5xf16>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'onnx.ScatterElements' op expects data and updates to have the same element type, got 'f32' and 'f16'}}
  %0 = onnx.ScatterElements(%x, %i, %u) : (tensor<4x5xf32>, tensor<2x5xi64>, tensor<2x5xf16>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @tile_repeats(%x: tensor<2x3xf32>, %r: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Tile' op expects one repeat per axis (2), got 3}}
  %0 = onnx.Tile(%x, %r) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Einsum' op equation 'ij,jk->ik': has 2 input terms for 1 inputs}}
  %0 = onnx.Einsum(%a) {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Einsum' op equation 'ijk->i': term 'ijk' does not match an operand of rank 2}}
  %0 = onnx.Einsum(%a) {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Einsum' op equation 'ij,jk->ik': inputs give one label different sizes}}
  %0 = onnx.Einsum(%a, %b) {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @group_norm_groups(%x: tensor<1x6x4xf32>, %s: tensor<6xf32>) -> tensor<1x6x4xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op expects num_groups dividing the 6 channels, got 4}}
  %0 = onnx.GroupNormalization(%x, %s, %s) {num_groups = 4 : i64} : (tensor<1x6x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// -----

func.func @instance_norm_scale(%x: tensor<1x6x4xf32>, %s: tensor<3xf32>) -> tensor<1x6x4xf32> {
  // expected-error @+1 {{'onnx.InstanceNormalization' op expects a scale and bias of one element per channel, got 'tensor<3xf32>'}}
  %0 = onnx.InstanceNormalization(%x, %s, %s) : (tensor<1x6x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// -----

// A window larger than the padded input has no output position: said at the
// op (it used to surface as a failed shape rule or a failed legalization).
func.func @conv_kernel_larger_than_input(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x5x5xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error @+1 {{'onnx.Conv' op has a window larger than its padded input in spatial dimension 0: kernel 5 with dilation 1 spans 5, the input is 3 with pads 0 + 0}}
  %0 = onnx.Conv(%x, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x5x5xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @pool_dilated_window_larger_than_input(%x: tensor<1x1x8x4xf32>) -> tensor<1x1x4x1xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op has a window larger than its padded input in spatial dimension 1: kernel 3 with dilation 2 spans 5, the input is 4 with pads 0 + 0}}
  %0 = onnx.MaxPool(%x) {kernel_shape = [3, 3], dilations = [2, 2]} : (tensor<1x1x8x4xf32>) -> tensor<1x1x4x1xf32>
  return %0 : tensor<1x1x4x1xf32>
}
