//===- ShapeInferenceInterface.td - per-op result type rules -*- tablegen -*-===//
//
// Every onnx op computes its result types from its operands' types, its
// attributes and the values of constant operands (a Reshape's target, a
// Slice's starts). The importer asks while it builds the graph, so shapes no
// longer depend on what libonnx's inference knows; `onnx-infer-shapes` asks
// again after passes changed the graph.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_SHAPEINFERENCEINTERFACE_TD
#define ONNXQUANT_DIALECT_ONNX_IR_SHAPEINFERENCEINTERFACE_TD

include "mlir/IR/OpBase.td"

def ONNX_ShapeInferenceOpInterface : OpInterface<"ShapeInferenceOpInterface"> {
  let cppNamespace = "::mlir::onnxq";
  let description = [{
    The op's ONNX type and shape inference rule. It appends one type per
    result; a dimension it cannot know (it depends on a run-time value, or
    on an operand's dynamic dimension) is dynamic, and a result of unknown
    rank is unranked. It fails, without a diagnostic, when the operands are
    inconsistent (the verifier reports those) or the rule does not apply.
  }];
  let methods = [
    InterfaceMethod<
      "Appends the inferred type of each result to `resultTypes`.",
      "::llvm::LogicalResult", "inferResultTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$resultTypes), "",
      [{
        // Ops whose results have their first operand's type.
        if (!$_op->template hasTrait<::mlir::OpTrait::SameOperandsAndResultType>())
          return ::mlir::failure();
        resultTypes.append($_op->getNumResults(), $_op->getOperand(0).getType());
        return ::mlir::success();
      }]>
  ];
}

#endif // ONNXQUANT_DIALECT_ONNX_IR_SHAPEINFERENCEINTERFACE_TD
