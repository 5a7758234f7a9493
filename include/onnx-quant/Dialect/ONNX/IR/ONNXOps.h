//===- ONNXOps.h - onnx dialect operations ----------------------*- C++ -*-===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXOPS_H
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXDialect.h"

namespace mlir::onnxq {
/// Marks ops of ONNX Runtime's `com.microsoft` domain (the exporter writes the
/// domain, the importer accepts the op only from that domain).
template <typename ConcreteType>
class MicrosoftDomain : public OpTrait::TraitBase<ConcreteType, MicrosoftDomain> {
};

/// Marks element-wise ops: result element i is a function of element i of
/// each (broadcast) operand only.
template <typename ConcreteType>
class Pointwise : public OpTrait::TraitBase<ConcreteType, Pointwise> {};

/// The ONNX domain an op of this dialect belongs to ("" is ai.onnx).
llvm::StringRef getONNXDomain(Operation *op);

/// An ONNX axis counted from the front: a negative one counts from the end.
inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}
} // namespace mlir::onnxq

#include "onnx-quant/Dialect/ONNX/IR/ShapeInferenceInterface.h.inc"

#define GET_OP_CLASSES
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h.inc"

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXOPS_H
