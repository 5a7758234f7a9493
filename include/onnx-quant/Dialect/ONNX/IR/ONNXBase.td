//===- ONNXBase.td - onnx dialect and op base classes ------*- tablegen -*-===//
//
// The `onnx` dialect mirrors ONNX operators at opset 17 semantics (the newest
// opset the Debian libonnx 1.12 knows). The importer rewrites older forms
// (attributes that later became inputs, Softmax's 2-D coercion, ...) into this
// form, so passes see exactly one spelling of every operator.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXBASE_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "onnx-quant/Dialect/ONNX/IR/ShapeInferenceInterface.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  let summary = "ONNX operators at opset 17 semantics";
  let description = [{
    One op per ONNX operator (`onnx.Conv`, `onnx.QuantizeLinear`, ...), with
    ONNX operand order, ONNX attribute names and ONNX defaults. Optional ONNX
    inputs are optional operands; optional outputs are optional results.
    Signed ONNX integers are signless MLIR integers, unsigned ones are `uiN`,
    `bool` is `i1`.
  }];
  let cppNamespace = "::mlir::onnxq";
  let hasConstantMaterializer = 1;
  // The `onnx.*` attributes passes exchange (ONNXGraph.h).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

// Ops of the `com.microsoft` domain that quantized ONNX Runtime models use.
def MicrosoftDomain : NativeOpTrait<"MicrosoftDomain"> {
  let cppNamespace = "::mlir::onnxq";
}

// Element i of each result depends only on element i of each (broadcast)
// operand: a function of the values, not of their positions.
def Pointwise : NativeOpTrait<"Pointwise"> {
  let cppNamespace = "::mlir::onnxq";
}

// Each op defines its shape rule (`inferResultTypes`), except ops whose
// results have their first operand's type (`sameTypeRule`), which share one.
class ONNX_Op<string mnemonic, list<Trait> traits = [], bit sameTypeRule = 0>
    : Op<ONNX_Dialect, mnemonic, !listconcat(traits, [Pure,
          !if(sameTypeRule, ONNX_ShapeInferenceOpInterface,
              DeclareOpInterfaceMethods<ONNX_ShapeInferenceOpInterface,
                                        ["inferResultTypes"]>)])> {
  let assemblyFormat = [{
    `(` operands `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// Element-wise op with one input and one output of the same type.
class ONNX_UnaryOp<string mnemonic, string doc, list<Trait> traits = []>
    : ONNX_Op<mnemonic, !listconcat(traits, [SameOperandsAndResultType, Pointwise]),
              /*sameTypeRule=*/1> {
  let summary = doc;
  let arguments = (ins AnyTensor:$X);
  let results = (outs AnyTensor:$Y);
  let hasVerifier = 0;
}

// Element-wise op with multidirectional (numpy-style) broadcasting.
class ONNX_BinaryOp<string mnemonic, string doc, list<Trait> traits = []>
    : ONNX_Op<mnemonic, !listconcat(traits, [Pointwise])> {
  let summary = doc;
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
  let results = (outs AnyTensor:$C);
  let hasFolder = 1;
}

// ONNX INT attributes are signed 64-bit (axes may be negative).
def ONNX_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                            "64-bit signed integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

// Attributes shared by convolutions and pooling.
defvar AutoPadAttr = DefaultValuedStrAttr<StrAttr, "NOTSET">;
defvar OptInts = OptionalAttr<I64ArrayAttr>;

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXBASE_TD
