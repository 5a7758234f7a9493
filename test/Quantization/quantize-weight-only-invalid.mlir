// RUN: onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4" -verify-diagnostics -split-input-file
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only activations=s8" -split-input-file 2>&1 | FileCheck %s --check-prefix=ACT
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only symmetric-activations" -split-input-file 2>&1 | FileCheck %s --check-prefix=SYM
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only reduce-range" -split-input-file 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only report=r.txt" -split-input-file 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only sqnr-floor=30" -split-input-file 2>&1 | FileCheck %s --check-prefix=FLOOR
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only op-types=MatMul,Add" -split-input-file 2>&1 | FileCheck %s --check-prefix=OPTYPES
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4 block-size=24" -split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK24
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4 block-size=8" -split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK8
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4 block-size=32 per-channel=false" -split-input-file 2>&1 | FileCheck %s --check-prefix=PERTENSOR
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s16 block-size=32" -split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK16
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=ewq bits=5" -split-input-file 2>&1 | FileCheck %s --check-prefix=BITS5
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=s4 bits=4" -split-input-file 2>&1 | FileCheck %s --check-prefix=BITSUNIFORM
// RUN: not onnx-quant-opt %s --onnx-quantize="weights=ewq" -split-input-file 2>&1 | FileCheck %s --check-prefix=EWQSTATIC
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=weight-only weights=fastewq block-size=32" -split-input-file 2>&1 | FileCheck %s --check-prefix=EWQBLOCK
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic weights=s4" -split-input-file 2>&1 | FileCheck %s --check-prefix=DYN4
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic block-size=32" -split-input-file 2>&1 | FileCheck %s --check-prefix=DYNBLOCK

// mode=weight-only and 4-bit / blocked weights: the combinations that have
// no meaning are errors naming the option.
// ACT: error: onnx-quantize: mode=weight-only: activations=s8 does not apply: activations stay float
// SYM: error: onnx-quantize: mode=weight-only: symmetric-activations does not apply: activations stay float
// REDUCE: error: onnx-quantize: mode=weight-only: reduce-range does not apply: it keeps int8 products from overflowing 16 bits, and weight-only arithmetic is float
// REPORT: error: onnx-quantize: mode=weight-only: report= is for mode=static; measure a weight-only model with onnx-quant-debug FLOAT.onnx QUANT.onnx --data=DIR
// FLOOR: error: onnx-quantize: mode=weight-only: sqnr-floor= is for mode=static (no layer measured, none kept in float); use exclude= to keep layers in float
// OPTYPES: error: onnx-quantize: mode=weight-only: op-types: 'Add' is not quantized by mode=weight-only (it quantizes Conv, ConvTranspose, Gemm, MatMul)
// BLOCK24: error: onnx-quantize: block-size=24 must be a power of 2 from 16 (0: per channel)
// BLOCK8: error: onnx-quantize: block-size=8 must be a power of 2 from 16 (0: per channel)
// PERTENSOR: error: onnx-quantize: block-size= gives each block of a channel its own scale; per-channel=false asks for one scale per tensor
// BLOCK16: error: onnx-quantize: block-size= is for 4- and 8-bit weights; weights=s16 is quantized per channel
// BITS5: error: onnx-quantize: bits=5 must be 4 or 8
// BITSUNIFORM: error: onnx-quantize: bits= is for weights=ewq|fastewq; the other weight types carry their width (s4, s8, ...)
// EWQSTATIC: error: onnx-quantize: weights=ewq is a codebook of float levels: quantize it with mode=weight-only
// EWQBLOCK: error: onnx-quantize: block-size= does not apply to weights=fastewq (a codebook per channel, or per tensor with per-channel=false)
// DYN4: error: onnx-quantize: mode=dynamic: weights=s4 does not apply: ConvInteger and MatMulInteger take 8-bit weights (s8 or u8)
// DYNBLOCK: error: onnx-quantize: mode=dynamic: block-size= does not apply: the product is rescaled once per output channel (quantize 4-bit or blocked weights with mode=weight-only or mode=static)

// Calibrated ranges: static quantization's input, not weight-only's.
// expected-error @+1 {{onnx-quantize: mode=weight-only: the graph has calibrated ranges, which mode=weight-only does not use; drop --onnx-calibrate / --onnx-annotate-ranges, or quantize with mode=static}}
module {
  func.func @f(%x: tensor<1x2xf32> {onnx.range = array<f32: 0.0, 1.0>}) -> tensor<1x2xf32> {
    %w = onnx.Constant dense<1.0> : tensor<2x2xf32>
    %y = onnx.Gemm(%x, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
    return %y : tensor<1x2xf32>
  }
}
