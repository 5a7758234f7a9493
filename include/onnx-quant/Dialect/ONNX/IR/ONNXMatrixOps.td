//===- ONNXMatrixOps.td - matrix products ------------------*- tablegen -*-===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXMATRIXOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXMATRIXOPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"

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

def ONNX_EinsumOp : ONNX_Op<"Einsum"> {
  let summary = "Einstein summation over the axes `equation` names";
  let description = [{
    One loop per label of the equation (EinsumEquation.h): the result is the
    sum, over the labels it does not keep, of the inputs' product.
  }];
  let arguments = (ins Variadic<AnyTensor>:$Inputs, StrAttr:$equation);
  let results = (outs AnyTensor:$Output);
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXMATRIXOPS_TD
