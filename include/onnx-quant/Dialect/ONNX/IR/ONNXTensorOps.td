//===- ONNXTensorOps.td - constants, shapes, data movement -*- tablegen -*-===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXTENSOROPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXTENSOROPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"

def ONNX_ConstantOp : ONNX_Op<"Constant",
    [ConstantLike, AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor (also every initializer of the graph)";
  let description = [{
    Large weights are `dense_resource` blobs so they are stored once and never
    uniqued element by element; small ones are ordinary `dense` attributes.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 0;
}

def ONNX_IdentityOp : ONNX_Op<"Identity", [SameOperandsAndResultType], 1> {
  let summary = "the input, unchanged";
  let arguments = (ins AnyTensor:$input);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
  let hasVerifier = 0;
}

def ONNX_CastOp : ONNX_Op<"Cast", [Pointwise]> {
  let summary = "element type conversion; `to` is an ONNX TensorProto data type";
  let arguments = (ins AnyTensor:$input, ONNX_I64Attr:$to);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
}

def ONNX_ShapeOp : ONNX_Op<"Shape"> {
  let summary = "the input's shape as a 1-D int64 tensor, sliced by [start, end)";
  let arguments = (ins AnyTensor:$data, OptionalAttr<ONNX_I64Attr>:$end,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$start);
  let results = (outs AnyTensor:$shape);
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The dimensions [first, second) of a rank-`rank` input the result
    /// holds: `start` and `end` counted from the end when negative, clamped.
    std::pair<int64_t, int64_t> getDimRange(int64_t rank);
  }];
}

def ONNX_ReshapeOp : ONNX_Op<"Reshape"> {
  let summary = "reshape to `shape` (0 copies a dimension unless allowzero, -1 is inferred)";
  let arguments = (ins AnyTensor:$data, AnyTensor:$shape,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$allowzero);
  let results = (outs AnyTensor:$reshaped);
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def ONNX_FlattenOp : ONNX_Op<"Flatten"> {
  let summary = "collapse to 2-D around `axis`";
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<ONNX_I64Attr, "1">:$axis);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
}

def ONNX_TransposeOp : ONNX_Op<"Transpose"> {
  let summary = "permute dimensions (reverse them when `perm` is absent)";
  let arguments = (ins AnyTensor:$data, OptInts:$perm);
  let results = (outs AnyTensor:$transposed);
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def ONNX_ConcatOp : ONNX_Op<"Concat"> {
  let summary = "concatenate along `axis`";
  let arguments = (ins Variadic<AnyTensor>:$inputs, ONNX_I64Attr:$axis);
  let results = (outs AnyTensor:$concat_result);
  let hasFolder = 1;
}

def ONNX_SplitOp : ONNX_Op<"Split"> {
  let summary = "split along `axis`, in equal parts or by the `split` sizes";
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$split,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis);
  let results = (outs Variadic<AnyTensor>:$outputs);
}

def ONNX_SliceOp : ONNX_Op<"Slice", [AttrSizedOperandSegments]> {
  let summary = "strided slice given by starts, ends and optional axes and steps";
  let arguments = (ins AnyTensor:$data, AnyTensor:$starts, AnyTensor:$ends,
                   Optional<AnyTensor>:$axes, Optional<AnyTensor>:$steps);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    `(` $data `,` $starts `,` $ends `)` (`axes` `(` $axes^ `)`)?
    (`steps` `(` $steps^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def ONNX_SqueezeOp : ONNX_Op<"Squeeze"> {
  let summary = "remove size-1 dimensions (all of them when `axes` is absent)";
  let arguments = (ins AnyTensor:$data, Optional<AnyTensor>:$axes);
  let results = (outs AnyTensor:$squeezed);
  let hasFolder = 1;
}

def ONNX_UnsqueezeOp : ONNX_Op<"Unsqueeze"> {
  let summary = "insert size-1 dimensions at `axes` of the output";
  let arguments = (ins AnyTensor:$data, AnyTensor:$axes);
  let results = (outs AnyTensor:$expanded);
  let hasFolder = 1;
}

def ONNX_PadOp : ONNX_Op<"Pad"> {
  let summary = "pad with a constant, by reflection or by repeating the edge";
  let arguments = (ins AnyTensor:$data, AnyTensor:$pads,
                   Optional<AnyTensor>:$constant_value,
                   DefaultValuedStrAttr<StrAttr, "constant">:$mode);
  let results = (outs AnyTensor:$output);
}

def ONNX_GatherOp : ONNX_Op<"Gather"> {
  let summary = "take slices of `data` along `axis` at `indices`";
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
}

def ONNX_GatherElementsOp : ONNX_Op<"GatherElements"> {
  let summary = "`data` at `indices` along `axis`, elsewhere at the same index";
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
}

// Opset 18's form: `reduction` also takes max and min.
class ONNX_ScatterOp<string mnemonic, string doc, dag extraAttrs = (ins)>
    : ONNX_Op<mnemonic> {
  let summary = doc;
  let arguments = !con((ins AnyTensor:$data, AnyTensor:$indices,
                            AnyTensor:$updates),
                       extraAttrs,
                       (ins DefaultValuedStrAttr<StrAttr, "none">:$reduction));
  let results = (outs AnyTensor:$output);
}

def ONNX_ScatterNDOp : ONNX_ScatterOp<"ScatterND",
    "`data` with the slices at `indices` (tuples of leading indices) replaced by (or combined with) `updates`">;
def ONNX_ScatterElementsOp : ONNX_ScatterOp<"ScatterElements",
    "`data` with the elements at `indices` along `axis` replaced by (or combined with) `updates`",
    (ins DefaultValuedAttr<ONNX_I64Attr, "0">:$axis)>;

def ONNX_TileOp : ONNX_Op<"Tile"> {
  let summary = "`input` repeated `repeats[i]` times along each axis i";
  let arguments = (ins AnyTensor:$input, AnyTensor:$repeats);
  let results = (outs AnyTensor:$output);
}

def ONNX_ConstantOfShapeOp : ONNX_Op<"ConstantOfShape"> {
  let summary = "a tensor of the shape `input` holds, every element `value`";
  let description = [{
    `value` is a one-element tensor giving the element type too; absent, a
    float32 0.
  }];
  let arguments = (ins AnyTensor:$input, OptionalAttr<ElementsAttr>:$value);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
}

def ONNX_RangeOp : ONNX_Op<"Range"> {
  let summary = "start + i * delta for i < max(ceil((limit - start) / delta), 0)";
  let arguments = (ins AnyTensor:$start, AnyTensor:$limit, AnyTensor:$delta);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The number of elements when start, limit and delta are constants.
    std::optional<int64_t> getConstantLength();
  }];
}

def ONNX_ExpandOp : ONNX_Op<"Expand"> {
  let summary = "`input` broadcast numpy-style with the shape `shape` holds";
  let arguments = (ins AnyTensor:$input, AnyTensor:$shape);
  let results = (outs AnyTensor:$output);
}

def ONNX_SizeOp : ONNX_Op<"Size"> {
  let summary = "the number of elements of `data`, an int64 scalar";
  let arguments = (ins AnyTensor:$data);
  let results = (outs AnyTensor:$size);
  let hasFolder = 1;
  let hasVerifier = 0;
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXTENSOROPS_TD
