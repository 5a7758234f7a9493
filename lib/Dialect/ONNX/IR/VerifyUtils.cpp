//===- VerifyUtils.cpp - checks shared by onnx op verifiers ---------------===//

#include "VerifyUtils.h"
#include "ShapeRules.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/WindowGeometry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;

namespace mlir::onnxq::detail {

std::optional<int64_t> getRank(Value value) {
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    return type.getRank();
  return std::nullopt;
}

std::optional<int64_t> getStaticDim(Value value, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return std::nullopt;
  return type.getDimSize(dim);
}

SmallVector<int64_t> getI64Values(ArrayAttr array) {
  SmallVector<int64_t> values;
  if (array)
    for (Attribute a : array)
      values.push_back(cast<IntegerAttr>(a).getInt());
  return values;
}

LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                         StringRef name, bool allowEnd) {
  int64_t upper = allowEnd ? rank : rank - 1;
  if (axis < -rank || axis > upper)
    return op->emitOpError() << "expects " << name << " in [" << -rank << ", "
                             << upper << "] for rank " << rank << ", got "
                             << axis;
  return success();
}

LogicalResult verifyAxisOf(Operation *op, int64_t axis, Value data) {
  std::optional<int64_t> rank = getRank(data);
  return rank ? verifyAxis(op, axis, std::max<int64_t>(*rank, 1)) : success();
}

LogicalResult verifyAxes(Operation *op, ArrayAttr axes, Value data) {
  std::optional<int64_t> rank = getRank(data);
  if (!rank || !axes)
    return success();
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t axis : getI64Values(axes)) {
    if (failed(verifyAxis(op, axis, *rank, "axes")))
      return failure();
    if (!seen.insert(normalizeAxis(axis, *rank)).second)
      return op->emitOpError() << "expects unique axes, got " << axis
                               << " twice";
  }
  return success();
}

LogicalResult verifyBoolElement(Operation *op, Value value, StringRef name) {
  Type type = getElementTypeOrSelf(value.getType());
  if (!type.isInteger(1))
    return op->emitOpError() << "expects " << name
                             << " to have bool (i1) elements, got " << type;
  return success();
}

LogicalResult verifyBroadcastable(Operation *op, Value a, Value b) {
  if (failed(broadcastShapes(ValueRange{a, b})))
    return op->emitOpError() << "expects broadcast-compatible operands, got "
                             << a.getType() << " and " << b.getType();
  return success();
}

LogicalResult verifyRank(Operation *op, Value value, int64_t rank,
                         StringRef name) {
  std::optional<int64_t> actual = getRank(value);
  if (actual && *actual != rank)
    return op->emitOpError() << "expects " << name << " of rank " << rank
                             << ", got rank " << *actual;
  return success();
}

LogicalResult verifyConcatShapes(Operation *op, ValueRange inputs, int64_t axis,
                                 Value result) {
  std::optional<int64_t> rank = getRank(result);
  if (!rank)
    return success();
  if (failed(verifyAxis(op, axis, *rank)))
    return failure();
  axis = normalizeAxis(axis, *rank);
  for (Value input : inputs) {
    if (failed(verifyRank(op, input, *rank, "inputs")))
      return failure();
    for (int64_t d = 0; d < *rank; ++d) {
      std::optional<int64_t> in = getStaticDim(input, d);
      std::optional<int64_t> out = getStaticDim(result, d);
      if (d != axis && in && out && *in != *out)
        return op->emitOpError()
               << "expects inputs to match the result outside the "
                  "concatenation axis, got "
               << input.getType() << " for " << result.getType();
    }
  }
  return success();
}

LogicalResult verifyMinRank(Operation *op, Value value, int64_t minRank,
                            StringRef name) {
  std::optional<int64_t> actual = getRank(value);
  if (actual && *actual < minRank)
    return op->emitOpError() << "expects " << name << " of rank >= " << minRank
                             << ", got rank " << *actual;
  return success();
}

LogicalResult verifyScalar(Operation *op, Value value, StringRef name) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && type.hasStaticShape() && type.getNumElements() != 1)
    return op->emitOpError() << "expects " << name << " to be a scalar, got "
                             << type;
  return success();
}

LogicalResult verifyIntegerVector(Operation *op, Value value, StringRef name) {
  auto type = cast<TensorType>(value.getType());
  if (!type.getElementType().isInteger() ||
      (type.hasRank() && type.getRank() != 1))
    return op->emitOpError() << "expects " << name
                             << " to be a 1-D integer tensor, got " << type;
  return success();
}

LogicalResult verifySameElementType(Operation *op, Value a, StringRef aName,
                                    Value b, StringRef bName) {
  Type aType = getElementTypeOrSelf(a.getType());
  Type bType = getElementTypeOrSelf(b.getType());
  if (aType != bType)
    return op->emitOpError() << "expects " << aName << " and " << bName
                             << " to have the same element type, got " << aType
                             << " and " << bType;
  return success();
}

LogicalResult verifyWindow(Operation *op, Value x, const WindowAttrs &attrs,
                           ArrayRef<int64_t> kernel) {
  if (!llvm::is_contained({"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"},
                          attrs.autoPad))
    return op->emitOpError() << "expects auto_pad to be NOTSET, SAME_UPPER, "
                                "SAME_LOWER or VALID, got '"
                             << attrs.autoPad << "'";
  std::optional<int64_t> rank = getRank(x);
  if (!rank)
    return success();
  if (*rank < 3)
    return op->emitOpError() << "expects an input of rank >= 3 (N, C, "
                                "spatial...), got rank "
                             << *rank;
  if (std::optional<std::string> error =
          findWindowAttrError(*rank - 2, attrs.kernelShape, attrs.pads,
                              attrs.strides, attrs.dilations))
    return op->emitOpError() << *error;
  // SAME padding always fits; otherwise the window's extent must not exceed
  // the padded input (a 5x5 kernel on a 3x3 input has no output position).
  int64_t spatial = *rank - 2;
  SmallVector<int64_t> sizes =
      kernel.empty() ? getIntsOr(attrs.kernelShape, spatial, 0)
                     : SmallVector<int64_t>(kernel);
  std::optional<SmallVector<int64_t>> shape = getShapeOf(x);
  if (!shape || int64_t(sizes.size()) != spatial ||
      attrs.autoPad.starts_with("SAME"))
    return success();
  SmallVector<int64_t> dilations = getIntsOr(attrs.dilations, spatial, 1);
  SmallVector<int64_t> pads = attrs.autoPad == "VALID"
                                  ? SmallVector<int64_t>(2 * spatial, 0)
                                  : getIntsOr(attrs.pads, 2 * spatial, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = (*shape)[i + 2];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(sizes[i]) ||
        sizes[i] < 1)
      continue;
    int64_t extent = (sizes[i] - 1) * dilations[i] + 1;
    int64_t padded = in + pads[i] + pads[i + spatial];
    if (extent > padded)
      return op->emitOpError()
             << "has a window larger than its padded input in spatial "
                "dimension "
             << i << ": kernel " << sizes[i] << " with dilation "
             << dilations[i] << " spans " << extent << ", the input is " << in
             << " with pads " << pads[i] << " + " << pads[i + spatial];
  }
  return success();
}

LogicalResult verifyConvolution(Operation *op, Value x, Value w, int64_t group,
                                WindowAttrs attrs) {
  if (group < 1)
    return op->emitOpError() << "expects group >= 1, got " << group;
  SmallVector<int64_t> weightKernel;
  if (std::optional<SmallVector<int64_t>> wShape = getShapeOf(w);
      wShape && wShape->size() > 2 && !attrs.kernelShape)
    weightKernel.assign(wShape->begin() + 2, wShape->end());
  if (failed(verifyWindow(op, x, attrs, weightKernel)))
    return failure();
  std::optional<int64_t> xRank = getRank(x), wRank = getRank(w);
  if (xRank && wRank && *xRank != *wRank)
    return op->emitOpError() << "expects weights of the input's rank "
                             << *xRank << ", got rank " << *wRank;
  std::optional<int64_t> channels = getStaticDim(x, 1);
  std::optional<int64_t> wChannels = getStaticDim(w, 1);
  if (channels && wChannels && *channels != *wChannels * group)
    return op->emitOpError()
           << "expects input channels (" << *channels
           << ") = weight channels (" << *wChannels << ") * group (" << group
           << ")";
  std::optional<int64_t> filters = getStaticDim(w, 0);
  if (filters && *filters % group != 0)
    return op->emitOpError() << "expects the number of filters (" << *filters
                             << ") to be a multiple of group (" << group << ")";
  SmallVector<int64_t> kernel = getI64Values(attrs.kernelShape);
  for (auto [i, k] : llvm::enumerate(kernel)) {
    std::optional<int64_t> dim = getStaticDim(w, i + 2);
    if (dim && *dim != k)
      return op->emitOpError() << "expects kernel_shape to match the weights' "
                                  "spatial dimensions, got "
                               << k << " for spatial dimension " << i
                               << " of size " << *dim;
  }
  return success();
}

LogicalResult verifyQuantParams(Operation *op, Value data, Value scale,
                                Value zeroPoint, int64_t axis) {
  if (!isa<FloatType>(getElementTypeOrSelf(scale.getType())))
    return op->emitOpError() << "expects a floating-point scale, got "
                             << scale.getType();
  if (zeroPoint) {
    auto scaleType = dyn_cast<RankedTensorType>(scale.getType());
    auto zpType = dyn_cast<RankedTensorType>(zeroPoint.getType());
    // A single element may be spelled as a scalar or as a 1-element tensor
    // (ONNX Runtime's quantizer mixes the two for per-tensor biases).
    auto isSingle = [](RankedTensorType t) {
      return t.hasStaticShape() && t.getNumElements() == 1;
    };
    if (scaleType && zpType && scaleType.getShape() != zpType.getShape() &&
        !(isSingle(scaleType) && isSingle(zpType)))
      return op->emitOpError()
             << "expects scale and zero point of the same shape, got "
             << scaleType << " and " << zpType;
  }
  std::optional<int64_t> scaleRank = getRank(scale);
  if (!scaleRank || *scaleRank == 0)
    return success();
  if (*scaleRank != 1)
    return op->emitOpError() << "expects a scalar or 1-D scale, got rank "
                             << *scaleRank;
  std::optional<int64_t> rank = getRank(data);
  std::optional<int64_t> length = getStaticDim(scale, 0);
  if (!rank || !length || *length == 1)
    return success();
  if (failed(verifyAxis(op, axis, *rank)))
    return failure();
  std::optional<int64_t> dim = getStaticDim(data, normalizeAxis(axis, *rank));
  if (dim && *dim != *length)
    return op->emitOpError() << "expects a per-axis scale of length " << *dim
                             << " (dimension " << axis << "), got " << *length;
  return success();
}

LogicalResult verifyInt8Element(Operation *op, Value value, StringRef name) {
  auto type = dyn_cast<IntegerType>(getElementTypeOrSelf(value.getType()));
  if (!type || type.getWidth() != 8 || type.isSigned())
    return op->emitOpError() << "expects " << name
                             << " with i8 or ui8 elements, got "
                             << value.getType();
  return success();
}

LogicalResult verifyInt8Or16Element(Operation *op, Value value,
                                    StringRef name) {
  auto type = dyn_cast<IntegerType>(getElementTypeOrSelf(value.getType()));
  if (!type || (type.getWidth() != 8 && type.getWidth() != 16) ||
      type.isSigned())
    return op->emitOpError() << "expects " << name
                             << " with i8, ui8, i16 or ui16 elements, got "
                             << value.getType();
  return success();
}

} // namespace mlir::onnxq::detail
