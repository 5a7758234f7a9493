//===- ONNXNNOps.td - neural-network layers ----------------*- tablegen -*-===//
//
// Convolutions, pooling, normalization and softmax: the layers of a CNN
// that are not element-wise.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXNNOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXNNOPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"

def ONNX_ConvOp : ONNX_Op<"Conv"> {
  let summary = "N-d convolution, NCHW input, (M, C/group, k...) weights";
  let arguments = (ins AnyTensor:$X, AnyTensor:$W, Optional<AnyTensor>:$B,
                   AutoPadAttr:$auto_pad, OptInts:$dilations,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
                   OptInts:$kernel_shape, OptInts:$pads, OptInts:$strides);
  let results = (outs AnyTensor:$Y);
}

def ONNX_ConvTransposeOp : ONNX_Op<"ConvTranspose"> {
  let summary = "N-d transposed convolution, (C, M/group, k...) weights";
  let arguments = (ins AnyTensor:$X, AnyTensor:$W, Optional<AnyTensor>:$B,
                   AutoPadAttr:$auto_pad, OptInts:$dilations,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
                   OptInts:$kernel_shape, OptInts:$output_padding,
                   OptInts:$output_shape, OptInts:$pads, OptInts:$strides);
  let results = (outs AnyTensor:$Y);
}

def ONNX_MaxPoolOp : ONNX_Op<"MaxPool"> {
  let summary = "max pooling; the optional second result holds flat indices";
  let arguments = (ins AnyTensor:$X, AutoPadAttr:$auto_pad,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
                   OptInts:$dilations, I64ArrayAttr:$kernel_shape, OptInts:$pads,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$storage_order,
                   OptInts:$strides);
  let results = (outs AnyTensor:$Y, Optional<AnyTensor>:$Indices);
}

// `dilations` is AveragePool-19's (an extension of the opset 17 form).
def ONNX_AveragePoolOp : ONNX_Op<"AveragePool"> {
  let summary = "average pooling";
  let arguments = (ins AnyTensor:$X, AutoPadAttr:$auto_pad,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$count_include_pad,
                   OptInts:$dilations, I64ArrayAttr:$kernel_shape, OptInts:$pads,
                   OptInts:$strides);
  let results = (outs AnyTensor:$Y);
}

def ONNX_GlobalAveragePoolOp : ONNX_Op<"GlobalAveragePool"> {
  let summary = "mean over all spatial dimensions (keeps them as size 1)";
  let arguments = (ins AnyTensor:$X);
  let results = (outs AnyTensor:$Y);
}

def ONNX_GlobalMaxPoolOp : ONNX_Op<"GlobalMaxPool"> {
  let summary = "max over all spatial dimensions (keeps them as size 1)";
  let arguments = (ins AnyTensor:$X);
  let results = (outs AnyTensor:$Y);
}

def ONNX_BatchNormalizationOp : ONNX_Op<"BatchNormalization"> {
  let summary = "per-channel (X - mean) / sqrt(var + epsilon) * scale + B";
  let description = [{
    In inference mode (`training_mode = 0`) there is one result. Training mode
    may have the two running statistics as extra results.
  }];
  let arguments = (ins AnyTensor:$X, AnyTensor:$scale, AnyTensor:$B,
                   AnyTensor:$input_mean, AnyTensor:$input_var,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon,
                   DefaultValuedAttr<F32Attr, "0.9">:$momentum,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$training_mode);
  let results = (outs AnyTensor:$Y, Variadic<AnyTensor>:$running_stats);
}

def ONNX_LayerNormalizationOp : ONNX_Op<"LayerNormalization"> {
  let summary = "normalize over the dimensions from `axis` on";
  let description = [{
    The optional extra results are Mean and InvStdDev, in that order.
  }];
  let arguments = (ins AnyTensor:$X, AnyTensor:$Scale, Optional<AnyTensor>:$B,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$stash_type);
  let results = (outs AnyTensor:$Y, Variadic<AnyTensor>:$stats);
}

def ONNX_InstanceNormalizationOp : ONNX_Op<"InstanceNormalization"> {
  let summary = "normalize each (n, c) over the spatial dims, then scale[c] * x + B[c]";
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale, AnyTensor:$B,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs AnyTensor:$output);
}

// Opset 21's form (scale and bias per channel; the importer spreads opset
// 18's per-group ones), an extension of the opset 17 set.
def ONNX_GroupNormalizationOp : ONNX_Op<"GroupNormalization"> {
  let summary = "normalize each group of C / num_groups channels, then scale[c] * x + bias[c]";
  let arguments = (ins AnyTensor:$X, AnyTensor:$scale, AnyTensor:$bias,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon,
                   ONNX_I64Attr:$num_groups,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$stash_type);
  let results = (outs AnyTensor:$Y);
}

def ONNX_DropoutOp : ONNX_Op<"Dropout", [AttrSizedOperandSegments]> {
  let summary = "random zeroing in training; the identity in inference";
  let arguments = (ins AnyTensor:$data, Optional<AnyTensor>:$ratio,
                   Optional<AnyTensor>:$training_mode,
                   OptionalAttr<ONNX_I64Attr>:$seed);
  let results = (outs AnyTensor:$output, Optional<AnyTensor>:$mask);
  let assemblyFormat = [{
    `(` $data `)` (`ratio` `(` $ratio^ `)`)?
    (`training_mode` `(` $training_mode^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasCanonicalizer = 1;
}

def ONNX_ResizeOp : ONNX_Op<"Resize", [AttrSizedOperandSegments]> {
  let summary = "resize by scales or to sizes (nearest, linear, cubic)";
  let arguments = (ins AnyTensor:$X, Optional<AnyTensor>:$roi,
                   Optional<AnyTensor>:$scales, Optional<AnyTensor>:$sizes,
                   DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
                   DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$exclude_outside,
                   DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value,
                   DefaultValuedStrAttr<StrAttr, "nearest">:$mode,
                   DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:$nearest_mode);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    `(` $X `)` (`roi` `(` $roi^ `)`)? (`scales` `(` $scales^ `)`)?
    (`sizes` `(` $sizes^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
}

def ONNX_SoftmaxOp : ONNX_Op<"Softmax", [SameOperandsAndResultType], 1> {
  let summary = "softmax along one axis (opset 13 semantics)";
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXNNOPS_TD
