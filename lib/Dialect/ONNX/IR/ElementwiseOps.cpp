//===- ElementwiseOps.cpp - verifiers of the element-wise ops -------------===//

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
