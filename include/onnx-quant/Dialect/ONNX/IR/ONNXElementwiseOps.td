//===- ONNXElementwiseOps.td - element-wise ops ------------*- tablegen -*-===//
//
// Every op that computes each output element from the input elements at the
// same (broadcast) position: unary math and activations, binary arithmetic,
// predicates, comparisons, logical ops, Where and the variadic Max/Min/Sum/
// Mean. Binary and variadic ops broadcast multidirectionally.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXELEMENTWISEOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXELEMENTWISEOPS_TD

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

def ONNX_LeakyReluOp : ONNX_Op<"LeakyRelu", [SameOperandsAndResultType, Pointwise], 1> {
  let summary = "x if x >= 0 else alpha * x";
  let arguments = (ins AnyTensor:$X, DefaultValuedAttr<F32Attr, "0.01">:$alpha);
  let results = (outs AnyTensor:$Y);
  let hasVerifier = 0;
}

def ONNX_HardSigmoidOp : ONNX_Op<"HardSigmoid", [SameOperandsAndResultType, Pointwise], 1> {
  let summary = "max(0, min(1, alpha * x + beta))";
  let arguments = (ins AnyTensor:$X, DefaultValuedAttr<F32Attr, "0.2">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.5">:$beta);
  let results = (outs AnyTensor:$Y);
  let hasVerifier = 0;
}

def ONNX_ClipOp : ONNX_Op<"Clip", [AttrSizedOperandSegments, Pointwise]> {
  let summary = "clamp to [min, max]; an absent bound is unbounded";
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$min,
                   Optional<AnyTensor>:$max);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    `(` $input `)` (`min` `(` $min^ `)`)? (`max` `(` $max^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
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

def ONNX_PowOp : ONNX_Op<"Pow", [Pointwise]> {
  let summary = "X ^ Y with broadcasting";
  let arguments = (ins AnyTensor:$X, AnyTensor:$Y);
  let results = (outs AnyTensor:$Z);
}

//===----------------------------------------------------------------------===//
// More unary math
//===----------------------------------------------------------------------===//

def ONNX_SinOp : ONNX_UnaryOp<"Sin", "sine">;
def ONNX_CosOp : ONNX_UnaryOp<"Cos", "cosine">;
def ONNX_TanOp : ONNX_UnaryOp<"Tan", "tangent">;
def ONNX_AsinOp : ONNX_UnaryOp<"Asin", "arcsine">;
def ONNX_AcosOp : ONNX_UnaryOp<"Acos", "arccosine">;
def ONNX_AtanOp : ONNX_UnaryOp<"Atan", "arctangent">;
def ONNX_SinhOp : ONNX_UnaryOp<"Sinh", "hyperbolic sine">;
def ONNX_CoshOp : ONNX_UnaryOp<"Cosh", "hyperbolic cosine">;
def ONNX_AsinhOp : ONNX_UnaryOp<"Asinh", "inverse hyperbolic sine">;
def ONNX_AcoshOp : ONNX_UnaryOp<"Acosh", "inverse hyperbolic cosine">;
def ONNX_AtanhOp : ONNX_UnaryOp<"Atanh", "inverse hyperbolic tangent">;
def ONNX_SignOp : ONNX_UnaryOp<"Sign", "-1, 0 or 1">;
def ONNX_RoundOp : ONNX_UnaryOp<"Round", "round half to even">;
def ONNX_SoftplusOp : ONNX_UnaryOp<"Softplus", "log(exp(x) + 1)">;
def ONNX_SoftsignOp : ONNX_UnaryOp<"Softsign", "x / (1 + |x|)">;
def ONNX_NotOp : ONNX_UnaryOp<"Not", "logical not">;
// Opset 18 (extends the opset 17 set; older models spell it out).
def ONNX_MishOp : ONNX_UnaryOp<"Mish", "x * tanh(softplus(x))">;

// Opset 20 (extends the opset 17 set): exact, or the tanh approximation.
def ONNX_GeluOp : ONNX_Op<"Gelu", [SameOperandsAndResultType, Pointwise], 1> {
  let summary = "x * Phi(x), Phi the standard normal CDF (or its tanh form)";
  let arguments = (ins AnyTensor:$X,
                   DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs AnyTensor:$Y);
}

// Unary op with float attributes and the type of its input.
class ONNX_ParamUnaryOp<string mnemonic, string doc, dag attrs>
    : ONNX_Op<mnemonic, [SameOperandsAndResultType, Pointwise], 1> {
  let summary = doc;
  let arguments = !con((ins AnyTensor:$X), attrs);
  let results = (outs AnyTensor:$Y);
  let hasVerifier = 0;
}

def ONNX_EluOp : ONNX_ParamUnaryOp<"Elu", "x if x >= 0 else alpha * (exp(x) - 1)",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_CeluOp : ONNX_ParamUnaryOp<"Celu",
    "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_SeluOp : ONNX_ParamUnaryOp<"Selu",
    "gamma * (x if x > 0 else alpha * (exp(x) - 1))",
    (ins DefaultValuedAttr<F32Attr, "1.67326319217681884765625">:$alpha,
         DefaultValuedAttr<F32Attr, "1.05070102214813232421875">:$gamma)>;
def ONNX_ThresholdedReluOp : ONNX_ParamUnaryOp<"ThresholdedRelu",
    "x if x > alpha else 0", (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_ShrinkOp : ONNX_ParamUnaryOp<"Shrink",
    "x + bias if x < -lambd, x - bias if x > lambd, else 0",
    (ins DefaultValuedAttr<F32Attr, "0.0">:$bias,
         DefaultValuedAttr<F32Attr, "0.5">:$lambd)>;

// Predicates: a bool tensor of the input's shape.
def ONNX_IsNaNOp : ONNX_Op<"IsNaN", [Pointwise]> {
  let summary = "whether each element is NaN";
  let arguments = (ins AnyTensor:$X);
  let results = (outs AnyTensor:$Y);
}

def ONNX_IsInfOp : ONNX_Op<"IsInf", [Pointwise]> {
  let summary = "whether each element is an infinity of a selected sign";
  let arguments = (ins AnyTensor:$X,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$detect_negative,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$detect_positive);
  let results = (outs AnyTensor:$Y);
}

//===----------------------------------------------------------------------===//
// Binary (multidirectional broadcasting)
//===----------------------------------------------------------------------===//

def ONNX_ModOp : ONNX_Op<"Mod", [Pointwise]> {
  let summary = "remainder: sign of the divisor, or of the dividend with fmod";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$fmod);
  let results = (outs AnyTensor:$C);
}

def ONNX_PReluOp : ONNX_Op<"PRelu", [Pointwise]> {
  let summary = "x if x >= 0 else slope * x, slope broadcast to x";
  let arguments = (ins AnyTensor:$X, AnyTensor:$slope);
  let results = (outs AnyTensor:$Y);
}

// Broadcasting binary op without a folder (ONNX_BinaryOp's arithmetic ones
// fold).
class ONNX_BroadcastOp<string mnemonic, string doc, list<Trait> traits = []>
    : ONNX_BinaryOp<mnemonic, doc, traits> {
  let hasFolder = 0;
}

def ONNX_EqualOp : ONNX_BroadcastOp<"Equal", "A == B", [Commutative]>;
def ONNX_GreaterOp : ONNX_BroadcastOp<"Greater", "A > B">;
def ONNX_GreaterOrEqualOp : ONNX_BroadcastOp<"GreaterOrEqual", "A >= B">;
def ONNX_LessOp : ONNX_BroadcastOp<"Less", "A < B">;
def ONNX_LessOrEqualOp : ONNX_BroadcastOp<"LessOrEqual", "A <= B">;
def ONNX_AndOp : ONNX_BroadcastOp<"And", "logical and", [Commutative]>;
def ONNX_OrOp : ONNX_BroadcastOp<"Or", "logical or", [Commutative]>;
def ONNX_XorOp : ONNX_BroadcastOp<"Xor", "logical xor", [Commutative]>;

def ONNX_WhereOp : ONNX_Op<"Where", [Pointwise]> {
  let summary = "X where condition else Y, all three broadcast";
  let arguments = (ins AnyTensor:$condition, AnyTensor:$X, AnyTensor:$Y);
  let results = (outs AnyTensor:$output);
}

//===----------------------------------------------------------------------===//
// Variadic (all inputs broadcast to the result)
//===----------------------------------------------------------------------===//

class ONNX_VariadicOp<string mnemonic, string doc>
    : ONNX_Op<mnemonic, [Commutative, Pointwise]> {
  let summary = doc;
  let arguments = (ins Variadic<AnyTensor>:$data_0);
  let results = (outs AnyTensor:$result);
}

// Shape computations take the larger or smaller of two shapes (CenterCropPad's
// expanded form): both fold.
def ONNX_MaxOp : ONNX_VariadicOp<"Max", "element-wise maximum of the inputs"> {
  let hasFolder = 1;
}
def ONNX_MinOp : ONNX_VariadicOp<"Min", "element-wise minimum of the inputs"> {
  let hasFolder = 1;
}
def ONNX_SumOp : ONNX_VariadicOp<"Sum", "element-wise sum of the inputs">;
def ONNX_MeanOp : ONNX_VariadicOp<"Mean", "element-wise mean of the inputs">;

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXELEMENTWISEOPS_TD
