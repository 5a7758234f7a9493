//===- NNOps.cpp - convolution, pooling, normalization, softmax -----------===//

#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

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
  WindowAttrs window{getKernelShapeAttr(), getPadsAttr(), getStridesAttr(),
                     getDilationsAttr(), getAutoPad()};
  if (failed(verifyConvolution(*this, getX(), getW(), getGroup(), window)))
    return failure();
  return verifyBias(*this, getB(), getW(), 0);
}

LogicalResult ConvTransposeOp::verify() {
  if (getGroup() < 1)
    return emitOpError() << "expects group >= 1, got " << getGroup();
  WindowAttrs window{getKernelShapeAttr(), getPadsAttr(), getStridesAttr(),
                     getDilationsAttr(), getAutoPad()};
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
  WindowAttrs window{getKernelShapeAttr(), getPadsAttr(), getStridesAttr(),
                     getDilationsAttr(), getAutoPad()};
  return verifyPool(*this, getX(), window, getCeilMode());
}

LogicalResult AveragePoolOp::verify() {
  WindowAttrs window{getKernelShapeAttr(), getPadsAttr(), getStridesAttr(),
                     nullptr, getAutoPad()};
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
  if (!llvm::is_contained({"half_pixel", "pytorch_half_pixel", "align_corners",
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
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifyAxisOf(*this, getAxis(), getInput());
}
