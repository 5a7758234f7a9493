//===- Pool.cpp - onnx pooling to linalg pooling and reductions -----------===//
//
// MaxPool/AveragePool map onto `linalg.pooling_nchw_max/sum` over an
// explicitly padded input (1-D as 2-D with unit height). AveragePool divides
// by a compile-time table of window sizes, which encodes count_include_pad
// and the partial windows of ceil_mode. Global pools are reductions.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// A 1-D or 2-D pooling window normalized to 2-D.
struct Pool2D {
  SmallVector<int64_t> xShape, yShape;
  WindowGeometry g;
  /// Extra end padding so the last ceil_mode window fits.
  SmallVector<int64_t> ceilExtra;
};

std::optional<Pool2D> analyzePool(Operation *op, Value x, Value y,
                                  ArrayAttr kernelAttr, ArrayAttr pads,
                                  ArrayAttr strides, ArrayAttr dilations,
                                  StringRef autoPad, bool ceilMode) {
  RankedTensorType xType = getStaticType(x), yType = getStaticType(y);
  if (!xType || !yType || (xType.getRank() != 3 && xType.getRank() != 4))
    return std::nullopt;
  Pool2D p;
  p.xShape.assign(xType.getShape().begin(), xType.getShape().end());
  p.yShape.assign(yType.getShape().begin(), yType.getShape().end());
  SmallVector<int64_t> kernel = getIntsOr(kernelAttr, 0, 0);
  OpBuilder b(op->getContext());
  if (xType.getRank() == 3) {
    p.xShape.insert(p.xShape.begin() + 2, 1);
    p.yShape.insert(p.yShape.begin() + 2, 1);
    kernel.insert(kernel.begin(), 1);
    SmallVector<int64_t> pd = getIntsOr(pads, 2, 0);
    pads = b.getI64ArrayAttr({0, pd[0], 0, pd[1]});
    strides = b.getI64ArrayAttr({1, getIntsOr(strides, 1, 1)[0]});
    dilations = b.getI64ArrayAttr({1, getIntsOr(dilations, 1, 1)[0]});
  }
  std::optional<WindowGeometry> g = computeWindowGeometry(
      p.xShape, kernel, pads, strides, dilations, autoPad, ceilMode);
  if (!g || ArrayRef<int64_t>(g->output) != ArrayRef<int64_t>(p.yShape).drop_front(2))
    return std::nullopt;
  p.g = *g;
  for (size_t i = 0; i < 2; ++i) {
    int64_t extent = (g->kernel[i] - 1) * g->dilations[i] + 1;
    int64_t needed = (g->output[i] - 1) * g->strides[i] + extent;
    int64_t have = p.xShape[i + 2] + g->padBegin[i] + g->padEnd[i];
    p.ceilExtra.push_back(std::max<int64_t>(0, needed - have));
  }
  return p;
}

DenseIntElementsAttr getPairAttr(OpBuilder &b, ArrayRef<int64_t> values) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({int64_t(values.size())}, b.getI64Type()), values);
}

/// Pads the (4-D) input and applies a 2-D named pooling op.
template <typename PoolOpTy>
Value applyPool(ConversionPatternRewriter &rewriter, Location loc, Value x,
                const Pool2D &p, double padValue, double initValue) {
  auto xType = cast<RankedTensorType>(x.getType());
  Type elementType = xType.getElementType();
  x = reshapeTo(rewriter, loc, x, RankedTensorType::get(p.xShape, elementType));
  SmallVector<int64_t> high(p.g.padEnd);
  for (size_t i = 0; i < high.size(); ++i)
    high[i] += p.ceilExtra[i];
  x = padSpatial(rewriter, loc, x, p.g.padBegin, high, padValue);
  auto outType = RankedTensorType::get(p.yShape, elementType);
  Value window = tensor::EmptyOp::create(rewriter, loc, p.g.kernel, elementType);
  NamedAttribute attrs[] = {
      rewriter.getNamedAttr("strides", getPairAttr(rewriter, p.g.strides)),
      rewriter.getNamedAttr("dilations", getPairAttr(rewriter, p.g.dilations))};
  return PoolOpTy::create(rewriter, loc, TypeRange{outType}, ValueRange{x, window},
                          ValueRange{createFilled(rewriter, loc, outType, initValue)},
                          attrs)
      .getResult(0);
}

struct MaxPoolPattern : OpConversionPattern<MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getIndices() && !op.getIndices().use_empty())
      return rewriter.notifyMatchFailure(op, "the Indices output is not supported");
    Type onnxElement = getElementTypeOrSelf(op.getY().getType());
    if (!isa<FloatType>(onnxElement) && !onnxElement.isInteger(8))
      return rewriter.notifyMatchFailure(op, "float or 8-bit pooling only");
    std::optional<Pool2D> p = analyzePool(
        op, op.getX(), op.getY(), op.getKernelShapeAttr(), op.getPadsAttr(),
        op.getStridesAttr(), op.getDilationsAttr(), op.getAutoPad(),
        op.getCeilMode());
    if (!p)
      return rewriter.notifyMatchFailure(op, "unsupported geometry");
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    // linalg has no unsigned NCHW max pooling: flipping the sign bit maps
    // the unsigned order onto the signed one, and back.
    bool isUnsigned = onnxElement.isUnsignedInteger();
    auto flipSignBit = [&](Value v) {
      return createElementwise(
          rewriter, loc, cast<RankedTensorType>(v.getType()), v,
          [](OpBuilder &b, Location l, ValueRange args) -> Value {
            return arith::XOrIOp::create(
                b, l, args[0],
                arith::ConstantOp::create(b, l, b.getI8IntegerAttr(-128)));
          });
    };
    if (isUnsigned)
      x = flipSignBit(x);
    double lowest = isa<FloatType>(onnxElement)
                        ? -std::numeric_limits<double>::infinity()
                        : -128.0;
    Value y = applyPool<linalg::PoolingNchwMaxOp>(rewriter, loc, x, *p, lowest,
                                                  lowest);
    if (isUnsigned)
      y = flipSignBit(y);
    SmallVector<Value> results = {reshapeTo(
        rewriter, loc, y,
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getY().getType())))};
    if (op.getIndices())
      results.push_back(createEmpty(rewriter, op.getLoc(),
                                    cast<RankedTensorType>(getTypeConverter()->convertType(
                                        op.getIndices().getType()))));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// How many elements of each (OH, OW) window count as the divisor.
DenseElementsAttr getWindowCounts(const Pool2D &p, bool countIncludePad,
                                  Type elementType) {
  int64_t oh = p.yShape[2], ow = p.yShape[3];
  SmallVector<APFloat> counts;
  auto axisCount = [&](int dim, int64_t o) {
    int64_t start = o * p.g.strides[dim] - p.g.padBegin[dim];
    int64_t lo = countIncludePad ? -p.g.padBegin[dim] : 0;
    int64_t hi = p.xShape[dim + 2] + (countIncludePad ? p.g.padEnd[dim] : 0);
    int64_t n = 0;
    for (int64_t k = 0; k < p.g.kernel[dim]; ++k) {
      int64_t i = start + k * p.g.dilations[dim];
      n += i >= lo && i < hi;
    }
    return n;
  };
  const llvm::fltSemantics &sem = cast<FloatType>(elementType).getFloatSemantics();
  for (int64_t i = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j) {
      APFloat v(double(axisCount(0, i) * axisCount(1, j)));
      bool lost;
      v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
      counts.push_back(v);
    }
  return DenseElementsAttr::get(RankedTensorType::get({oh, ow}, elementType),
                                counts);
}

struct AveragePoolPattern : OpConversionPattern<AveragePoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AveragePoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getY().getType());
    if (!isa<FloatType>(elementType))
      return rewriter.notifyMatchFailure(op, "float pooling only");
    std::optional<Pool2D> p = analyzePool(
        op, op.getX(), op.getY(), op.getKernelShapeAttr(), op.getPadsAttr(),
        op.getStridesAttr(), nullptr, op.getAutoPad(), op.getCeilMode());
    if (!p)
      return rewriter.notifyMatchFailure(op, "unsupported geometry");
    Location loc = op.getLoc();
    Value sum = applyPool<linalg::PoolingNchwSumOp>(rewriter, loc, adaptor.getX(),
                                                    *p, 0.0, 0.0);
    Value counts = arith::ConstantOp::create(
        rewriter, loc, getWindowCounts(*p, op.getCountIncludePad(), elementType));
    Value mean = createElementwise(
        rewriter, loc, cast<RankedTensorType>(sum.getType()), {sum, counts},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, mean, getStaticType(op.getY())));
    return success();
  }
};

/// Reduction over every dimension after N and C, keeping them as size 1.
template <typename OpTy, bool isMax>
struct GlobalPoolPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType xType = getStaticType(op.getX());
    RankedTensorType yType = getStaticType(op.getY());
    if (!xType || !yType || !isa<FloatType>(xType.getElementType()))
      return rewriter.notifyMatchFailure(op, "needs a static float input");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = xType.getRank();
    // Reduce into (N, C) (a projected permutation, which vectorizes), then
    // reshape to (N, C, 1, ...).
    auto flatType = RankedTensorType::get(
        {xType.getDimSize(0), xType.getDimSize(1)}, xType.getElementType());
    SmallVector<int64_t> reduced;
    int64_t count = 1;
    for (int64_t d = 2; d < rank; ++d) {
      reduced.push_back(d);
      count *= xType.getDimSize(d);
    }
    double init = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flatType}, ValueRange{adaptor.getX()},
        ValueRange{createFilled(rewriter, loc, flatType, init)},
        SmallVector<AffineMap>{
            rewriter.getMultiDimIdentityMap(rank),
            AffineMap::get(rank, 0,
                           {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)},
                           ctx)},
        getIteratorTypes(rank, reduced),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = isMax ? Value(arith::MaximumFOp::create(b, l, args[0], args[1]))
                          : Value(arith::AddFOp::create(b, l, args[0], args[1]));
          linalg::YieldOp::create(b, l, v);
        });
    Value result = reshapeTo(rewriter, loc, generic.getResult(0), yType);
    if (!isMax) {
      Value divisor = createScalar(rewriter, loc, yType.getElementType(), count);
      result = createElementwise(rewriter, loc, yType, result,
                                 [&](OpBuilder &b, Location l, ValueRange args) {
                                   return arith::DivFOp::create(b, l, args[0], divisor);
                                 });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnxq::populatePoolToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<MaxPoolPattern, AveragePoolPattern,
               GlobalPoolPattern<GlobalAveragePoolOp, false>,
               GlobalPoolPattern<GlobalMaxPoolOp, true>>(converter,
                                                         patterns.getContext());
}
