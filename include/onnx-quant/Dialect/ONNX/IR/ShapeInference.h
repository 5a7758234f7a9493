//===- ShapeInference.h - result types from the ops' rules ------*- C++ -*-===//
//
// Shapes are the compiler's own business: every onnx op has a rule
// (ShapeInferenceOpInterface) and these functions apply it. The importer
// types each op as it builds it and folds shape computations (Shape, and
// small integer ops on constants) on the spot, so a Reshape whose target is
// computed from shapes gets a static result; `onnx-infer-shapes` does the
// same over a whole graph after other passes changed it.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_SHAPEINFERENCE_H
#define ONNXQUANT_DIALECT_ONNX_IR_SHAPEINFERENCE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir::onnxq {

/// What `declared` and `inferred` together say: the element type both have,
/// each dimension static where either knows it. Null when they contradict
/// (element types, ranks or two static sizes differ).
Type meetTypes(Type declared, Type inferred);

/// Applies `op`'s shape rule and refines its result types in place (see
/// meetTypes). Returns whether a type changed; fails, with an error naming
/// both types, when the rule contradicts a declared type. Ops without a rule,
/// and rules that do not apply, leave the types alone.
FailureOr<bool> refineResultTypes(Operation *op);

/// Whether `op` computes shape data: at most a few dozen elements of
/// integers (or bools), or a float scalar (Range's bounds), per result;
/// nothing a quantizer would treat as data.
/// Such ops fold during import and shape inference.
bool isShapeComputation(Operation *op);

/// Folds a shape computation whose operands are known (constants, or a
/// static type for Shape) into constants placed before it, replaces its uses
/// and erases it. Returns the constants (empty when it did not fold).
SmallVector<Value> foldShapeComputation(OpBuilder &builder, Operation *op);

/// Erases the `onnx.Constant`s of `block` nothing reads (what only folded
/// shape computations read). Returns whether it erased any.
bool eraseUnusedConstants(Block &block);

/// Refines every op's result types in order, folds the shape computations
/// that become known, drops constants nothing uses any more and gives the
/// function the refined result types. Returns whether anything changed;
/// fails when a rule contradicts a declared type.
FailureOr<bool> inferShapes(func::FuncOp graph);

/// Fails where a tensor's shape is not static, with an error at its origin:
/// a graph input's dynamic dimension, or the first node whose result is
/// dynamic although its operands are static (it depends on a run-time value).
LogicalResult verifyStaticShapes(func::FuncOp graph);

/// The names of the graph inputs `value` is computed from (through
/// non-constant values), in input order: what a user would have to make
/// constant for it to be known at compile time.
SmallVector<std::string> getGraphInputsFeeding(Value value);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_SHAPEINFERENCE_H
