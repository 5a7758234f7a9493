// RUN: onnx-quant-opt %s --onnx-quantize="mode=dynamic" -verify-diagnostics -split-input-file
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynmic" -split-input-file 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic activations=s8" -split-input-file 2>&1 | FileCheck %s --check-prefix=ACT
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic symmetric-activations" -split-input-file 2>&1 | FileCheck %s --check-prefix=SYM
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic activations=u16" -split-input-file 2>&1 | FileCheck %s --check-prefix=ACT16
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic weights=s16" -split-input-file 2>&1 | FileCheck %s --check-prefix=W16
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic report=r.txt" -split-input-file 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic report-data=dir" -split-input-file 2>&1 | FileCheck %s --check-prefix=DATA
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic report-samples=4" -split-input-file 2>&1 | FileCheck %s --check-prefix=SAMPLES
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic sqnr-floor=30" -split-input-file 2>&1 | FileCheck %s --check-prefix=FLOOR
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic max-float-layers=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=MAXFLOAT
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic op-types=Conv,Add" -split-input-file 2>&1 | FileCheck %s --check-prefix=OPTYPES
// RUN: not onnx-quant-opt %s --onnx-quantize="mode=dynamic exclude=gem" -split-input-file 2>&1 | FileCheck %s --check-prefix=EXCLUDE

// MODE: error: onnx-quantize: mode='dynmic' is not one of static, dynamic
// ACT: error: onnx-quantize: mode=dynamic: activations=s8 does not apply: activations are quantized when the model runs, to u8 from their own range (DynamicQuantizeLinear)
// SYM: error: onnx-quantize: mode=dynamic: symmetric-activations does not apply
// ACT16: error: onnx-quantize: mode=dynamic: activations=u16 does not apply
// W16: error: onnx-quantize: mode=dynamic: weights=s16 does not apply: ConvInteger and MatMulInteger take 8-bit weights (s8 or u8)
// REPORT: error: onnx-quantize: mode=dynamic: report= is for mode=static; measure a dynamic model with onnx-quant-debug FLOAT.onnx QUANT.onnx --data=DIR
// DATA: error: onnx-quantize: mode=dynamic: report-data= is for mode=static
// SAMPLES: error: onnx-quantize: mode=dynamic: report-samples= is for mode=static (no layer measured, none kept in float); use exclude= to keep layers in float
// FLOOR: error: onnx-quantize: mode=dynamic: sqnr-floor= is for mode=static
// MAXFLOAT: error: onnx-quantize: mode=dynamic: max-float-layers= is for mode=static
// OPTYPES: error: onnx-quantize: mode=dynamic: op-types: 'Add' is not quantized by mode=dynamic (it quantizes Conv, MatMul, Gemm)
// EXCLUDE: error: onnx-quantize: exclude: no node named 'gem'; did you mean 'gemm'?

// Calibrated ranges: static quantization's input, not dynamic's.
// expected-error @+1 {{onnx-quantize: mode=dynamic: the graph has calibrated ranges, which mode=dynamic does not use; drop --onnx-calibrate / --onnx-annotate-ranges, or quantize with mode=static}}
module {
  func.func @f(%x: tensor<1x2xf32> {onnx.range = array<f32: 0.0, 1.0>}) -> tensor<1x2xf32> {
    %w = onnx.Constant dense<1.0> : tensor<2x2xf32>
    %y = onnx.Gemm(%x, %w) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
    return %y : tensor<1x2xf32>
  }
}
