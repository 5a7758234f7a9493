//===- ONNXMathOps.td - element-wise, activation, GEMM ops -*- tablegen -*-===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXMATHOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXMATHOPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"

//===----------------------------------------------------------------------===//
// Element-wise unary
//===----------------------------------------------------------------------===//

def ONNX_AbsOp : ONNX_UnaryOp<"Abs", "absolute value">;
def ONNX_CeilOp : ONNX_UnaryOp<"Ceil", "round up">;
def ONNX_ErfOp : ONNX_UnaryOp<"Erf", "error function">;
def ONNX_ExpOp : ONNX_UnaryOp<"Exp", "exponential">;
def ONNX_FloorOp : ONNX_UnaryOp<"Floor", "round down">;
def ONNX_LogOp : ONNX_UnaryOp<"Log", "natural logarithm">;
def ONNX_NegOp : ONNX_UnaryOp<"Neg", "negation"> {
  let hasFolder = 1;
}
def ONNX_ReciprocalOp : ONNX_UnaryOp<"Reciprocal", "1 / x"> {
  let hasFolder = 1;
}
def ONNX_ReluOp : ONNX_UnaryOp<"Relu", "max(x, 0)">;
def ONNX_SigmoidOp : ONNX_UnaryOp<"Sigmoid", "1 / (1 + exp(-x))">;
def ONNX_SqrtOp : ONNX_UnaryOp<"Sqrt", "square root"> {
  let hasFolder = 1;
}
def ONNX_TanhOp : ONNX_UnaryOp<"Tanh", "hyperbolic tangent">;
def ONNX_HardSwishOp : ONNX_UnaryOp<"HardSwish", "x * max(0, min(1, x / 6 + 1 / 2))">;

def ONNX_LeakyReluOp : ONNX_Op<"LeakyRelu", [SameOperandsAndResultType]> {
  let summary = "x if x >= 0 else alpha * x";
  let arguments = (ins AnyTensor:$X, DefaultValuedAttr<F32Attr, "0.01">:$alpha);
  let results = (outs AnyTensor:$Y);
  let hasVerifier = 0;
}

def ONNX_HardSigmoidOp : ONNX_Op<"HardSigmoid", [SameOperandsAndResultType]> {
  let summary = "max(0, min(1, alpha * x + beta))";
  let arguments = (ins AnyTensor:$X, DefaultValuedAttr<F32Attr, "0.2">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.5">:$beta);
  let results = (outs AnyTensor:$Y);
  let hasVerifier = 0;
}

def ONNX_ClipOp : ONNX_Op<"Clip", [AttrSizedOperandSegments]> {
  let summary = "clamp to [min, max]; an absent bound is unbounded";
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$min,
                   Optional<AnyTensor>:$max);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    `(` $input `)` (`min` `(` $min^ `)`)? (`max` `(` $max^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def ONNX_SoftmaxOp : ONNX_Op<"Softmax", [SameOperandsAndResultType]> {
  let summary = "softmax along one axis (opset 13 semantics)";
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
}

//===----------------------------------------------------------------------===//
// Element-wise binary (multidirectional broadcasting)
//===----------------------------------------------------------------------===//

def ONNX_AddOp : ONNX_BinaryOp<"Add", "A + B", [Commutative]> {
  let hasCanonicalizer = 1;
}
def ONNX_SubOp : ONNX_BinaryOp<"Sub", "A - B">;
def ONNX_MulOp : ONNX_BinaryOp<"Mul", "A * B", [Commutative]>;
def ONNX_DivOp : ONNX_BinaryOp<"Div", "A / B">;

def ONNX_PowOp : ONNX_Op<"Pow"> {
  let summary = "X ^ Y with broadcasting";
  let arguments = (ins AnyTensor:$X, AnyTensor:$Y);
  let results = (outs AnyTensor:$Z);
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def ONNX_GemmOp : ONNX_Op<"Gemm"> {
  let summary = "alpha * A' * B' + beta * C";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B, Optional<AnyTensor>:$C,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$transA,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$transB);
  let results = (outs AnyTensor:$Y);
}

def ONNX_MatMulOp : ONNX_Op<"MatMul"> {
  let summary = "numpy.matmul";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
  let results = (outs AnyTensor:$Y);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def ONNX_ReduceMeanOp : ONNX_Op<"ReduceMean"> {
  let summary = "mean over axes (all axes when absent)";
  let arguments = (ins AnyTensor:$data, OptInts:$axes,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims);
  let results = (outs AnyTensor:$reduced);
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXMATHOPS_TD
