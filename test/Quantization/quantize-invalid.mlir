// RUN: onnx-quant-opt %s --onnx-quantize -verify-diagnostics -split-input-file
// RUN: not onnx-quant-opt %s --onnx-quantize="activations=s4" -split-input-file 2>&1 | FileCheck %s --check-prefix=ACT
// RUN: not onnx-quant-opt %s --onnx-quantize="weights=s3" -split-input-file 2>&1 | FileCheck %s --check-prefix=WEIGHTS
// RUN: not onnx-quant-opt %s --onnx-quantize="op-types=Conv,Softmax" -split-input-file 2>&1 | FileCheck %s --check-prefix=OPTYPES
// RUN: not onnx-quant-opt %s --onnx-quantize="exclude=gem" -split-input-file 2>&1 | FileCheck %s --check-prefix=EXCLUDE

// ACT: error: onnx-quantize: activations='s4' is not one of u8, s8, u16, s16
// WEIGHTS: error: onnx-quantize: weights='s3' is not one of s8, u8, s16, u16, s4, u4
// OPTYPES: error: onnx-quantize: op-types: 'Softmax' cannot be quantized (supported: Conv, ConvTranspose, Gemm
// EXCLUDE: error: onnx-quantize: exclude: no node named 'gem'; did you mean 'gemm'?

// No ranges at all: calibration did not run.
// expected-error @+1 {{onnx-quantize: the graph has no activation ranges; run --onnx-calibrate="data=DIR" or --onnx-annotate-ranges="file=ranges.json" before it}}
module {
  func.func @f(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
    %w = onnx.Constant dense<1.0> : tensor<2x2xf32>
    %y = onnx.Gemm(%x, %w) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
    return %y : tensor<1x2xf32>
  }
}

// -----

// A tensor created after calibration has no range.
module {
  func.func @f(%x: tensor<1x2xf32> {onnx.range = array<f32: 0.0, 1.0>}) -> tensor<1x2xf32> {
    %w = onnx.Constant dense<1.0> : tensor<2x2xf32>
    %y = onnx.Gemm(%x, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
    %n = onnx.Neg(%y) : (tensor<1x2xf32>) -> tensor<1x2xf32> loc("neg")
    // expected-error @+1 {{onnx-quantize: an input of this node has no calibrated range (the result of node 'neg'); calibrate after the passes that change the graph}}
    %z = onnx.Gemm(%n, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    return %z : tensor<1x2xf32>
  }
}
