//===- MatrixOps.cpp - verifiers of the matrix products -------------------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

LogicalResult GemmOp::verify() {
  if (failed(verifyRank(*this, getA(), 2, "A")) ||
      failed(verifyRank(*this, getB(), 2, "B")))
    return failure();
  std::optional<int64_t> kA = getStaticDim(getA(), getTransA() ? 0 : 1);
  std::optional<int64_t> kB = getStaticDim(getB(), getTransB() ? 1 : 0);
  if (kA && kB && *kA != *kB)
    return emitOpError() << "expects matching inner dimensions, got " << *kA
                         << " and " << *kB;
  if (getC()) {
    std::optional<int64_t> rank = getRank(getC());
    if (rank && *rank > 2)
      return emitOpError() << "expects C of rank <= 2, got rank " << *rank;
    return verifyBroadcastable(*this, getC(), getY());
  }
  return success();
}

LogicalResult MatMulOp::verify() {
  std::optional<int64_t> rankA = getRank(getA()), rankB = getRank(getB());
  if ((rankA && *rankA == 0) || (rankB && *rankB == 0))
    return emitOpError("expects operands of rank >= 1");
  if (!rankA || !rankB)
    return success();
  std::optional<int64_t> kA = getStaticDim(getA(), *rankA - 1);
  std::optional<int64_t> kB = getStaticDim(getB(), *rankB == 1 ? 0 : *rankB - 2);
  if (kA && kB && *kA != *kB)
    return emitOpError() << "expects matching inner dimensions, got " << *kA
                         << " and " << *kB;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<int64_t>> shape =
      gemmShape(getA(), getB(), getTransA(), getTransB());
  if (failed(shape))
    return failure();
  types.push_back(
      RankedTensorType::get(*shape, getElementTypeOf(getA())));
  return success();
}

LogicalResult MatMulOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  FailureOr<std::optional<SmallVector<int64_t>>> shape =
      matmulShape(getA(), getB());
  if (failed(shape))
    return failure();
  types.push_back(getTensorType(*shape, getElementTypeOf(getA())));
  return success();
}
