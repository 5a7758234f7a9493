//===- ONNXReductionOps.td - reductions, arg-reductions ----*- tablegen -*-===//
//
// Reductions over axes, ArgMax/ArgMin, and the axis-wise LogSoftmax and
// Hardmax.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXREDUCTIONOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXREDUCTIONOPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"

// Reduction with an `axes` attribute (all axes when absent), opset 13 form.
class ONNX_ReduceOp<string mnemonic, string doc> : ONNX_Op<mnemonic> {
  let summary = doc;
  let arguments = (ins AnyTensor:$data, OptInts:$axes,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims);
  let results = (outs AnyTensor:$reduced);
}

def ONNX_ReduceMaxOp : ONNX_ReduceOp<"ReduceMax", "maximum over axes">;
def ONNX_ReduceMinOp : ONNX_ReduceOp<"ReduceMin", "minimum over axes">;
def ONNX_ReduceProdOp : ONNX_ReduceOp<"ReduceProd", "product over axes">;
def ONNX_ReduceL1Op : ONNX_ReduceOp<"ReduceL1", "sum of |x| over axes">;
def ONNX_ReduceL2Op : ONNX_ReduceOp<"ReduceL2", "sqrt of the sum of x^2 over axes">;
def ONNX_ReduceLogSumOp : ONNX_ReduceOp<"ReduceLogSum", "log of the sum over axes">;
def ONNX_ReduceLogSumExpOp : ONNX_ReduceOp<"ReduceLogSumExp",
                                           "log of the sum of exp(x) over axes">;
def ONNX_ReduceSumSquareOp : ONNX_ReduceOp<"ReduceSumSquare",
                                           "sum of x^2 over axes">;

def ONNX_ReduceSumOp : ONNX_Op<"ReduceSum"> {
  let summary = "sum over the axes input (all axes, or none, when it is empty)";
  let description = [{
    Opset 13 form: `axes` is an optional 1-D int64 input. With no axes the sum
    is over all axes, unless `noop_with_empty_axes` makes it the identity.
  }];
  let arguments = (ins AnyTensor:$data, Optional<AnyTensor>:$axes,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$noop_with_empty_axes);
  let results = (outs AnyTensor:$reduced);
}

class ONNX_ArgReduceOp<string mnemonic, string doc> : ONNX_Op<mnemonic> {
  let summary = doc;
  let arguments = (ins AnyTensor:$data,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$select_last_index);
  let results = (outs AnyTensor:$reduced);
}

def ONNX_ArgMaxOp : ONNX_ArgReduceOp<"ArgMax", "int64 index of the maximum along axis">;
def ONNX_ArgMinOp : ONNX_ArgReduceOp<"ArgMin", "int64 index of the minimum along axis">;

def ONNX_TopKOp : ONNX_Op<"TopK"> {
  let summary = "the K largest (or smallest) elements along axis, and their int64 indices";
  let arguments = (ins AnyTensor:$X, AnyTensor:$K,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$largest,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$sorted);
  let results = (outs AnyTensor:$Values, AnyTensor:$Indices);
}

def ONNX_LogSoftmaxOp : ONNX_Op<"LogSoftmax", [SameOperandsAndResultType], 1> {
  let summary = "log of softmax along one axis (opset 13 semantics)";
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
}

def ONNX_HardmaxOp : ONNX_Op<"Hardmax", [SameOperandsAndResultType], 1> {
  let summary = "1 at the first maximum along one axis, else 0 (opset 13)";
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
}

def ONNX_TriluOp : ONNX_Op<"Trilu"> {
  let summary = "upper or lower triangle of the last two dims, shifted by k";
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$k,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$upper);
  let results = (outs AnyTensor:$output);
}

def ONNX_ReduceMeanOp : ONNX_Op<"ReduceMean"> {
  let summary = "mean over axes (all axes when absent)";
  let arguments = (ins AnyTensor:$data, OptInts:$axes,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims);
  let results = (outs AnyTensor:$reduced);
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXREDUCTIONOPS_TD
