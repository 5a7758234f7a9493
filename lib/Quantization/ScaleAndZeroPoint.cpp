//===- ScaleAndZeroPoint.cpp - the affine mapping of a range --------------===//

#include "ScaleAndZeroPoint.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

QuantType QuantType::get(bool isSigned, bool symmetric, bool reduceRange,
                         unsigned bits) {
  if (bits == 4) {
    if (isSigned)
      return reduceRange ? QuantType{true, -4, 3, 4} : QuantType{true, -8, 7, 4};
    return {false, 0, reduceRange ? 7 : 15, 4};
  }
  if (bits == 16)
    return isSigned ? QuantType{true, symmetric ? -32767 : -32768, 32767, 16}
                    : QuantType{false, 0, 65535, 16};
  if (isSigned) {
    if (reduceRange)
      return {true, -64, 64};
    return {true, symmetric ? -127 : -128, 127};
  }
  return {false, 0, reduceRange ? 127 : 255};
}

ScaleAndZeroPoint mlir::onnxq::computeScaleAndZeroPoint(float rmin, float rmax,
                                            QuantType type, bool symmetric) {
  rmin = std::min(rmin, 0.0f);
  rmax = std::max(rmax, 0.0f);
  if (symmetric) {
    float absMax = std::max(std::fabs(rmin), std::fabs(rmax));
    rmin = -absMax;
    rmax = absMax;
  }
  ScaleAndZeroPoint params;
  // In float as ONNX Runtime does; a span past float's range (samples near
  // +-3e38) in double, where ONNX Runtime's scale would be inf.
  float span = rmax - rmin;
  double scale = std::isfinite(span)
                     ? double(span) / double(type.qmax - type.qmin)
                     : (double(rmax) - double(rmin)) / double(type.qmax - type.qmin);
  // A range below float's smallest normal number (all zeros, subnormal
  // samples): as ONNX Runtime, scale 1 and zero point 0; any scale
  // represents it, and a subnormal one would overflow the multipliers.
  if (!(scale >= double(std::numeric_limits<float>::min()))) {
    params.scale = 1.0f;
    params.zeroPoint = 0;
    return params;
  }
  params.scale = float(scale);
  if (symmetric) {
    params.zeroPoint = type.isSigned ? 0 : (type.qmax + 1) / 2;
    return params;
  }
  // From the scale before its rounding to float, in double, as ONNX
  // Runtime (numpy) does: at 16 bits float's 24-bit mantissa would round
  // the zero point differently.
  double zp = std::nearbyint(double(type.qmin) - double(rmin) / scale);
  params.zeroPoint =
      int64_t(std::clamp(zp, double(type.qmin), double(type.qmax)));
  return params;
}

int64_t mlir::onnxq::quantizeValue(float x, ScaleAndZeroPoint params, QuantType type) {
  float q = std::nearbyint(x / params.scale) + float(params.zeroPoint);
  return int64_t(std::clamp(q, float(type.qmin), float(type.qmax)));
}

SmallVector<float> QuantizedWeights::getScales() const {
  return llvm::map_to_vector(params, [](ScaleAndZeroPoint p) { return p.scale; });
}

SmallVector<int64_t> QuantizedWeights::getZeroPoints() const {
  return llvm::map_to_vector(params, [](ScaleAndZeroPoint p) { return p.zeroPoint; });
}

/// WeightScaleRule::WeightOnly, as MLAS's blockwise quantization (ONNX
/// Runtime's weight-only quantizer) computes it from each group's range
/// [lo, hi]: signed types put the extreme (hi when |hi| > |lo|, else lo) on
/// -2^(bits-1), scale = extreme / -2^(bits-1), zero point 0; unsigned types
/// spread the range widened to 0 over [0, 2^bits - 1], scale = (hi - lo) /
/// (2^bits - 1), zero point = roundf(-lo / scale) saturated. Then
/// q = clamp(roundf(w * (1 / scale)) + zero point), 1 / 0 taken as 0.
static QuantizedWeights
quantizeWeightOnly(ArrayRef<float> weights, ArrayRef<std::pair<float, float>> ranges,
                   function_ref<int64_t(int64_t)> groupOf, QuantType type) {
  float half = std::ldexp(1.0f, int(type.bits) - 1);
  QuantizedWeights result;
  for (auto [lo, hi] : ranges) {
    if (type.isSigned) {
      float extreme = std::fabs(hi) > std::fabs(lo) ? hi : lo;
      result.params.push_back({extreme / -half, 0});
      continue;
    }
    lo = std::min(lo, 0.0f);
    hi = std::max(hi, 0.0f);
    float scale = (hi - lo) / float(type.qmax);
    float zeroPoint = scale != 0.0f ? 0.0f - lo / scale : lo;
    result.params.push_back(
        {scale, int64_t(zeroPoint < 0.0f              ? 0.0f
                        : zeroPoint > float(type.qmax) ? float(type.qmax)
                                                       : std::round(zeroPoint))});
  }
  result.values.reserve(weights.size());
  for (auto [i, w] : llvm::enumerate(weights)) {
    ScaleAndZeroPoint p = result.params[groupOf(i)];
    float reciprocal = p.scale != 0.0f ? 1.0f / p.scale : 0.0f;
    float q = std::round(w * reciprocal) + float(p.zeroPoint);
    result.values.push_back(
        int64_t(std::clamp(q, float(type.qmin), float(type.qmax))));
  }
  return result;
}

AxisLayout AxisLayout::get(ArrayRef<int64_t> shape, std::optional<int64_t> axis,
                           int64_t blockSize) {
  AxisLayout layout;
  if (!axis)
    return layout;
  layout.size = shape[*axis];
  for (size_t d = *axis + 1; d < shape.size(); ++d)
    layout.inner *= shape[d];
  if (blockSize > 0) {
    layout.blockSize = blockSize;
    layout.blocks = llvm::divideCeil(layout.size, blockSize);
  }
  return layout;
}

QuantizedWeights mlir::onnxq::quantizeWeights(
    ArrayRef<float> weights, ArrayRef<int64_t> shape,
    std::optional<int64_t> channelAxis, QuantType type,
    function_ref<void(MutableArrayRef<ScaleAndZeroPoint>)> adjust,
    int64_t blockSize, WeightScaleRule rule) {
  AxisLayout layout =
      AxisLayout::get(shape, channelAxis, channelAxis ? blockSize : 0);
  int64_t groups = layout.getParameterCount(int64_t(weights.size()));
  auto groupOf = [&](int64_t i) { return layout.getParameterIndex(i); };
  SmallVector<std::pair<float, float>> ranges(
      groups, {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()});
  for (auto [i, w] : llvm::enumerate(weights)) {
    auto &[lo, hi] = ranges[groupOf(i)];
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
  if (rule == WeightScaleRule::WeightOnly)
    return quantizeWeightOnly(weights, ranges, groupOf, type);
  QuantizedWeights result;
  for (auto [lo, hi] : ranges) {
    float m = std::max(std::fabs(lo), std::fabs(hi));
    result.params.push_back(computeScaleAndZeroPoint(-m, m, type, /*symmetric=*/true));
  }
  if (adjust)
    adjust(result.params);
  result.values.reserve(weights.size());
  for (auto [i, w] : llvm::enumerate(weights))
    result.values.push_back(quantizeValue(w, result.params[groupOf(i)], type));
  return result;
}

void mlir::onnxq::widenWeightScalesForBias(MutableArrayRef<ScaleAndZeroPoint> weights,
                                           float inputScale, ArrayRef<float> bias) {
  // int32's range less its most negative value, as ONNX Runtime's.
  const double range = 2147483647.0 - (-2147483647.0);
  auto widen = [&](ScaleAndZeroPoint &w, double biasAbsMax) {
    double smallest = 1.0001 * (2.0 * biasAbsMax) / range;
    double candidate = double(inputScale) * double(w.scale);
    if (candidate < smallest && candidate > 0.0)
      w.scale = float(double(w.scale) * (smallest / candidate));
  };
  if (weights.size() == 1) {
    double absMax = 0;
    for (float b : bias)
      absMax = std::max(absMax, std::fabs(double(b)));
    widen(weights[0], absMax);
    return;
  }
  for (auto [c, w] : llvm::enumerate(weights))
    if (c < bias.size())
      widen(w, std::fabs(double(bias[c])));
}
