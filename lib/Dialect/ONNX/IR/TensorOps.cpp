//===- TensorOps.cpp - constants, shapes and data movement ops ------------===//

#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

LogicalResult CastOp::verify() {
  Type expected = onnxq::getElementType(getContext(), getTo());
  if (!expected)
    return emitOpError() << "expects `to` to be a supported ONNX data type, got "
                         << getTo() << " (" << getONNXDataTypeName(getTo())
                         << ")";
  Type actual = getElementTypeOrSelf(getOutput().getType());
  if (actual != expected)
    return emitOpError() << "expects a result of element type " << expected
                         << " for to = " << getONNXDataTypeName(getTo())
                         << ", got " << actual;
  return success();
}

LogicalResult ShapeOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getShape().getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isInteger(64))
    return emitOpError() << "expects a 1-D i64 result, got "
                         << getShape().getType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifyIntegerVector(*this, getShape(), "shape")))
    return failure();
  auto in = dyn_cast<RankedTensorType>(getData().getType());
  auto out = dyn_cast<RankedTensorType>(getReshaped().getType());
  if (in && out && in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError() << "expects the same number of elements, got " << in
                         << " and " << out;
  return success();
}

LogicalResult FlattenOp::verify() {
  if (failed(verifyRank(*this, getOutput(), 2, "a result")))
    return failure();
  std::optional<int64_t> rank = getRank(getInput());
  return rank ? verifyAxis(*this, getAxis(), *rank, "axis", /*allowEnd=*/true)
              : success();
}

LogicalResult TransposeOp::verify() {
  std::optional<int64_t> rank = getRank(getData());
  if (!rank || !getPerm())
    return success();
  SmallVector<int64_t> perm = getI64Values(*getPerm());
  if (perm.size() != size_t(*rank))
    return emitOpError() << "expects perm to be a permutation of [0, " << *rank
                         << ")";
  SmallVector<bool> seen(*rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= *rank || seen[p])
      return emitOpError() << "expects perm to be a permutation of [0, "
                           << *rank << ")";
    seen[p] = true;
  }
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  std::optional<int64_t> rank = getRank(getConcatResult());
  if (!rank)
    return success();
  if (failed(verifyAxis(*this, getAxis(), *rank)))
    return failure();
  int64_t axis = getAxis() < 0 ? getAxis() + *rank : getAxis();
  for (Value input : getInputs()) {
    if (failed(verifyRank(*this, input, *rank, "inputs")))
      return failure();
    for (int64_t d = 0; d < *rank; ++d) {
      std::optional<int64_t> in = getStaticDim(input, d);
      std::optional<int64_t> out = getStaticDim(getConcatResult(), d);
      if (d != axis && in && out && *in != *out)
        return emitOpError() << "expects inputs to match the result outside "
                                "the concatenation axis, got "
                             << input.getType() << " for "
                             << getConcatResult().getType();
    }
  }
  return success();
}

LogicalResult SplitOp::verify() {
  if (getOutputs().empty())
    return emitOpError("expects at least one result");
  if (getSplit() && failed(verifyIntegerVector(*this, getSplit(), "split")))
    return failure();
  std::optional<int64_t> rank = getRank(getInput());
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}

LogicalResult SliceOp::verify() {
  const StringRef names[] = {"starts", "ends"};
  Value values[] = {getStarts(), getEnds()};
  for (auto [value, name] : llvm::zip(values, names))
    if (failed(verifyIntegerVector(*this, value, name)))
      return failure();
  if (getAxes() && failed(verifyIntegerVector(*this, getAxes(), "axes")))
    return failure();
  if (getSteps() && failed(verifyIntegerVector(*this, getSteps(), "steps")))
    return failure();
  std::optional<int64_t> starts = getStaticDim(getStarts(), 0);
  std::optional<int64_t> ends = getStaticDim(getEnds(), 0);
  if (starts && ends && *starts != *ends)
    return emitOpError() << "expects starts and ends of the same length, got "
                         << *starts << " and " << *ends;
  return success();
}

LogicalResult SqueezeOp::verify() {
  return getAxes() ? verifyIntegerVector(*this, getAxes(), "axes") : success();
}

LogicalResult UnsqueezeOp::verify() {
  if (failed(verifyIntegerVector(*this, getAxes(), "axes")))
    return failure();
  std::optional<int64_t> in = getRank(getData()), out = getRank(getExpanded());
  std::optional<int64_t> added = getStaticDim(getAxes(), 0);
  if (in && out && added && *out != *in + *added)
    return emitOpError() << "expects a result of rank " << *in + *added
                         << ", got rank " << *out;
  return success();
}

LogicalResult PadOp::verify() {
  if (!llvm::is_contained({"constant", "reflect", "edge"}, getMode()))
    return emitOpError() << "expects mode constant, reflect or edge, got '"
                         << getMode() << "'";
  if (failed(verifyIntegerVector(*this, getPads(), "pads")))
    return failure();
  if (getConstantValue() &&
      failed(verifyScalar(*this, getConstantValue(), "constant_value")))
    return failure();
  std::optional<int64_t> rank = getRank(getData());
  std::optional<int64_t> pads = getStaticDim(getPads(), 0);
  if (rank && pads && *pads != 2 * *rank)
    return emitOpError() << "expects " << 2 * *rank << " pads for rank "
                         << *rank << ", got " << *pads;
  return success();
}

LogicalResult GatherOp::verify() {
  if (!getElementTypeOrSelf(getIndices().getType()).isInteger())
    return emitOpError() << "expects integer indices, got "
                         << getIndices().getType();
  std::optional<int64_t> rank = getRank(getData());
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}
