//===- Resize.cpp - onnx.Resize (nearest, linear, cubic) to linalg.generic ===//
//
// Scales and sizes are compile-time constants, so the source coordinates of
// every output index are computed here, per axis, into small index (and, for
// linear and cubic, weight) tables. The generic then gathers: nearest reads
// one element, linear blends the 2^k neighbours of the k resized axes, cubic
// the 4^k.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>
#include <cmath>
#include <vector>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Per output index of one axis: the two source indices and the weight of
/// the second (nearest: both indices equal, weight 0); for cubic, the four
/// source indices (clamped: the edge repeats) and their weights instead.
/// `outside` marks the outputs tf_crop_and_resize places outside the input
/// (they take extrapolation_value); it stays empty when there are none.
struct AxisTable {
  SmallVector<int64_t> lo, hi;
  SmallVector<float> weight;
  std::vector<SmallVector<int64_t>> tapIndex;
  std::vector<SmallVector<float>> tapWeight;
  SmallVector<int8_t> outside;
  bool isIdentity() const {
    if (!outside.empty())
      return false;
    if (!tapIndex.empty()) {
      // Each output reads its own index with weight 1.
      for (size_t i = 0; i < tapIndex[2].size(); ++i)
        if (tapIndex[2][i] != int64_t(i) || tapWeight[2][i] != 1.0f ||
            tapWeight[0][i] != 0.0f || tapWeight[1][i] != 0.0f ||
            tapWeight[3][i] != 0.0f)
          return false;
      return true;
    }
    for (auto [i, v] : llvm::enumerate(lo))
      if (v != int64_t(i) || hi[i] != v)
        return false;
    return true;
  }
};

/// The weights of the four cubic taps at distance `ratio` past the second
/// (Keys' kernel with coefficient `a`, as ONNX's reference computes them).
std::array<double, 4> cubicWeights(double ratio, double a) {
  auto far = [&](double d) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; };
  auto near = [&](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };
  return {far(ratio + 1), near(ratio), near(1 - ratio), far(2 - ratio)};
}

/// The start and end of the region of interest along one axis, as fractions
/// of it (tf_crop_and_resize).
struct Region {
  double start = 0, end = 1;
};

std::optional<double> sourceCoordinate(StringRef mode, int64_t x, double scale,
                                       int64_t in, int64_t out, Region roi) {
  if (mode == "half_pixel")
    return (x + 0.5) / scale - 0.5;
  if (mode == "half_pixel_symmetric") {
    // Centers the resized grid when out is scale * in rounded down.
    double adjustment = out / (scale * in);
    double offset = in / 2.0 * (1 - adjustment);
    return offset + (x + 0.5) / scale - 0.5;
  }
  if (mode == "tf_crop_and_resize")
    return out > 1 ? roi.start * (in - 1) +
                         x * (roi.end - roi.start) * (in - 1) / (out - 1)
                   : 0.5 * (roi.start + roi.end) * (in - 1);
  if (mode == "pytorch_half_pixel")
    return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (mode == "align_corners")
    return out == 1 ? 0.0 : double(x) * (in - 1) / (out - 1);
  if (mode == "asymmetric")
    return x / scale;
  if (mode == "tf_half_pixel_for_nn")
    return (x + 0.5) / scale;
  return std::nullopt;
}

std::optional<int64_t> nearestIndex(StringRef mode, double x) {
  double frac = x - std::floor(x);
  if (mode == "floor")
    return int64_t(std::floor(x));
  if (mode == "ceil")
    return int64_t(std::ceil(x));
  if (mode == "round_prefer_floor")
    return int64_t(frac == 0.5 ? std::floor(x) : std::round(x));
  if (mode == "round_prefer_ceil")
    return int64_t(frac == 0.5 ? std::ceil(x) : std::round(x));
  return std::nullopt;
}

std::optional<AxisTable> buildTable(ResizeOp op, int64_t in, int64_t out,
                                    double scale, Region roi) {
  AxisTable t;
  bool linear = op.getMode() == "linear", cubic = op.getMode() == "cubic";
  if (cubic)
    t.tapIndex.resize(4), t.tapWeight.resize(4);
  SmallVector<int8_t> outside;
  for (int64_t x = 0; x < out; ++x) {
    std::optional<double> src = sourceCoordinate(
        op.getCoordinateTransformationMode(), x, scale, in, out, roi);
    if (!src)
      return std::nullopt;
    outside.push_back(
        op.getCoordinateTransformationMode() == "tf_crop_and_resize" &&
        (*src < 0 || *src > in - 1));
    if (cubic) {
      // ONNX's reference: the four indices nearest the source coordinate
      // (at an integer one, it and the two below and one above: ratio 1),
      // beyond the edges the edge's value, or with exclude_outside weight 0
      // and the others renormalized.
      double first = std::floor(*src);
      double ratio = *src - first;
      if (ratio == 0.0)
        first -= 1, ratio = 1.0;
      std::array<double, 4> w =
          cubicWeights(ratio, op.getCubicCoeffA().convertToDouble());
      double total = 0;
      for (int64_t j = 0; j < 4; ++j) {
        int64_t index = int64_t(first) - 1 + j;
        if (op.getExcludeOutside() && (index < 0 || index >= in))
          w[j] = 0;
        total += w[j];
        t.tapIndex[j].push_back(std::clamp<int64_t>(index, 0, in - 1));
      }
      for (int64_t j = 0; j < 4; ++j)
        t.tapWeight[j].push_back(
            float(op.getExcludeOutside() ? w[j] / total : w[j]));
    } else if (linear) {
      double c = std::clamp(*src, 0.0, double(in - 1));
      int64_t lo = int64_t(std::floor(c));
      t.lo.push_back(lo);
      t.hi.push_back(std::min(lo + 1, in - 1));
      t.weight.push_back(float(c - lo));
    } else {
      std::optional<int64_t> i = nearestIndex(op.getNearestMode(), *src);
      if (!i)
        return std::nullopt;
      int64_t clamped = std::clamp<int64_t>(*i, 0, in - 1);
      t.lo.push_back(clamped);
      t.hi.push_back(clamped);
      t.weight.push_back(0.0f);
    }
  }
  if (llvm::is_contained(outside, 1))
    t.outside = std::move(outside);
  return t;
}

struct ResizePattern : StaticShapePattern<ResizeOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ResizeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getX());
    RankedTensorType outType = getTensorType(op.getY());
    if (!isa<FloatType>(outType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float input only");
    if (op.getMode() != "nearest" && op.getMode() != "linear" &&
        op.getMode() != "cubic")
      return rewriter.notifyMatchFailure(op, "unknown mode");
    int64_t rank = inType.getRank();
    // Scales come from constant `scales`, or from `sizes` (out / in). Runtime
    // scales are refused: ONNX uses them as given, which out / in may not be.
    SmallVector<double> scales;
    auto scalesType = op.getScales() ? getStaticType(op.getScales()) : nullptr;
    bool haveScales = scalesType && scalesType.getNumElements() > 0;
    if (haveScales) {
      std::optional<SmallVector<float>> s = getConstantFloats(op.getScales());
      if (!s || int64_t(s->size()) != rank)
        return rewriter.notifyMatchFailure(op, "scales must be constant");
      scales.assign(s->begin(), s->end());
    } else {
      for (int64_t d = 0; d < rank; ++d)
        scales.push_back(double(outType.getDimSize(d)) / inType.getDimSize(d));
    }
    SmallVector<Region> roi(rank);
    if (op.getCoordinateTransformationMode() == "tf_crop_and_resize") {
      std::optional<SmallVector<float>> r =
          op.getRoi() ? getConstantFloats(op.getRoi()) : std::nullopt;
      if (!r || int64_t(r->size()) != 2 * rank)
        return rewriter.notifyMatchFailure(op, "roi must be constant");
      for (int64_t d = 0; d < rank; ++d)
        roi[d] = {(*r)[d], (*r)[rank + d]};
    }
    std::vector<AxisTable> tables;
    for (int64_t d = 0; d < rank; ++d) {
      std::optional<AxisTable> t =
          buildTable(op, inType.getDimSize(d), outType.getDimSize(d),
                     scales[d], roi[d]);
      if (!t)
        return rewriter.notifyMatchFailure(op, "unsupported coordinate mode");
      tables.push_back(*t);
    }

    Location loc = op.getLoc();
    Type elementType = outType.getElementType();
    // A 1-D constant of `values` (int64_t: i64, float: f32).
    auto table = [&](auto values, Type type) {
      return arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({int64_t(values.size())}, type),
              ArrayRef(values)));
    };
    Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
    bool cubic = op.getMode() == "cubic";
    SmallVector<int64_t> resized;
    SmallVector<Value> lo, hi, weight;
    // Cubic: per resized axis, its four taps' index and weight tables.
    SmallVector<SmallVector<Value, 4>> tapIndex(rank), tapWeight(rank);
    SmallVector<std::pair<int64_t, Value>> outside;
    for (int64_t d = 0; d < rank; ++d) {
      lo.push_back(nullptr);
      hi.push_back(nullptr);
      weight.push_back(nullptr);
      if (tables[d].isIdentity())
        continue;
      resized.push_back(d);
      if (!tables[d].outside.empty())
        outside.emplace_back(d, table(tables[d].outside, rewriter.getI8Type()));
      if (cubic) {
        for (int64_t j = 0; j < 4; ++j) {
          tapIndex[d].push_back(table(tables[d].tapIndex[j], i64));
          tapWeight[d].push_back(table(tables[d].tapWeight[j], f32));
        }
        continue;
      }
      lo[d] = table(tables[d].lo, i64);
      hi[d] = table(tables[d].hi, i64);
      weight[d] = table(tables[d].weight, f32);
    }
    if (cubic && resized.size() > 3)
      return rewriter.notifyMatchFailure(op, "cubic along at most 3 axes");
    bool linear = op.getMode() == "linear";
    Value input = adaptor.getX();
    auto interpolate = [&](OpBuilder &b, Location l) -> Value {
      auto lookupIndex = [&](Value table, Value i) -> Value {
        Value v = tensor::ExtractOp::create(b, l, table, ValueRange{i});
        return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
      };
      auto lookupWeight = [&](Value table, Value i) -> Value {
        Value v = tensor::ExtractOp::create(b, l, table, ValueRange{i});
        return v.getType() == elementType
                   ? v
                   : Value(arith::TruncFOp::create(b, l, elementType, v));
      };
      if (cubic) {
        // Sum over the 4^k tap combinations of the resized axes.
        SmallVector<Value> coords;
        SmallVector<SmallVector<Value, 4>> idx(rank), w(rank);
        for (int64_t d = 0; d < rank; ++d) {
          Value i = linalg::IndexOp::create(b, l, d);
          coords.push_back(i);
          for (int64_t j = 0; j < int64_t(tapIndex[d].size()); ++j) {
            idx[d].push_back(lookupIndex(tapIndex[d][j], i));
            w[d].push_back(lookupWeight(tapWeight[d][j], i));
          }
        }
        size_t k = resized.size();
        Value result;
        for (uint64_t combo = 0; combo < (uint64_t(1) << (2 * k)); ++combo) {
          Value factor;
          for (size_t a = 0; a < k; ++a) {
            int64_t d = resized[a];
            int64_t j = (combo >> (2 * a)) & 3;
            coords[d] = idx[d][j];
            factor = factor ? Value(arith::MulFOp::create(b, l, factor, w[d][j]))
                            : w[d][j];
          }
          Value v = tensor::ExtractOp::create(b, l, input, coords);
          Value term = arith::MulFOp::create(b, l, v, factor);
          result = result ? Value(arith::AddFOp::create(b, l, result, term)) : term;
        }
        return result;
      }
      SmallVector<Value> index, loIdx, hiIdx, w;
      for (int64_t d = 0; d < rank; ++d) {
        Value i = linalg::IndexOp::create(b, l, d);
        index.push_back(i);
        if (!lo[d]) {
          loIdx.push_back(i), hiIdx.push_back(i), w.push_back(nullptr);
          continue;
        }
        loIdx.push_back(lookupIndex(lo[d], i));
        hiIdx.push_back(lookupIndex(hi[d], i));
        w.push_back(lookupWeight(weight[d], i));
      }
      Value result;
      if (!linear) {
        result = tensor::ExtractOp::create(b, l, input, loIdx);
      } else {
        // Sum over the 2^k corners of the resized axes.
        size_t k = resized.size();
        Value one = createScalar(b, l, elementType, 1.0);
        for (uint64_t corner = 0; corner < (uint64_t(1) << k); ++corner) {
          SmallVector<Value> coords(loIdx);
          Value factor = one;
          for (size_t j = 0; j < k; ++j) {
            int64_t d = resized[j];
            bool high = corner >> j & 1;
            coords[d] = high ? hiIdx[d] : loIdx[d];
            Value f = high ? w[d] : Value(arith::SubFOp::create(b, l, one, w[d]));
            factor = arith::MulFOp::create(b, l, factor, f);
          }
          Value v = tensor::ExtractOp::create(b, l, input, coords);
          Value term = arith::MulFOp::create(b, l, v, factor);
          result = result ? Value(arith::AddFOp::create(b, l, result, term)) : term;
        }
      }
      return result;
    };
    Value resizedValues = createFromIndices(
        rewriter, loc, outType, [&](OpBuilder &b, Location l) -> Value {
          Value result = interpolate(b, l);
          if (outside.empty())
            return result;
          Value isOutside;
          for (auto [d, flags] : outside) {
            Value i = linalg::IndexOp::create(b, l, d);
            // Bytes, not i1: vectors of i1 are bit-packed, memory is not.
            Value flag = arith::TruncIOp::create(
                b, l, b.getI1Type(),
                tensor::ExtractOp::create(b, l, flags, ValueRange{i}));
            isOutside = isOutside ? arith::OrIOp::create(b, l, isOutside, flag)
                                  : flag;
          }
          Value extrapolated = createScalar(
              b, l, elementType, op.getExtrapolationValue().convertToDouble());
          return arith::SelectOp::create(b, l, isOutside, extrapolated, result);
        });
    rewriter.replaceOp(op, resizedValues);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateResizeToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ResizePattern>(converter, patterns.getContext());
}
