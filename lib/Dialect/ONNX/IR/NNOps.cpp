//===- NNOps.cpp - convolution, pooling, normalization, softmax -----------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/WindowGeometry.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

/// The bias, when present, has one entry per output channel.
static LogicalResult verifyBias(Operation *op, Value bias, Value weights,
                                int64_t outputChannelDim) {
  if (!bias)
    return success();
  if (failed(verifyRank(op, bias, 1, "bias")))
    return failure();
  std::optional<int64_t> size = getStaticDim(bias, 0);
  std::optional<int64_t> channels = getStaticDim(weights, outputChannelDim);
  if (size && channels && *size != *channels)
    return op->emitOpError() << "expects a bias of " << *channels
                             << " elements, got " << *size;
  return success();
}

LogicalResult ConvOp::verify() {
  WindowAttrs window = getWindowAttrs(*this);
  if (failed(verifyConvolution(*this, getX(), getW(), getGroup(), window)))
    return failure();
  return verifyBias(*this, getB(), getW(), 0);
}

LogicalResult ConvTransposeOp::verify() {
  if (getGroup() < 1)
    return emitOpError() << "expects group >= 1, got " << getGroup();
  WindowAttrs window = getWindowAttrs(*this);
  if (failed(verifyWindow(*this, getX(), window)))
    return failure();
  std::optional<int64_t> channels = getStaticDim(getX(), 1);
  std::optional<int64_t> wChannels = getStaticDim(getW(), 0);
  if (channels && wChannels && *channels != *wChannels)
    return emitOpError() << "expects weights with " << *channels
                         << " input channels in dimension 0, got " << *wChannels;
  if (std::optional<int64_t> rank = getRank(getX())) {
    size_t spatial = *rank - 2;
    for (ArrayAttr attr : {getOutputPaddingAttr(), getOutputShapeAttr()})
      if (attr && attr.size() != spatial)
        return emitOpError() << "expects output_padding and output_shape to "
                                "have one value per spatial dimension ("
                             << spatial << "), got " << attr.size();
  }
  // Output channels are W[1] * group; the bias is checked against them.
  std::optional<int64_t> perGroup = getStaticDim(getW(), 1);
  std::optional<int64_t> bias = getB() ? getStaticDim(getB(), 0) : std::nullopt;
  if (perGroup && bias && *bias != *perGroup * getGroup())
    return emitOpError() << "expects a bias of " << *perGroup * getGroup()
                         << " elements, got " << *bias;
  return success();
}

static LogicalResult verifyPool(Operation *op, Value x, WindowAttrs window,
                                int64_t ceilMode) {
  if (ceilMode != 0 && ceilMode != 1)
    return op->emitOpError() << "expects ceil_mode 0 or 1, got " << ceilMode;
  return verifyWindow(op, x, window);
}

LogicalResult MaxPoolOp::verify() {
  if (getStorageOrder() != 0 && getStorageOrder() != 1)
    return emitOpError() << "expects storage_order 0 or 1, got "
                         << getStorageOrder();
  WindowAttrs window = getWindowAttrs(*this);
  return verifyPool(*this, getX(), window, getCeilMode());
}

LogicalResult AveragePoolOp::verify() {
  WindowAttrs window = getWindowAttrs(*this);
  return verifyPool(*this, getX(), window, getCeilMode());
}

LogicalResult GlobalAveragePoolOp::verify() {
  return verifyMinRank(*this, getX(), 3, "an input");
}

LogicalResult GlobalMaxPoolOp::verify() {
  return verifyMinRank(*this, getX(), 3, "an input");
}

LogicalResult BatchNormalizationOp::verify() {
  if (failed(verifyMinRank(*this, getX(), 2, "an input")))
    return failure();
  std::optional<int64_t> channels = getStaticDim(getX(), 1);
  const StringRef names[] = {"scale", "B", "input_mean", "input_var"};
  Value values[] = {getScale(), getB(), getInputMean(), getInputVar()};
  for (auto [value, name] : llvm::zip(values, names)) {
    if (failed(verifyRank(*this, value, 1, name)))
      return failure();
    std::optional<int64_t> size = getStaticDim(value, 0);
    if (channels && size && *size != *channels)
      return emitOpError() << "expects " << name << " of " << *channels
                           << " elements (one per channel), got " << *size;
  }
  size_t stats = getRunningStats().size();
  if (stats != 0 && stats != 2)
    return emitOpError() << "expects 1 or 3 results, got " << stats + 1;
  if (stats == 2 && getTrainingMode() != 1)
    return emitOpError("expects training_mode = 1 when the running mean and "
                       "variance are results");
  return success();
}

LogicalResult LayerNormalizationOp::verify() {
  if (getStats().size() > 2)
    return emitOpError() << "expects at most 3 results, got "
                         << getStats().size() + 1;
  std::optional<int64_t> rank = getRank(getX());
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}

/// Per-channel scale and bias of a normalization of `x` (N, C, ...) in
/// `groups` groups.
static LogicalResult verifyChannelNormalization(Operation *op, Value x,
                                                Value scale, Value bias,
                                                int64_t groups) {
  if (failed(verifyMinRank(op, x, 3, "an input")))
    return failure();
  std::optional<int64_t> channels = getStaticDim(x, 1);
  for (Value v : {scale, bias}) {
    std::optional<int64_t> rank = getRank(v);
    std::optional<int64_t> length = getStaticDim(v, 0);
    if ((rank && *rank != 1) || (channels && length && *length != *channels))
      return op->emitOpError() << "expects a scale and bias of one element per "
                                  "channel, got "
                               << v.getType();
  }
  if (groups < 1 || (channels && *channels % groups != 0))
    return op->emitOpError() << "expects num_groups dividing the " << channels.value_or(0)
                             << " channels, got " << groups;
  return success();
}

LogicalResult InstanceNormalizationOp::verify() {
  std::optional<int64_t> channels = getStaticDim(getInput(), 1);
  return verifyChannelNormalization(*this, getInput(), getScale(), getB(),
                                    channels.value_or(1));
}

LogicalResult GroupNormalizationOp::verify() {
  return verifyChannelNormalization(*this, getX(), getScale(), getBias(),
                                    getNumGroups());
}

LogicalResult DropoutOp::verify() {
  if (getRatio() && failed(verifyScalar(*this, getRatio(), "ratio")))
    return failure();
  if (getTrainingMode() &&
      failed(verifyScalar(*this, getTrainingMode(), "training_mode")))
    return failure();
  return success();
}

LogicalResult ResizeOp::verify() {
  if (!llvm::is_contained({"nearest", "linear", "cubic"}, getMode()))
    return emitOpError() << "expects mode nearest, linear or cubic, got '"
                         << getMode() << "'";
  // tf_half_pixel_for_nn is Resize-11's; opset 13 dropped it, but importing
  // an opset 11/12 model keeps it.
  if (!llvm::is_contained({"half_pixel", "half_pixel_symmetric",
                           "pytorch_half_pixel", "align_corners",
                           "asymmetric", "tf_crop_and_resize",
                           "tf_half_pixel_for_nn"},
                          getCoordinateTransformationMode()))
    return emitOpError() << "expects a known coordinate_transformation_mode, "
                            "got '"
                         << getCoordinateTransformationMode() << "'";
  if (!llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
          getNearestMode()))
    return emitOpError() << "expects a known nearest_mode, got '"
                         << getNearestMode() << "'";
  // Exporters often pass an empty `scales` next to `sizes`: that is absent.
  auto isGiven = [](Value v) {
    auto type = v ? dyn_cast<RankedTensorType>(v.getType()) : nullptr;
    return v && !(type && type.hasStaticShape() && type.getNumElements() == 0);
  };
  if (isGiven(getScales()) == isGiven(getSizes()))
    return emitOpError("expects exactly one of scales and sizes");
  if (std::optional<SmallVector<float>> scales =
          getConstantFloats(getScales());
      scales) {
    if (llvm::any_of(*scales, [](float s) { return !(s > 0); }))
      return emitOpError("expects positive scales");
    std::optional<SmallVector<int64_t>> in = getShapeOf(getX());
    if (in && in->size() == scales->size())
      for (auto [d, size] : llvm::enumerate(*in))
        if (!ShapedType::isDynamic(size) &&
            !(double(size) * double((*scales)[d]) < 0x1p62))
          return emitOpError() << "expects scales that keep sizes below "
                                  "2^62, got scale "
                               << (*scales)[d] << " for dimension " << d
                               << " of size " << size;
  }
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifyAxisOf(*this, getAxis(), getInput());
}

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

LogicalResult ConvOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(
      convolutionShape(getX(), getW(), getWindowAttrs(*this)),
      getElementTypeOf(getX()), types);
}

LogicalResult ConvTransposeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getX());
  std::optional<SmallVector<int64_t>> x = getShapeOf(getX()), w = getShapeOf(getW());
  if (!x || !w) {
    types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  if (x->size() < 3 || w->size() != x->size())
    return failure();
  SmallVector<int64_t> kernel =
      getKernelShapeAttr() ? getIntsOr(getKernelShapeAttr(), 0, 0)
                           : SmallVector<int64_t>(ArrayRef(*w).drop_front(2));
  std::optional<TransposeWindowGeometry> g = computeTransposeWindowGeometry(
      *x, kernel, getPadsAttr(), getStridesAttr(), getDilationsAttr(),
      getOutputPaddingAttr(), getOutputShapeAttr(), getAutoPad());
  if (!g)
    return failure();
  int64_t perGroup = (*w)[1];
  SmallVector<int64_t> shape = {
      (*x)[0], ShapedType::isDynamic(perGroup) ? perGroup : perGroup * getGroup()};
  llvm::append_range(shape, g->output);
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult MaxPoolOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  FailureOr<std::optional<SmallVector<int64_t>>> shape =
      poolingShape(getX(), getWindowAttrs(*this), getCeilMode());
  if (failed(appendResultType(shape, getElementTypeOf(getX()), types)))
    return failure();
  if (getIndices())
    types.push_back(getTensorType(*shape, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult AveragePoolOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  WindowAttrs window = getWindowAttrs(*this);
  return appendResultType(poolingShape(getX(), window, getCeilMode()),
                          getElementTypeOf(getX()), types);
}

LogicalResult GlobalAveragePoolOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(globalPoolingShape(getX(), /*channelsLast=*/false),
                          getElementTypeOf(getX()), types);
}

LogicalResult GlobalMaxPoolOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(globalPoolingShape(getX(), /*channelsLast=*/false),
                          getElementTypeOf(getX()), types);
}

LogicalResult
BatchNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getX().getType());
  for (Value stat : {getInputMean(), getInputVar()})
    if (types.size() < getNumResults())
      types.push_back(stat.getType());
  return success();
}

LogicalResult
LayerNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getX().getType());
  if (getNumResults() == 1)
    return success();
  // Mean and InvStdDev: size 1 from `axis` on, in float (stash_type).
  std::optional<SmallVector<int64_t>> shape = getShapeOf(getX());
  if (shape) {
    int64_t rank = shape->size();
    int64_t axis = normalizeAxis(getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return failure();
    std::fill(shape->begin() + axis, shape->end(), 1);
  }
  types.append(getNumResults() - 1,
               getTensorType(shape, Float32Type::get(getContext())));
  return success();
}

LogicalResult
InstanceNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getInput().getType());
  return success();
}

LogicalResult
GroupNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getX().getType());
  return success();
}

LogicalResult DropoutOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getData().getType());
  if (getMask())
    types.push_back(getTensorType(getShapeOf(getData()),
                                  IntegerType::get(getContext(), 1)));
  return success();
}

LogicalResult ResizeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getX());
  std::optional<SmallVector<int64_t>> in = getShapeOrAppendUnranked(getX(), types);
  if (!in)
    return success();
  int64_t rank = in->size();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  std::optional<SmallVector<int64_t>> sizes = getConstantIntegers(getSizes());
  std::optional<SmallVector<float>> scales = getConstantFloats(getScales());
  if (sizes && !sizes->empty()) {
    if (int64_t(sizes->size()) != rank)
      return failure();
    shape = *sizes;
  } else if (scales && !scales->empty()) {
    if (int64_t(scales->size()) != rank)
      return failure();
    // A scale that is not positive or gives a size past int64 leaves the
    // size unknown (the verifier names a bad scale).
    for (int64_t d = 0; d < rank; ++d) {
      double size = std::floor(double((*in)[d]) * double((*scales)[d]));
      if (!ShapedType::isDynamic((*in)[d]) && size >= 0 && size < 0x1p62)
        shape[d] = int64_t(size);
    }
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}
