//===- Resize.cpp - onnx.Resize (nearest, linear) to linalg.generic -------===//
//
// Scales and sizes are compile-time constants, so the source coordinates of
// every output index are computed here, per axis, into small index (and, for
// linear, weight) tables. The generic then gathers: nearest reads one
// element, linear blends the 2^k neighbours of the k resized axes.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Per output index of one axis: the two source indices and the weight of
/// the second (nearest: both indices equal, weight 0).
struct AxisTable {
  SmallVector<int64_t> lo, hi;
  SmallVector<float> weight;
  bool isIdentity() const {
    for (auto [i, v] : llvm::enumerate(lo))
      if (v != int64_t(i) || hi[i] != v)
        return false;
    return true;
  }
};

std::optional<double> sourceCoordinate(StringRef mode, int64_t x, double scale,
                                       int64_t in, int64_t out) {
  if (mode == "half_pixel")
    return (x + 0.5) / scale - 0.5;
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
                                    double scale) {
  AxisTable t;
  bool linear = op.getMode() == "linear";
  for (int64_t x = 0; x < out; ++x) {
    std::optional<double> src = sourceCoordinate(
        op.getCoordinateTransformationMode(), x, scale, in, out);
    if (!src)
      return std::nullopt;
    if (linear) {
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
    if (op.getMode() != "nearest" && op.getMode() != "linear")
      return rewriter.notifyMatchFailure(op, "only nearest and linear modes");
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
    SmallVector<AxisTable> tables;
    for (int64_t d = 0; d < rank; ++d) {
      std::optional<AxisTable> t = buildTable(op, inType.getDimSize(d),
                                              outType.getDimSize(d), scales[d]);
      if (!t)
        return rewriter.notifyMatchFailure(op, "unsupported coordinate mode");
      tables.push_back(*t);
    }

    Location loc = op.getLoc();
    Type elementType = outType.getElementType();
    auto i64Table = [&](ArrayRef<int64_t> values) {
      return arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({int64_t(values.size())}, rewriter.getI64Type()),
              values));
    };
    SmallVector<int64_t> resized;
    SmallVector<Value> lo, hi, weight;
    for (int64_t d = 0; d < rank; ++d) {
      lo.push_back(nullptr);
      hi.push_back(nullptr);
      weight.push_back(nullptr);
      if (tables[d].isIdentity())
        continue;
      resized.push_back(d);
      lo[d] = i64Table(tables[d].lo);
      hi[d] = i64Table(tables[d].hi);
      weight[d] = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({int64_t(tables[d].weight.size())},
                                    rewriter.getF32Type()),
              ArrayRef<float>(tables[d].weight)));
    }
    bool linear = op.getMode() == "linear";
    Value input = adaptor.getX();
    Value resizedValues = createFromIndices(
        rewriter, loc, outType, [&](OpBuilder &b, Location l) -> Value {
          SmallVector<Value> index, loIdx, hiIdx, w;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, l, d);
            index.push_back(i);
            if (!lo[d]) {
              loIdx.push_back(i), hiIdx.push_back(i), w.push_back(nullptr);
              continue;
            }
            auto lookup = [&](Value table) {
              Value v = tensor::ExtractOp::create(b, l, table, ValueRange{i});
              return v.getType().isIndex()
                         ? v
                         : Value(arith::IndexCastOp::create(b, l, b.getIndexType(), v));
            };
            loIdx.push_back(lookup(lo[d]));
            hiIdx.push_back(lookup(hi[d]));
            Value wv = tensor::ExtractOp::create(b, l, weight[d], ValueRange{i});
            if (wv.getType() != elementType)
              wv = arith::TruncFOp::create(b, l, elementType, wv);
            w.push_back(wv);
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
