//===- Normalization.cpp - normalizations, (Log)Softmax, ReduceMean -------===//
//
// Built from keep-dims reductions (`linalg.generic` with reduction
// iterators) and broadcasting element-wise ops. A reduction over a row (the
// trailing dims: Softmax along the last axis, LayerNormalization) runs in
// vector-wide lanes of the row first, so that it reads contiguous vectors.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

Value add(OpBuilder &b, Location l, Value x, Value y) {
  return arith::AddFOp::create(b, l, x, y);
}
Value maximum(OpBuilder &b, Location l, Value x, Value y) {
  return arith::MaximumFOp::create(b, l, x, y);
}

/// mean over `axes`, keeping them as size-1 dims (a row's sums in `lanes`).
Value meanKeepDims(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> axes, int64_t lanes) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t count = 1;
  for (int64_t d : axes)
    count *= type.getDimSize(d);
  Value sum = reduceKeepDims(b, loc, input, axes,
                             getScalarAttr(type.getElementType(), 0.0), add, lanes);
  Value divisor = createScalar(b, loc, type.getElementType(), double(count));
  return createElementwise(b, loc, cast<RankedTensorType>(sum.getType()), sum,
                           [&](OpBuilder &nb, Location l, ValueRange args) {
                             return arith::DivFOp::create(nb, l, args[0], divisor);
                           });
}

/// x - mean(x) and 1 / sqrt(var(x) + epsilon) over `axes` (kept as size-1
/// dims), and the mean.
struct Moments {
  Value centered, mean, invStdDev;
};

Moments normalizeOver(OpBuilder &b, Location loc, Value x, double epsilon,
                      ArrayRef<int64_t> axes, int64_t lanes) {
  auto type = cast<RankedTensorType>(x.getType());
  Type elementType = type.getElementType();
  Value mean = meanKeepDims(b, loc, x, axes, lanes);
  Value centered = createElementwise(b, loc, type, {x, mean},
                                     [](OpBuilder &nb, Location l, ValueRange args) {
                                       return arith::SubFOp::create(nb, l, args[0], args[1]);
                                     });
  Value squares = createElementwise(b, loc, type, centered,
                                    [](OpBuilder &nb, Location l, ValueRange args) {
                                      return arith::MulFOp::create(nb, l, args[0], args[0]);
                                    });
  Value variance = meanKeepDims(b, loc, squares, axes, lanes);
  Value invStdDev = createElementwise(
      b, loc, cast<RankedTensorType>(variance.getType()), variance,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value eps = createScalar(nb, l, elementType, epsilon);
        Value std = math::SqrtOp::create(nb, l, arith::AddFOp::create(nb, l, args[0], eps));
        return arith::DivFOp::create(nb, l, createScalar(nb, l, elementType, 1.0), std);
      });
  return {centered, mean, invStdDev};
}

/// Elements of `elementType` in one vector of `vectorBits` (1: none).
int64_t getLanes(unsigned vectorBits, Type elementType) {
  return std::max<int64_t>(1, vectorBits / elementType.getIntOrFloatBitWidth());
}

/// A normalization pattern that knows the target's vector width.
template <typename OpTy>
struct RowPattern : StaticShapePattern<OpTy> {
  RowPattern(const TypeConverter &converter, MLIRContext *ctx, unsigned vectorBits)
      : StaticShapePattern<OpTy>(converter, ctx), vectorBits(vectorBits) {}
  unsigned vectorBits;
};

bool isStaticFloat(Value v) {
  RankedTensorType type = getStaticType(v);
  return type && isa<FloatType>(type.getElementType());
}

struct BatchNormPattern : StaticShapePattern<BatchNormalizationOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(BatchNormalizationOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if (!op.getRunningStats().empty() || op.getTrainingMode() != 0)
      return rewriter.notifyMatchFailure(op, "training mode is not supported");
    RankedTensorType yType = getStaticType(op.getY());
    if (!isStaticFloat(op.getX()) || !yType)
      return rewriter.notifyMatchFailure(op, "needs a static float input");
    Location loc = op.getLoc();
    Type elementType = yType.getElementType();
    int64_t channels = yType.getDimSize(1);
    auto vectorType = RankedTensorType::get({channels}, elementType);
    double epsilon = op.getEpsilon().convertToDouble();
    // y = x * a + b with a = scale / sqrt(var + eps), b = B - mean * a.
    Value a = createElementwise(
        rewriter, loc, vectorType, {adaptor.getScale(), adaptor.getInputVar()},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value eps = createScalar(b, l, elementType, epsilon);
          Value std = math::SqrtOp::create(b, l, arith::AddFOp::create(b, l, args[1], eps));
          return arith::DivFOp::create(b, l, args[0], std);
        });
    Value shift = createElementwise(
        rewriter, loc, vectorType, {adaptor.getB(), adaptor.getInputMean(), a},
        [&](OpBuilder &b, Location l, ValueRange args) {
          return arith::SubFOp::create(b, l, args[0],
                                       arith::MulFOp::create(b, l, args[1], args[2]));
        });
    SmallVector<int64_t> perChannel(yType.getRank() - 1, 1);
    perChannel[0] = channels;
    auto perChannelType = RankedTensorType::get(perChannel, elementType);
    a = reshapeTo(rewriter, loc, a, perChannelType);
    shift = reshapeTo(rewriter, loc, shift, perChannelType);
    Value y = createElementwise(
        rewriter, loc, yType, {adaptor.getX(), a, shift},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::AddFOp::create(b, l, arith::MulFOp::create(b, l, args[0], args[1]),
                                       args[2]);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct LayerNormPattern : RowPattern<LayerNormalizationOp> {
  using RowPattern::RowPattern;
  LogicalResult
  matchAndRewriteStatic(LayerNormalizationOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType yType = getStaticType(op.getY());
    if (!isStaticFloat(op.getX()) || !yType)
      return rewriter.notifyMatchFailure(op, "needs a static float input");
    for (Value stat : op.getStats())
      if (!isStaticFloat(stat))
        return rewriter.notifyMatchFailure(op, "needs static float statistics");
    Location loc = op.getLoc();
    int64_t rank = yType.getRank();
    SmallVector<int64_t> axes;
    for (int64_t d = normalizeAxis(op.getAxis(), rank); d < rank; ++d)
      axes.push_back(d);
    Moments m = normalizeOver(rewriter, loc, adaptor.getX(),
                              op.getEpsilon().convertToDouble(), axes,
                              getLanes(vectorBits, yType.getElementType()));
    SmallVector<Value> inputs = {m.centered, m.invStdDev, adaptor.getScale()};
    if (adaptor.getB())
      inputs.push_back(adaptor.getB());
    Value y = createElementwise(
        rewriter, loc, yType, inputs, [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, args[0], args[1]),
                                          args[2]);
          return args.size() > 3 ? Value(arith::AddFOp::create(b, l, v, args[3])) : v;
        });
    SmallVector<Value> results = {y};
    Value stats[] = {m.mean, m.invStdDev};
    for (auto [stat, value] : llvm::zip(op.getStats(), stats))
      results.push_back(reshapeTo(rewriter, loc, value, getStaticType(stat)));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// x (N, C, S...) normalized per (n, group of C / groups channels) over
/// those channels and S, then scale[c] * x + bias[c].
Value normalizeGroups(OpBuilder &b, Location loc, Value x, Value scale,
                      Value bias, int64_t groups, double epsilon, int64_t lanes) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t n = type.getDimSize(0), perGroup = type.getNumElements() / (n * groups);
  auto groupedType = RankedTensorType::get({n, groups, perGroup}, type.getElementType());
  Moments m =
      normalizeOver(b, loc, reshapeTo(b, loc, x, groupedType), epsilon, {2}, lanes);
  Value normalized = createElementwise(
      b, loc, groupedType, {m.centered, m.invStdDev},
      [](OpBuilder &nb, Location l, ValueRange args) {
        return arith::MulFOp::create(nb, l, args[0], args[1]);
      });
  SmallVector<int64_t> perChannel(type.getRank() - 1, 1);
  perChannel[0] = type.getDimSize(1);
  auto perChannelType = RankedTensorType::get(perChannel, type.getElementType());
  return createElementwise(
      b, loc, type,
      {reshapeTo(b, loc, normalized, type), reshapeTo(b, loc, scale, perChannelType),
       reshapeTo(b, loc, bias, perChannelType)},
      [](OpBuilder &nb, Location l, ValueRange args) {
        return arith::AddFOp::create(nb, l, arith::MulFOp::create(nb, l, args[0], args[1]),
                                     args[2]);
      });
}

struct InstanceNormPattern : RowPattern<InstanceNormalizationOp> {
  using RowPattern::RowPattern;
  LogicalResult
  matchAndRewriteStatic(InstanceNormalizationOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if (!isStaticFloat(op.getInput()))
      return rewriter.notifyMatchFailure(op, "needs a static float input");
    RankedTensorType type = getTensorType(op.getInput());
    rewriter.replaceOp(op, normalizeGroups(rewriter, op.getLoc(), adaptor.getInput(),
                                           adaptor.getScale(), adaptor.getB(),
                                           type.getDimSize(1),
                                           op.getEpsilon().convertToDouble(),
                                           getLanes(vectorBits, type.getElementType())));
    return success();
  }
};

struct GroupNormPattern : RowPattern<GroupNormalizationOp> {
  using RowPattern::RowPattern;
  LogicalResult
  matchAndRewriteStatic(GroupNormalizationOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if (!isStaticFloat(op.getX()))
      return rewriter.notifyMatchFailure(op, "needs a static float input");
    rewriter.replaceOp(op, normalizeGroups(rewriter, op.getLoc(), adaptor.getX(),
                                           adaptor.getScale(), adaptor.getBias(),
                                           op.getNumGroups(),
                                           op.getEpsilon().convertToDouble(),
                                           getLanes(vectorBits,
                                                    getTensorType(op.getX()).getElementType())));
    return success();
  }
};

/// The numerically stable pieces of Softmax and LogSoftmax along `axis`
/// (kept as a size-1 dim): shifted = x - max(x), exps = exp(shifted) and
/// sum = sum(exps).
struct SoftmaxParts {
  Value shifted, exps, sum;
};
SoftmaxParts computeSoftmaxParts(OpBuilder &b, Location loc, Value x,
                                 int64_t axis, int64_t lanes) {
  auto type = cast<RankedTensorType>(x.getType());
  Type elementType = type.getElementType();
  SoftmaxParts parts;
  Value max = reduceKeepDims(
      b, loc, x, axis,
      getScalarAttr(elementType, -std::numeric_limits<double>::infinity()),
      maximum, lanes);
  parts.shifted = createElementwise(b, loc, type, {x, max},
                                    [](OpBuilder &nb, Location l, ValueRange args) {
                                      return arith::SubFOp::create(nb, l, args[0], args[1]);
                                    });
  parts.exps = createElementwise(b, loc, type, parts.shifted,
                                 [](OpBuilder &nb, Location l, ValueRange args) {
                                   return math::ExpOp::create(nb, l, args[0]);
                                 });
  parts.sum = reduceKeepDims(b, loc, parts.exps, axis,
                             getScalarAttr(elementType, 0.0), add, lanes);
  return parts;
}

/// Softmax: exps / sum.
Value finishSoftmax(SoftmaxOp, OpBuilder &b, Location loc,
                    RankedTensorType type, const SoftmaxParts &parts) {
  return createElementwise(b, loc, type, {parts.exps, parts.sum},
                           [](OpBuilder &nb, Location l, ValueRange args) {
                             return arith::DivFOp::create(nb, l, args[0], args[1]);
                           });
}

/// LogSoftmax: shifted - log(sum).
Value finishSoftmax(LogSoftmaxOp, OpBuilder &b, Location loc,
                    RankedTensorType type, const SoftmaxParts &parts) {
  return createElementwise(
      b, loc, type, {parts.shifted, parts.sum},
      [](OpBuilder &nb, Location l, ValueRange args) {
        return arith::SubFOp::create(nb, l, args[0],
                                     math::LogOp::create(nb, l, args[1]));
      });
}

template <typename OpTy>
struct SoftmaxPattern : RowPattern<OpTy> {
  using RowPattern<OpTy>::RowPattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getOutput());
    if (!isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "float input only");
    Location loc = op.getLoc();
    int64_t axis = normalizeAxis(op.getAxis(), type.getRank());
    SoftmaxParts parts =
        computeSoftmaxParts(rewriter, loc, adaptor.getInput(), axis,
                            getLanes(this->vectorBits, type.getElementType()));
    rewriter.replaceOp(op, finishSoftmax(op, rewriter, loc, type, parts));
    return success();
  }
};

struct ReduceMeanPattern : StaticShapePattern<ReduceMeanOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ReduceMeanOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getReduced());
    if (!isa<FloatType>(inType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float input only");
    int64_t rank = inType.getRank();
    SmallVector<int64_t> axes;
    if (op.getAxes()) {
      for (int64_t a : getIntsOr(*op.getAxes(), 0, 0))
        axes.push_back(normalizeAxis(a, rank));
    } else {
      for (int64_t d = 0; d < rank; ++d)
        axes.push_back(d);
    }
    Value mean = meanKeepDims(rewriter, op.getLoc(), adaptor.getData(), axes,
                              /*lanes=*/1);
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), mean, outType));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateNormalizationToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    unsigned vectorBits) {
  patterns.add<BatchNormPattern, ReduceMeanPattern>(converter, patterns.getContext());
  patterns.add<LayerNormPattern, InstanceNormPattern, GroupNormPattern,
               SoftmaxPattern<SoftmaxOp>, SoftmaxPattern<LogSoftmaxOp>>(
      converter, patterns.getContext(), vectorBits);
}
