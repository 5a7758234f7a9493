//===- ONNXQuantOps.td - QDQ and QOperator ops -------------*- tablegen -*-===//
//
// QuantizeLinear/DequantizeLinear are the QDQ form our own quantizer produces.
// The QLinear*/…Integer ops are the QOperator form of models quantized by
// other tools; QLinearAdd and QLinearGlobalAveragePool are `com.microsoft`.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXQUANTOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXQUANTOPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"

def ONNX_QuantizeLinearOp : ONNX_Op<"QuantizeLinear"> {
  let summary = "saturate(round(x / y_scale) + y_zero_point), per tensor or per axis";
  let arguments = (ins AnyTensor:$x, AnyTensor:$y_scale,
                   Optional<AnyTensor>:$y_zero_point,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$axis);
  let results = (outs AnyTensor:$y);
}

def ONNX_DequantizeLinearOp : ONNX_Op<"DequantizeLinear"> {
  let summary = "(x - x_zero_point) * x_scale, per tensor, per axis or per block";
  let description = [{
    Opset 21 form. With `block_size` > 0 the scale (and zero point) has x's
    rank, and element i along `axis` takes the parameters of block
    i / block_size (the other dimensions match x's). x may be 4-bit (int4,
    uint4): the weights of 4-bit quantization.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$x_scale,
                   Optional<AnyTensor>:$x_zero_point,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$block_size);
  let results = (outs AnyTensor:$y);
}

def ONNX_DynamicQuantizeLinearOp : ONNX_Op<"DynamicQuantizeLinear"> {
  let summary = "x to uint8 with a scale and zero point from its own range";
  let description = [{
    What ONNX Runtime's dynamic quantization puts before MatMulInteger and
    ConvInteger: with lo = min(min(x), 0) and hi = max(max(x), 0),
    y_scale = (hi - lo) / 255 (1 when hi == lo, as ONNX Runtime),
    y_zero_point = round(saturate(-lo / y_scale)) and
    y = saturate(round(x / y_scale) + y_zero_point), rounding half to even.
  }];
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$y, AnyTensor:$y_scale, AnyTensor:$y_zero_point);
}

def ONNX_QLinearConvOp : ONNX_Op<"QLinearConv"> {
  let summary = "convolution on quantized tensors with requantized output";
  let arguments = (ins AnyTensor:$x, AnyTensor:$x_scale, AnyTensor:$x_zero_point,
                   AnyTensor:$w, AnyTensor:$w_scale, AnyTensor:$w_zero_point,
                   AnyTensor:$y_scale, AnyTensor:$y_zero_point,
                   Optional<AnyTensor>:$B,
                   AutoPadAttr:$auto_pad, OptInts:$dilations,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
                   OptInts:$kernel_shape, OptInts:$pads, OptInts:$strides);
  let results = (outs AnyTensor:$y);
}

def ONNX_QLinearMatMulOp : ONNX_Op<"QLinearMatMul"> {
  let summary = "matmul on quantized tensors with requantized output";
  let arguments = (ins AnyTensor:$a, AnyTensor:$a_scale, AnyTensor:$a_zero_point,
                   AnyTensor:$b, AnyTensor:$b_scale, AnyTensor:$b_zero_point,
                   AnyTensor:$y_scale, AnyTensor:$y_zero_point);
  let results = (outs AnyTensor:$y);
}

def ONNX_QLinearAddOp : ONNX_Op<"QLinearAdd",
    [MicrosoftDomain, AttrSizedOperandSegments]> {
  let summary = "com.microsoft: broadcast add of quantized tensors";
  let arguments = (ins AnyTensor:$A, AnyTensor:$A_scale,
                   Optional<AnyTensor>:$A_zero_point,
                   AnyTensor:$B, AnyTensor:$B_scale,
                   Optional<AnyTensor>:$B_zero_point,
                   AnyTensor:$C_scale, Optional<AnyTensor>:$C_zero_point);
  let results = (outs AnyTensor:$C);
  let assemblyFormat = [{
    `(` $A `,` $A_scale `,` $B `,` $B_scale `,` $C_scale `)`
    (`A_zero_point` `(` $A_zero_point^ `)`)?
    (`B_zero_point` `(` $B_zero_point^ `)`)?
    (`C_zero_point` `(` $C_zero_point^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def ONNX_QLinearGlobalAveragePoolOp : ONNX_Op<"QLinearGlobalAveragePool",
    [MicrosoftDomain]> {
  let summary = "com.microsoft: global average pooling of a quantized tensor";
  let arguments = (ins AnyTensor:$X, AnyTensor:$x_scale, AnyTensor:$x_zero_point,
                   AnyTensor:$y_scale, AnyTensor:$y_zero_point,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$channels_last);
  let results = (outs AnyTensor:$Y);
}

def ONNX_QLinearConcatOp : ONNX_Op<"QLinearConcat", [MicrosoftDomain]> {
  let summary = "com.microsoft: quantized tensors concatenated, each requantized to Y's scale";
  let description = [{
    `inputs` are (tensor, scale, zero point) triples. Lowered as
    DequantizeLinear of each tensor, Concat, QuantizeLinear
    (--onnx-qoperator-to-qdq), which gives ONNX Runtime's integers.
  }];
  let arguments = (ins AnyTensor:$Y_scale, AnyTensor:$Y_zero_point,
                   Variadic<AnyTensor>:$inputs, ONNX_I64Attr:$axis);
  let results = (outs AnyTensor:$Y);
}

def ONNX_QGemmOp : ONNX_Op<"QGemm", [MicrosoftDomain, AttrSizedOperandSegments]> {
  let summary = "com.microsoft: alpha * A' * B' + C on quantized tensors";
  let description = [{
    `C` is an int32 bias with scale `a_scale * b_scale` and zero point 0.
    Without `y_scale` the result is float; with it, requantized to
    `y_zero_point`'s type. `b_scale`/`b_zero_point` may be per column (N).
  }];
  let arguments = (ins AnyTensor:$A, AnyTensor:$a_scale, AnyTensor:$a_zero_point,
                   AnyTensor:$B, AnyTensor:$b_scale, AnyTensor:$b_zero_point,
                   Optional<AnyTensor>:$C, Optional<AnyTensor>:$y_scale,
                   Optional<AnyTensor>:$y_zero_point,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$transA,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$transB);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    `(` $A `,` $a_scale `,` $a_zero_point `,` $B `,` $b_scale `,`
    $b_zero_point `)` (`C` `(` $C^ `)`)? (`y_scale` `(` $y_scale^ `)`)?
    (`y_zero_point` `(` $y_zero_point^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def ONNX_MatMulIntegerOp : ONNX_Op<"MatMulInteger", [AttrSizedOperandSegments]> {
  let summary = "(A - a_zero_point) x (B - b_zero_point) accumulated in int32";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B,
                   Optional<AnyTensor>:$a_zero_point,
                   Optional<AnyTensor>:$b_zero_point);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    `(` $A `,` $B `)` (`a_zero_point` `(` $a_zero_point^ `)`)?
    (`b_zero_point` `(` $b_zero_point^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def ONNX_ConvIntegerOp : ONNX_Op<"ConvInteger", [AttrSizedOperandSegments]> {
  let summary = "convolution of zero-point-corrected integers into int32";
  let arguments = (ins AnyTensor:$x, AnyTensor:$w,
                   Optional<AnyTensor>:$x_zero_point,
                   Optional<AnyTensor>:$w_zero_point,
                   AutoPadAttr:$auto_pad, OptInts:$dilations,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
                   OptInts:$kernel_shape, OptInts:$pads, OptInts:$strides);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    `(` $x `,` $w `)` (`x_zero_point` `(` $x_zero_point^ `)`)?
    (`w_zero_point` `(` $w_zero_point^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXQUANTOPS_TD
