//===- ShapeRules.cpp - pieces shared by the ops' shape rules -------------===//

#include "ShapeRules.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/WindowGeometry.h"

using namespace mlir;

namespace mlir::onnxq::detail {

std::optional<SmallVector<int64_t>> getShapeOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  return SmallVector<int64_t>(type.getShape());
}

std::optional<SmallVector<int64_t>>
getShapeOrAppendUnranked(Value data, SmallVectorImpl<Type> &resultTypes) {
  std::optional<SmallVector<int64_t>> shape = getShapeOf(data);
  if (!shape)
    resultTypes.push_back(UnrankedTensorType::get(getElementTypeOf(data)));
  return shape;
}

Type getTensorType(std::optional<ArrayRef<int64_t>> shape, Type elementType) {
  if (!shape)
    return UnrankedTensorType::get(elementType);
  return RankedTensorType::get(*shape, elementType);
}

Type getDynamicTensorType(int64_t rank, Type elementType) {
  return RankedTensorType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                               elementType);
}

/// Broadcasts `shape` into `result`, numpy-style (right-aligned, size 1
/// repeats); fails when two static sizes differ and neither is 1.
static LogicalResult broadcastInto(SmallVectorImpl<int64_t> &result,
                                   ArrayRef<int64_t> shape) {
  if (shape.size() > result.size())
    result.insert(result.begin(), shape.size() - result.size(), 1);
  size_t offset = result.size() - shape.size();
  for (auto [i, dim] : llvm::enumerate(shape)) {
    int64_t &out = result[offset + i];
    if (dim == 1 || out == dim)
      continue;
    if (out == 1) {
      out = dim;
    } else if (ShapedType::isDynamic(out) || ShapedType::isDynamic(dim)) {
      // ? with n is n (or the op is invalid); ? with ? stays unknown.
      out = ShapedType::isDynamic(out) ? dim : out;
    } else {
      return failure();
    }
  }
  return success();
}

FailureOr<std::optional<SmallVector<int64_t>>>
broadcastShapes(ValueRange inputs) {
  SmallVector<int64_t> result;
  for (Value input : inputs) {
    std::optional<SmallVector<int64_t>> shape = getShapeOf(input);
    if (!shape)
      return std::optional<SmallVector<int64_t>>();
    if (failed(broadcastInto(result, *shape)))
      return failure();
  }
  return std::optional(result);
}

LogicalResult appendResultType(
    FailureOr<std::optional<SmallVector<int64_t>>> shape, Type elementType,
    SmallVectorImpl<Type> &resultTypes) {
  if (failed(shape))
    return failure();
  resultTypes.push_back(getTensorType(*shape, elementType));
  return success();
}

LogicalResult inferBroadcast(ValueRange inputs, Type elementType,
                             SmallVectorImpl<Type> &resultTypes) {
  return appendResultType(broadcastShapes(inputs), elementType, resultTypes);
}

LogicalResult inferSameShape(Value input, Type elementType,
                             SmallVectorImpl<Type> &resultTypes) {
  resultTypes.push_back(getTensorType(getShapeOf(input), elementType));
  return success();
}

FailureOr<std::optional<SmallVector<int64_t>>> matmulShape(Value a, Value b) {
  std::optional<SmallVector<int64_t>> aShape = getShapeOf(a), bShape = getShapeOf(b);
  if (!aShape || !bShape)
    return std::optional<SmallVector<int64_t>>();
  if (aShape->empty() || bShape->empty())
    return failure();
  bool aVector = aShape->size() == 1, bVector = bShape->size() == 1;
  if (aVector)
    aShape->insert(aShape->begin(), 1);
  if (bVector)
    bShape->push_back(1);
  int64_t k = aShape->back(), k2 = (*bShape)[bShape->size() - 2];
  if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(k2) && k != k2)
    return failure();
  // Batch dimensions broadcast.
  SmallVector<int64_t> result(ArrayRef(*aShape).drop_back(2));
  if (failed(broadcastInto(result, ArrayRef(*bShape).drop_back(2))))
    return failure();
  if (!aVector)
    result.push_back((*aShape)[aShape->size() - 2]);
  if (!bVector)
    result.push_back(bShape->back());
  return std::optional(result);
}

FailureOr<SmallVector<int64_t>> gemmShape(Value a, Value b, bool transA,
                                          bool transB) {
  std::optional<SmallVector<int64_t>> aShape = getShapeOf(a), bShape = getShapeOf(b);
  if (aShape && aShape->size() != 2)
    return failure();
  if (bShape && bShape->size() != 2)
    return failure();
  int64_t m = aShape ? (*aShape)[transA ? 1 : 0] : ShapedType::kDynamic;
  int64_t n = bShape ? (*bShape)[transB ? 0 : 1] : ShapedType::kDynamic;
  return SmallVector<int64_t>{m, n};
}

FailureOr<std::optional<SmallVector<int64_t>>>
convolutionShape(Value x, Value w, const WindowAttrs &window) {
  std::optional<SmallVector<int64_t>> xShape = getShapeOf(x), wShape = getShapeOf(w);
  if (!xShape && !wShape)
    return std::optional<SmallVector<int64_t>>();
  int64_t rank = xShape ? xShape->size() : wShape->size();
  if (rank < 3 || (xShape && wShape && xShape->size() != wShape->size()))
    return failure();
  SmallVector<int64_t> kernel =
      window.kernelShape ? getIntsOr(window.kernelShape, 0, 0)
      : wShape    ? SmallVector<int64_t>(ArrayRef(*wShape).drop_front(2))
                  : SmallVector<int64_t>(rank - 2, ShapedType::kDynamic);
  SmallVector<int64_t> result = {
      xShape ? (*xShape)[0] : ShapedType::kDynamic,
      wShape ? (*wShape)[0] : ShapedType::kDynamic};
  bool known = xShape && llvm::none_of(kernel, ShapedType::isDynamic);
  if (!known) {
    result.append(rank - 2, ShapedType::kDynamic);
    return std::optional(result);
  }
  std::optional<WindowGeometry> g = computeWindowGeometry(
      *xShape, kernel, window.pads, window.strides, window.dilations,
      window.autoPad, /*ceilMode=*/false);
  if (!g)
    return failure();
  result.append(g->output.begin(), g->output.end());
  return std::optional(result);
}

FailureOr<std::optional<SmallVector<int64_t>>>
poolingShape(Value x, const WindowAttrs &window, bool ceilMode) {
  std::optional<SmallVector<int64_t>> xShape = getShapeOf(x);
  if (!xShape)
    return std::optional<SmallVector<int64_t>>();
  if (xShape->size() < 3)
    return failure();
  std::optional<WindowGeometry> g = computeWindowGeometry(
      *xShape, getIntsOr(window.kernelShape, 0, 0), window.pads,
      window.strides, window.dilations, window.autoPad, ceilMode);
  if (!g || g->kernel.size() != xShape->size() - 2)
    return failure();
  SmallVector<int64_t> result(ArrayRef(*xShape).take_front(2));
  result.append(g->output.begin(), g->output.end());
  return std::optional(result);
}

SlicedDim sliceDim(int64_t start, int64_t end, int64_t step, int64_t dim) {
  auto wrap = [&](int64_t v) {
    return v < 0 ? std::max<int64_t>(v, -dim - 1) + dim : v;
  };
  start = wrap(start);
  end = wrap(end);
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    return {start, end > start ? (end - start + step - 1) / step : 0};
  }
  start = std::clamp<int64_t>(start, 0, dim - 1);
  end = std::clamp<int64_t>(end, -1, dim - 1);
  return {start, start > end ? (start - end - step - 1) / -step : 0};
}

FailureOr<std::optional<SmallVector<int64_t>>>
globalPoolingShape(Value x, bool channelsLast) {
  std::optional<SmallVector<int64_t>> shape = getShapeOf(x);
  if (!shape)
    return shape;
  if (shape->size() < 3)
    return failure();
  auto first = shape->begin() + (channelsLast ? 1 : 2);
  auto last = channelsLast ? shape->end() - 1 : shape->end();
  std::fill(first, last, 1);
  return shape;
}

std::optional<SmallVector<int64_t>> reducedShape(Value data,
                                                 ArrayRef<int64_t> axes,
                                                 bool keepDims) {
  std::optional<SmallVector<int64_t>> shape = getShapeOf(data);
  if (!shape)
    return std::nullopt;
  int64_t rank = shape->size();
  SmallVector<bool> reduced(rank, axes.empty());
  for (int64_t axis : axes)
    if (axis >= -rank && axis < rank)
      reduced[normalizeAxis(axis, rank)] = true;
  SmallVector<int64_t> result;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      result.push_back((*shape)[d]);
    else if (keepDims)
      result.push_back(1);
  }
  return result;
}

} // namespace mlir::onnxq::detail
