//===- ScaleAndZeroPoint.cpp - the affine mapping of a range --------------===//

#include "ScaleAndZeroPoint.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

QuantType QuantType::get(bool isSigned, bool symmetric, bool reduceRange) {
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
  float span = rmax - rmin;
  // An all-zero tensor: any scale represents it; 1 avoids dividing by 0.
  params.scale = span > 0 && std::isfinite(span)
                     ? span / float(type.qmax - type.qmin)
                     : 1.0f;
  if (symmetric) {
    params.zeroPoint = type.isSigned ? 0 : (type.qmax + 1) / 2;
    return params;
  }
  float zp = std::nearbyint(float(type.qmin) - rmin / params.scale);
  params.zeroPoint =
      int64_t(std::clamp(zp, float(type.qmin), float(type.qmax)));
  return params;
}

int64_t mlir::onnxq::quantizeValue(float x, ScaleAndZeroPoint params, QuantType type) {
  float q = std::nearbyint(x / params.scale) + float(params.zeroPoint);
  return int64_t(std::clamp(q, float(type.qmin), float(type.qmax)));
}
