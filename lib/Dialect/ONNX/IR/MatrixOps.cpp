//===- MatrixOps.cpp - verifiers of the matrix products -------------------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/EinsumEquation.h"
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

/// The equation read for the inputs' ranks; nullopt while a rank is
/// unknown; failure (with an error) when it does not fit them.
static FailureOr<std::optional<EinsumEquation>> readEquation(EinsumOp op) {
  SmallVector<int64_t> ranks;
  for (Value input : op.getInputs()) {
    std::optional<int64_t> rank = getRank(input);
    if (!rank)
      return std::optional<EinsumEquation>();
    ranks.push_back(*rank);
  }
  std::string error;
  FailureOr<EinsumEquation> eq =
      parseEinsumEquation(op.getEquation(), ranks, error);
  if (failed(eq))
    return op.emitOpError() << "equation '" << op.getEquation()
                            << "': " << error;
  return std::optional<EinsumEquation>(*eq);
}

/// The size of every label, from the inputs' shapes (1 broadcasts); failure
/// when two inputs disagree.
static FailureOr<SmallVector<int64_t>> labelSizes(EinsumOp op,
                                                  const EinsumEquation &eq) {
  SmallVector<int64_t> sizes(eq.numLabels, 1);
  for (auto [input, labels] : llvm::zip(op.getInputs(), eq.operands)) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(input.getType()).getShape();
    for (auto [dim, label] : llvm::zip(shape, labels)) {
      int64_t &size = sizes[label];
      if (dim == 1 || dim == size)
        continue;
      if (size != 1 && !ShapedType::isDynamic(size) && !ShapedType::isDynamic(dim))
        return failure();
      size = ShapedType::isDynamic(size) ? size : dim;
    }
  }
  return sizes;
}

LogicalResult EinsumOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expects at least one input";
  Type elementType = getElementTypeOrSelf(getInputs()[0].getType());
  for (Value input : getInputs())
    if (getElementTypeOrSelf(input.getType()) != elementType)
      return emitOpError() << "expects inputs of one element type";
  FailureOr<std::optional<EinsumEquation>> eq = readEquation(*this);
  if (failed(eq))
    return failure();
  if (*eq && failed(labelSizes(*this, **eq)))
    return emitOpError() << "equation '" << getEquation()
                         << "': inputs give one label different sizes";
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

LogicalResult EinsumOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getInputs()[0]);
  FailureOr<std::optional<EinsumEquation>> eq = readEquation(*this);
  if (failed(eq))
    return failure();
  if (!*eq) {
    types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  FailureOr<SmallVector<int64_t>> sizes = labelSizes(*this, **eq);
  if (failed(sizes))
    return failure();
  SmallVector<int64_t> shape;
  for (unsigned label : (*eq)->result)
    shape.push_back((*sizes)[label]);
  types.push_back(RankedTensorType::get(shape, elementType));
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
