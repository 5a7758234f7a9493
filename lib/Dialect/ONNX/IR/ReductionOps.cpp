//===- ReductionOps.cpp - reductions, arg-reductions, LogSoftmax ----------===//

#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

LogicalResult ReduceMaxOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceMinOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceProdOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceL1Op::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceL2Op::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceLogSumOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceLogSumExpOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
LogicalResult ReduceSumSquareOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}

LogicalResult ReduceSumOp::verify() {
  return getAxes() ? verifyIntegerVector(*this, getAxes(), "axes") : success();
}

/// ArgMax/ArgMin: `axis` within the input's rank, int64 indices out.
static LogicalResult verifyArgReduce(Operation *op, Value data, int64_t axis) {
  if (!getElementTypeOrSelf(op->getResult(0).getType()).isInteger(64))
    return op->emitOpError("expects an int64 result");
  return verifyAxisOf(op, axis, data);
}

LogicalResult ArgMaxOp::verify() {
  return verifyArgReduce(*this, getData(), getAxis());
}
LogicalResult ArgMinOp::verify() {
  return verifyArgReduce(*this, getData(), getAxis());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyAxisOf(*this, getAxis(), getInput());
}

LogicalResult HardmaxOp::verify() {
  return verifyAxisOf(*this, getAxis(), getInput());
}

LogicalResult TriluOp::verify() {
  if (failed(verifyMinRank(*this, getInput(), 2, "input")))
    return failure();
  return getK() ? verifyScalar(*this, getK(), "k") : success();
}

LogicalResult ReduceMeanOp::verify() {
  return verifyAxes(*this, getAxesAttr(), getData());
}
