//===- ElementwiseOps.cpp - verifiers and shape rules of element-wise ops -===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

LogicalResult ClipOp::verify() {
  if (getMin() && failed(verifyScalar(*this, getMin(), "min")))
    return failure();
  if (getMax() && failed(verifyScalar(*this, getMax(), "max")))
    return failure();
  return success();
}

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError() << "expects approximate none or tanh, got '"
                         << getApproximate() << "'";
  return success();
}

LogicalResult AddOp::verify() { return verifyBroadcastable(*this, getA(), getB()); }
LogicalResult SubOp::verify() { return verifyBroadcastable(*this, getA(), getB()); }
LogicalResult MulOp::verify() { return verifyBroadcastable(*this, getA(), getB()); }
LogicalResult DivOp::verify() { return verifyBroadcastable(*this, getA(), getB()); }
LogicalResult PowOp::verify() { return verifyBroadcastable(*this, getX(), getY()); }

LogicalResult IsNaNOp::verify() {
  return verifyBoolElement(*this, getY(), "the result");
}

LogicalResult IsInfOp::verify() {
  return verifyBoolElement(*this, getY(), "the result");
}

LogicalResult ModOp::verify() {
  if (failed(verifyBroadcastable(*this, getA(), getB())))
    return failure();
  if (isa<FloatType>(getElementTypeOrSelf(getA().getType())) && getFmod() != 1)
    return emitOpError("expects fmod = 1 for floating-point operands");
  return success();
}

LogicalResult PReluOp::verify() {
  return verifyBroadcastable(*this, getX(), getSlope());
}

/// Comparisons: broadcasting operands, a bool result.
static LogicalResult verifyComparison(Operation *op) {
  if (failed(verifyBroadcastable(op, op->getOperand(0), op->getOperand(1))))
    return failure();
  return verifyBoolElement(op, op->getResult(0), "the result");
}

LogicalResult EqualOp::verify() { return verifyComparison(*this); }
LogicalResult GreaterOp::verify() { return verifyComparison(*this); }
LogicalResult GreaterOrEqualOp::verify() { return verifyComparison(*this); }
LogicalResult LessOp::verify() { return verifyComparison(*this); }
LogicalResult LessOrEqualOp::verify() { return verifyComparison(*this); }

/// Logical binary ops: bool operands that broadcast.
static LogicalResult verifyLogical(Operation *op) {
  if (failed(verifyBoolElement(op, op->getOperand(0), "A")) ||
      failed(verifyBoolElement(op, op->getOperand(1), "B")))
    return failure();
  return verifyBroadcastable(op, op->getOperand(0), op->getOperand(1));
}

LogicalResult AndOp::verify() { return verifyLogical(*this); }
LogicalResult OrOp::verify() { return verifyLogical(*this); }
LogicalResult XorOp::verify() { return verifyLogical(*this); }

LogicalResult WhereOp::verify() {
  if (failed(verifyBoolElement(*this, getCondition(), "condition")) ||
      failed(verifySameElementType(*this, getX(), "X", getY(), "Y")))
    return failure();
  for (Value v : {getX(), getY()})
    if (failed(verifyBroadcastable(*this, getCondition(), v)))
      return failure();
  return verifyBroadcastable(*this, getX(), getY());
}

/// Variadic ops: at least one input, each broadcasting to the result.
static LogicalResult verifyVariadic(Operation *op) {
  if (op->getNumOperands() == 0)
    return op->emitOpError("expects at least one input");
  for (Value input : op->getOperands())
    if (failed(verifyBroadcastable(op, input, op->getResult(0))))
      return failure();
  return success();
}

LogicalResult MaxOp::verify() { return verifyVariadic(*this); }
LogicalResult MinOp::verify() { return verifyVariadic(*this); }
LogicalResult SumOp::verify() { return verifyVariadic(*this); }
LogicalResult MeanOp::verify() { return verifyVariadic(*this); }

//===----------------------------------------------------------------------===//
// Shape rules: the broadcast operands' shape; the element type of the data
// operand, bool for predicates and comparisons.
//===----------------------------------------------------------------------===//

static LogicalResult inferBroadcastLikeFirst(Operation *op,
                                             SmallVectorImpl<Type> &types) {
  return inferBroadcast(op->getOperands(), getElementTypeOf(op->getOperand(0)),
                        types);
}

static LogicalResult inferBroadcastBool(Operation *op,
                                        SmallVectorImpl<Type> &types) {
  return inferBroadcast(op->getOperands(),
                        IntegerType::get(op->getContext(), 1), types);
}

LogicalResult ClipOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferSameShape(getInput(), getElementTypeOf(getInput()), types);
}
LogicalResult IsNaNOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferSameShape(getX(), IntegerType::get(getContext(), 1), types);
}
LogicalResult IsInfOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferSameShape(getX(), IntegerType::get(getContext(), 1), types);
}

LogicalResult AddOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult SubOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult MulOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult DivOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult PowOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult ModOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult PReluOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}

LogicalResult EqualOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult GreaterOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult GreaterOrEqualOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult LessOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult LessOrEqualOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult AndOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult OrOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}
LogicalResult XorOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastBool(*this, types);
}

LogicalResult WhereOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcast(getOperands(), getElementTypeOf(getX()), types);
}

LogicalResult MaxOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult MinOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult SumOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
LogicalResult MeanOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferBroadcastLikeFirst(*this, types);
}
