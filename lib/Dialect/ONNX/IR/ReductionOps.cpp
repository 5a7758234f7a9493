//===- ReductionOps.cpp - reductions, arg-reductions, LogSoftmax ----------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
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

LogicalResult TopKOp::verify() {
  if (!getElementTypeOrSelf(getIndices().getType()).isInteger(64))
    return emitOpError("expects int64 indices");
  if (failed(verifyIntegerVector(*this, getK(), "K")))
    return failure();
  if (getLargest() != 0 && getLargest() != 1)
    return emitOpError() << "expects largest 0 or 1, got " << getLargest();
  if (std::optional<SmallVector<int64_t>> k = getConstantIntegers(getK())) {
    std::optional<int64_t> rank = getRank(getX());
    std::optional<int64_t> size =
        rank ? getStaticDim(getX(), normalizeAxis(getAxis(), *rank))
             : std::nullopt;
    if (k->size() != 1 || (*k)[0] < 0 || (size && (*k)[0] > *size))
      return emitOpError() << "expects one K in [0, "
                           << (size ? std::to_string(*size) : "the axis size")
                           << "]";
  }
  return verifyAxisOf(*this, getAxis(), getX());
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

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

/// A reduction of `data` over `axes` (all when empty).
static LogicalResult inferReduction(Value data, ArrayRef<int64_t> axes,
                                    bool keepDims, SmallVectorImpl<Type> &types) {
  types.push_back(getTensorType(reducedShape(data, axes, keepDims),
                                getElementTypeOf(data)));
  return success();
}

#define REDUCE_SHAPE_RULE(OP)                                                  \
  LogicalResult OP::inferResultTypes(SmallVectorImpl<Type> &types) {          \
    return inferReduction(getData(), getI64Values(getAxesAttr()),              \
                          getKeepdims(), types);                               \
  }
REDUCE_SHAPE_RULE(ReduceMaxOp)
REDUCE_SHAPE_RULE(ReduceMinOp)
REDUCE_SHAPE_RULE(ReduceProdOp)
REDUCE_SHAPE_RULE(ReduceL1Op)
REDUCE_SHAPE_RULE(ReduceL2Op)
REDUCE_SHAPE_RULE(ReduceLogSumOp)
REDUCE_SHAPE_RULE(ReduceLogSumExpOp)
REDUCE_SHAPE_RULE(ReduceSumSquareOp)
REDUCE_SHAPE_RULE(ReduceMeanOp)
#undef REDUCE_SHAPE_RULE

LogicalResult ReduceSumOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  std::optional<SmallVector<int64_t>> axes =
      getAxes() ? getConstantIntegers(getAxes()) : SmallVector<int64_t>();
  if (!axes) {
    std::optional<int64_t> rank = getRank(getData());
    Type elementType = getElementTypeOf(getData());
    types.push_back(rank && getKeepdims()
                        ? getDynamicTensorType(*rank, elementType)
                        : UnrankedTensorType::get(elementType));
    return success();
  }
  if (axes->empty() && getNoopWithEmptyAxes()) {
    types.push_back(getData().getType());
    return success();
  }
  return inferReduction(getData(), *axes, getKeepdims(), types);
}

/// ArgMax/ArgMin: int64 indices along one axis.
static LogicalResult inferArgReduction(Value data, int64_t axis, bool keepDims,
                                       SmallVectorImpl<Type> &types) {
  std::optional<int64_t> rank = getRank(data);
  if (rank && (axis < -*rank || axis >= *rank))
    return failure();
  types.push_back(getTensorType(
      reducedShape(data, {axis}, keepDims),
      IntegerType::get(data.getContext(), 64)));
  return success();
}

LogicalResult TopKOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  std::optional<SmallVector<int64_t>> shape = getShapeOf(getX());
  if (shape) {
    int64_t axis = normalizeAxis(getAxis(), shape->size());
    if (axis < 0 || axis >= int64_t(shape->size()))
      return failure();
    std::optional<SmallVector<int64_t>> k = getConstantIntegers(getK());
    (*shape)[axis] = k && k->size() == 1 ? (*k)[0] : ShapedType::kDynamic;
  }
  types.push_back(getTensorType(shape, getElementTypeOf(getX())));
  types.push_back(getTensorType(shape, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult ArgMaxOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferArgReduction(getData(), getAxis(), getKeepdims(), types);
}

LogicalResult ArgMinOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferArgReduction(getData(), getAxis(), getKeepdims(), types);
}

LogicalResult TriluOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getInput().getType());
  return success();
}
