//===- Passes.td - quantization passes ---------------------*- tablegen -*-===//

#ifndef ONNXQUANT_QUANTIZATION_PASSES_TD
#define ONNXQUANT_QUANTIZATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def QuantizePass : Pass<"onnx-quantize", "ModuleOp"> {
  let summary = "Quantize a range-annotated float graph to QDQ form";
  let description = [{
    Static int8 quantization in the ONNX QDQ form: every activation tensor a
    quantized op reads or writes is followed by a QuantizeLinear and a
    DequantizeLinear with the scale and zero point of its calibrated range
    (`--onnx-calibrate` or `--onnx-annotate-ranges` must run first); weights
    of Conv, ConvTranspose, Gemm and MatMul become int8 constants (per output
    channel by default, symmetric) with a DequantizeLinear; their biases
    become int32 constants with scale `s_input * s_weight`. A Relu (or a Clip
    from 0) after a quantized op is folded into its producer's output range;
    pass-through ops (Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Slice,
    Pad, MaxPool) reuse their input's scale. Ops that are not quantized stay
    in float between DequantizeLinear and QuantizeLinear. See
    docs/quantization.md for the parameters and the rounding.

    `report=FILE` writes, for every quantized layer, the SQNR of its weights
    and of its output activation (ONNX Runtime's qdq_loss_debug definition,
    20 log10(|x| / |x - x_q|) dB: the float graph and the quantized graph
    run on `report-samples` samples of `report-data`, by default the data
    `--onnx-calibrate` used; accumulated along the graph as compiled, and
    local to the layer's output Q/DQ in a fake-quant run), worst first, and
    why each other op stayed float; a table, or JSON when FILE ends in
    `.json`.
  }];
  let options = [
    Option<"activations", "activations", "std::string", /*default=*/"\"u8\"",
           "u8 | s8: activation element type (u8 suits x86 VNNI's u8 x s8)">,
    Option<"weights", "weights", "std::string", /*default=*/"\"s8\"",
           "s8 | u8: weight element type">,
    Option<"perChannel", "per-channel", "bool", /*default=*/"true",
           "one weight scale per output channel">,
    Option<"reduceRange", "reduce-range", "bool", /*default=*/"false",
           "7-bit weights (avoids int16 overflow in some x86 kernels)">,
    Option<"symmetricActivations", "symmetric-activations", "bool",
           /*default=*/"false", "zero point 0 (s8) or 128 (u8) for activations">,
    ListOption<"exclude", "exclude", "std::string",
               "ONNX node names left in float">,
    ListOption<"opTypes", "op-types", "std::string",
               "quantize only these op types (default: all supported)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "write the per-layer SQNR report to this file (JSON when it ends in .json)">,
    Option<"reportData", "report-data", "std::string", /*default=*/"\"\"",
           "samples the report runs to measure activation SQNR (the formats of --onnx-calibrate's data=); default: the calibration's data">,
    Option<"reportSamples", "report-samples", "int64_t", /*default=*/"8",
           "how many samples the report runs (a seeded subset)">,
    Option<"reportPreprocess", "report-preprocess", "std::string",
           /*default=*/"\"\"",
           "image preprocessing for report-data (as --onnx-calibrate's preprocess=); default: the calibration's">,
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "no report summary on stderr">,
  ];
}

#endif // ONNXQUANT_QUANTIZATION_PASSES_TD
