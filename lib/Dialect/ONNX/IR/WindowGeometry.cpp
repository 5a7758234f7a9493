//===- WindowGeometry.cpp - sliding-window sizes of convs and pools -------===//

#include "onnx-quant/Dialect/ONNX/IR/WindowGeometry.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxq;

SmallVector<int64_t> mlir::onnxq::getIntsOr(ArrayAttr attr, size_t size,
                                            int64_t fallback) {
  if (!attr)
    return SmallVector<int64_t>(size, fallback);
  SmallVector<int64_t> values;
  for (Attribute a : attr)
    values.push_back(cast<IntegerAttr>(a).getInt());
  return values;
}

std::optional<std::string> mlir::onnxq::findWindowAttrError(
    size_t spatial, ArrayAttr kernelShape, ArrayAttr pads, ArrayAttr strides,
    ArrayAttr dilations) {
  struct Check {
    StringRef name;
    ArrayAttr attr;
    size_t size;
    int64_t min;
  };
  for (const Check &check : {Check{"kernel_shape", kernelShape, spatial, 1},
                             Check{"pads", pads, 2 * spatial, 0},
                             Check{"strides", strides, spatial, 1},
                             Check{"dilations", dilations, spatial, 1}}) {
    if (!check.attr)
      continue;
    if (check.attr.size() != check.size)
      return ("expects " + check.name + " to have " + Twine(check.size) +
              " values, got " + Twine(check.attr.size()))
          .str();
    for (int64_t v : getIntsOr(check.attr, 0, 0))
      if (v < check.min)
        return ("expects " + check.name + " values >= " + Twine(check.min) +
                ", got " + Twine(v))
            .str();
  }
  return std::nullopt;
}

/// Whether `kernel` has a size of at least 1 for each spatial dimension (it
/// may come from a weight's shape rather than an attribute).
static bool isValidKernel(ArrayRef<int64_t> kernel, size_t spatial) {
  return kernel.size() == spatial &&
         llvm::all_of(kernel, [](int64_t k) { return k >= 1; });
}

std::pair<int64_t, int64_t> mlir::onnxq::splitSamePadding(int64_t total,
                                                          StringRef autoPad) {
  int64_t begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
  return {begin, total - begin};
}

std::optional<WindowGeometry> mlir::onnxq::computeWindowGeometry(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> kernel, ArrayAttr pads,
    ArrayAttr strides, ArrayAttr dilations, StringRef autoPad, bool ceilMode) {
  size_t spatial = inputShape.size() - 2;
  WindowGeometry g;
  g.kernel.assign(kernel.begin(), kernel.end());
  if (!isValidKernel(kernel, spatial) ||
      findWindowAttrError(spatial, nullptr, pads, strides, dilations))
    return std::nullopt;
  g.strides = getIntsOr(strides, spatial, 1);
  g.dilations = getIntsOr(dilations, spatial, 1);
  SmallVector<int64_t> explicitPads = getIntsOr(pads, 2 * spatial, 0);
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = inputShape[i + 2];
    if (ShapedType::isDynamic(in)) {
      g.padBegin.push_back(0);
      g.padEnd.push_back(0);
      g.output.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t extent = (g.kernel[i] - 1) * g.dilations[i] + 1;
    int64_t begin = explicitPads[i], end = explicitPads[i + spatial];
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t out = (in + g.strides[i] - 1) / g.strides[i];
      int64_t total = std::max<int64_t>(0, (out - 1) * g.strides[i] + extent - in);
      std::tie(begin, end) = splitSamePadding(total, autoPad);
    } else if (autoPad == "VALID") {
      begin = end = 0;
    } else if (autoPad != "NOTSET") {
      return std::nullopt;
    }
    int64_t span = in + begin + end - extent;
    if (span < 0)
      return std::nullopt;
    int64_t out = (ceilMode ? (span + g.strides[i] - 1) / g.strides[i]
                            : span / g.strides[i]) + 1;
    // A ceil-mode window must start inside the (padded) input.
    if (ceilMode && (out - 1) * g.strides[i] >= in + begin)
      --out;
    g.padBegin.push_back(begin);
    g.padEnd.push_back(end);
    g.output.push_back(out);
  }
  return g;
}

std::optional<TransposeWindowGeometry> mlir::onnxq::computeTransposeWindowGeometry(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> kernel, ArrayAttr pads,
    ArrayAttr strides, ArrayAttr dilations, ArrayAttr outputPaddingAttr,
    ArrayAttr outputShapeAttr, StringRef autoPad) {
  size_t spatial = kernel.size();
  if (!isValidKernel(kernel, spatial) ||
      findWindowAttrError(spatial, nullptr, pads, strides, dilations))
    return std::nullopt;
  TransposeWindowGeometry g;
  g.strides = getIntsOr(strides, spatial, 1);
  g.dilations = getIntsOr(dilations, spatial, 1);
  SmallVector<int64_t> outputPadding = getIntsOr(outputPaddingAttr, spatial, 0);
  SmallVector<int64_t> explicitPads = getIntsOr(pads, 2 * spatial, 0);
  SmallVector<int64_t> outputShape = getIntsOr(outputShapeAttr, spatial, 0);
  if (outputPadding.size() != spatial || outputShape.size() != spatial)
    return std::nullopt;
  bool derived = outputShapeAttr || autoPad == "SAME_UPPER" ||
                 autoPad == "SAME_LOWER";
  if (!derived && autoPad != "VALID" && autoPad != "NOTSET")
    return std::nullopt;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = inputShape[i + 2];
    if (ShapedType::isDynamic(in)) {
      g.padBegin.push_back(0);
      g.full.push_back(ShapedType::kDynamic);
      g.output.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t full = g.strides[i] * (in - 1) + outputPadding[i] +
                   (kernel[i] - 1) * g.dilations[i] + 1;
    int64_t begin = explicitPads[i], end = explicitPads[i + spatial];
    if (derived) {
      int64_t out = outputShapeAttr ? outputShape[i] : in * g.strides[i];
      // An output larger than `full` ends in positions no input reaches
      // (bias only), as in ONNX Runtime.
      int64_t total = std::max<int64_t>(0, full - out);
      full = std::max(full, out);
      std::tie(begin, end) = splitSamePadding(total, autoPad);
    } else if (autoPad == "VALID") {
      begin = end = 0;
    }
    if (begin < 0 || end < 0 || full - begin - end < 1)
      return std::nullopt;
    g.padBegin.push_back(begin);
    g.full.push_back(full);
    g.output.push_back(full - begin - end);
  }
  return g;
}
