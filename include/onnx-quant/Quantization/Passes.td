//===- Passes.td - quantization passes ---------------------*- tablegen -*-===//
//
// `onnx-quantize` makes the QDQ form from a calibrated float graph (lib/
// Quantization). The QDQ form and ONNX Runtime's QOperator form convert into
// each other with `onnx-fuse-qdq` and `onnx-qoperator-to-qdq` (lib/
// Quantization/QDQ, a library of its own: the native lowering runs them, and
// onnx-quantize's report runs the native lowering).
//
//===----------------------------------------------------------------------===//

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
    Pad, MaxPool) reuse their input's scale, and an output only a quantized
    Concat reads takes the Concat's (so the Concat moves integers and each
    value is rounded once). Ops that are not quantized stay
    in float between DequantizeLinear and QuantizeLinear. See
    docs/quantization.md for the parameters and the rounding.

    `report=FILE` writes, for every quantized layer, the SQNR of its weights
    and of its output activation (ONNX Runtime's qdq_loss_debug definition,
    20 log10(|x| / |x - x_q|) dB: the float graph and the quantized graph
    run on `report-samples` samples of `report-data`, by default the data
    `--onnx-calibrate` used; accumulated along the graph as compiled, and
    local to the layer's output Q/DQ in a fake-quant run), worst first, and
    why each other op stayed float; a table, JSON when FILE ends in
    `.json`, or one self-contained HTML page with charts (SQNR per layer,
    each activation's histogram and range, weight ranges per channel, the
    fallback's steps) when it ends in `.html`. `report-labels=FILE` adds
    the float and int8 top-1 on the labeled samples.

    `sqnr-floor=DB` and `max-float-layers=N` keep in float the layers that
    cost the most accuracy: each quantized layer is measured alone in float
    (the graph compiled as --emit=obj compiles it and run on the samples of
    `report-data`, the SQNR of the model's outputs against the float
    model's), and the ones that help are kept in float greedily, best first,
    each re-measured with those kept before it, until the output SQNR
    reaches the floor or N layers are kept. The report lists them with what
    each gained and cost in run time. Measure on samples the model was not
    calibrated on: on its own calibration samples a range clips nothing.

    `mode=dynamic` needs no calibration: as ONNX Runtime's quantize_dynamic,
    the weights of Conv, MatMul and Gemm are quantized offline and their
    input is quantized when the model runs (DynamicQuantizeLinear: u8 from
    the tensor's own range), the product accumulated by ConvInteger or
    MatMulInteger in int32 and rescaled to float; everything else stays
    float. The options of static quantization (activation types, report=,
    the fallback) do not apply and are errors with it.

    `mode=weight-only` needs no calibration either: only the weights of
    Conv, ConvTranspose, Gemm and MatMul are quantized (a constant and a
    DequantizeLinear), the arithmetic stays float; with `weights=s4|u4` the
    object holds two weights a byte. `block-size=N` gives every N weights
    along the reduction axis their own scale (ONNX's blocked
    DequantizeLinear, opset 21), for 4-bit weights above all.
    `weights=ewq|fastewq bits=4|8` (weight-only) replaces each weight by the
    index of one of 2^bits levels that each stand for as many of its
    channel's weights (EWQ: by sorting; FastEWQ: from a histogram), the op
    reading Gather(levels, indices).
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"static\"",
           "static (calibrated Q/DQ pairs) | dynamic (activations quantized at run time, ORT's quantize_dynamic) | weight-only (float activations)">,
    Option<"activations", "activations", "std::string", /*default=*/"\"u8\"",
           "u8 | s8 | u16 | s16: activation element type (u8 suits x86 VNNI's u8 x s8; 16 bits: float arithmetic between Q/DQ, as ORT)">,
    Option<"weights", "weights", "std::string", /*default=*/"\"s8\"",
           "s8 | u8 | s16 | u16 | s4 | u4: weight element type (16 bits: float arithmetic, as ORT; 4 bits: packed two a byte); ewq | fastewq: equal-population codebooks of bits= levels (mode=weight-only)">,
    Option<"bits", "bits", "unsigned", /*default=*/"4",
           "weights=ewq|fastewq: 4 or 8 bits an index (16 or 256 levels per channel)">,
    Option<"blockSize", "block-size", "int64_t", /*default=*/"0",
           "one weight scale per block of this many weights along the reduction axis (a power of 2 from 16; 0: per channel)">,
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
           "write the per-layer SQNR report to this file (JSON when it ends in .json, an HTML page with charts in .html)">,
    Option<"reportData", "report-data", "std::string", /*default=*/"\"\"",
           "samples the report runs to measure activation SQNR (the formats of --onnx-calibrate's data=); default: the calibration's data">,
    Option<"reportSamples", "report-samples", "int64_t", /*default=*/"8",
           "how many samples the report runs (a seeded subset)">,
    Option<"reportPreprocess", "report-preprocess", "std::string",
           /*default=*/"\"\"",
           "image preprocessing for report-data (as --onnx-calibrate's preprocess=); default: the calibration's">,
    Option<"reportLabels", "report-labels", "std::string", /*default=*/"\"\"",
           "a file of 'SAMPLE CLASS' lines (a sample's file name in report-data, its class index): the report gives float and int8 top-1">,
    Option<"sqnrFloor", "sqnr-floor", "double", /*default=*/"0.0",
           "keep layers in float, fewest first, until the model outputs' SQNR against the float model reaches this many dB on report-data (0: off)">,
    Option<"maxFloatLayers", "max-float-layers", "int64_t", /*default=*/"-1",
           "keep at most this many layers in float (alone: the N that raise the output SQNR most; -1: no limit)">,
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "no report summary on stderr">,
  ];
}

def QOperatorToQDQPass : Pass<"onnx-qoperator-to-qdq", "func::FuncOp"> {
  let summary = "Rewrite QLinear* (QOperator) ops into the QDQ form";
  let description = [{
    Models quantized in ONNX Runtime's QOperator format (QLinearConv,
    QLinearMatMul, com.microsoft QLinearAdd and QLinearGlobalAveragePool)
    become the same QDQ form `--onnx-quantize` produces: DequantizeLinear of
    every quantized input (weights per output channel where their scale is
    1-D; a QLinearConv int32 bias with scale x_scale * w_scale), the float
    op, and a QuantizeLinear with the output's scale and zero point (e.g. to
    export a QOperator model as QDQ). The native lowering runs it with
    `runtime-parameters-only` for the QLinear ops its integer lowering cannot
    take: weights, scales or zero points computed at run time, and
    QLinearConcat (always: it has no integer lowering of its own).
  }];
  let options = [
    Option<"runtimeParametersOnly", "runtime-parameters-only", "bool",
           /*default=*/"false",
           "rewrite only ops whose weights, scales or zero points are not constants (and QLinearConcat)">,
  ];
}

def FuseQDQPass : Pass<"onnx-fuse-qdq", "func::FuncOp"> {
  let summary = "Fuse DequantizeLinear -> op -> QuantizeLinear islands into integer ops";
  let description = [{
    The QDQ form says which tensors are quantized; this pass makes the ops
    between them compute on the integers, the way ONNX Runtime executes QDQ
    models. Each island becomes the QOperator op with the same semantics:
    Conv -> QLinearConv, Gemm -> com.microsoft QGemm, MatMul with constant
    weights -> QLinearMatMul, Add -> com.microsoft QLinearAdd,
    GlobalAveragePool -> com.microsoft QLinearGlobalAveragePool (a Relu
    between the op and its QuantizeLinear becomes a Max with the output zero
    point). Concat quantizes each input to the output's parameters.
    DequantizeLinear moves below the ops that only move or select values
    (Reshape, Flatten, Transpose, Squeeze, Unsqueeze, MaxPool, Relu), so
    they run on the integers too, and a QuantizeLinear of a
    DequantizeLinear with the same parameters disappears (with other
    parameters it is a requantization, lowered without floating point).
    Islands whose weights or bias are not constants, or whose bias scale is
    not `s_input * s_weight`, stay in float. Part of the native lowering
    (`--emit=obj`); the result is still a valid ONNX graph.
  }];
}

def LookupTablesPass : Pass<"onnx-lookup-tables", "func::FuncOp"> {
  let summary = "Replace float islands of one 8-bit input by a 256-entry table";
  let description = [{
    An activation kept in float between quantized tensors (SiLU as
    DQ -> Sigmoid -> Q -> DQ -> Mul -> Q, Hardswish, Tanh, LeakyRelu, ...)
    costs an exponential and several divisions per element. When every op
    between a QuantizeLinear and the 8-bit tensor it derives from is
    element-wise (the `Pointwise` ops, per-tensor QuantizeLinear and
    DequantizeLinear, scalar constants), the island is a function of one
    byte: it becomes a `Gather` from a 256-entry table, and the table is
    the same island applied to the 256 possible bytes, so every element
    gets the integers the island computed, at the cost of a table lookup.
    The tables are computed when the model runs (256 elements each) by the
    same generated code the island compiled to, not by the compiler, so the
    results stay those of the island bit for bit. Islands are taken
    largest first: a QuantizeLinear inside a larger island becomes part of
    that island's table. Part of the native lowering (`--emit=obj`); the
    result is still a valid ONNX graph.
  }];
}

#endif // ONNXQUANT_QUANTIZATION_PASSES_TD
