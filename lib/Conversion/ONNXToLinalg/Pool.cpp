//===- Pool.cpp - onnx pooling to linalg window reductions ----------------===//
//
// MaxPool/AveragePool become a window reduction over an explicitly padded
// input: a `linalg.generic` with the maps of linalg's `pooling_nchw_*` ops
// (which stop at 2-D), for any number of spatial dims. AveragePool divides by
// a compile-time table of window sizes, which encodes count_include_pad and
// the partial windows of ceil_mode. Global pools are reductions.
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

/// The geometry of a pooling window over an NC + spatial input.
struct PoolGeometry {
  SmallVector<int64_t> xShape, yShape;
  WindowGeometry g;
  /// Extra end padding so the last ceil_mode window fits.
  SmallVector<int64_t> ceilExtra;
};

std::optional<PoolGeometry> analyzePool(Value x, Value y, ArrayAttr kernelAttr,
                                        ArrayAttr pads, ArrayAttr strides,
                                        ArrayAttr dilations, StringRef autoPad,
                                        bool ceilMode) {
  RankedTensorType xType = getStaticType(x), yType = getStaticType(y);
  if (!xType || !yType || xType.getRank() < 3)
    return std::nullopt;
  PoolGeometry p;
  p.xShape.assign(xType.getShape().begin(), xType.getShape().end());
  p.yShape.assign(yType.getShape().begin(), yType.getShape().end());
  std::optional<WindowGeometry> g =
      computeWindowGeometry(p.xShape, getIntsOr(kernelAttr, 0, 0), pads,
                            strides, dilations, autoPad, ceilMode);
  if (!g || ArrayRef<int64_t>(g->output) != ArrayRef<int64_t>(p.yShape).drop_front(2))
    return std::nullopt;
  p.g = *g;
  for (size_t i = 0; i < g->kernel.size(); ++i) {
    int64_t extent = (g->kernel[i] - 1) * g->dilations[i] + 1;
    int64_t needed = (g->output[i] - 1) * g->strides[i] + extent;
    int64_t have = p.xShape[i + 2] + g->padBegin[i] + g->padEnd[i];
    p.ceilExtra.push_back(std::max<int64_t>(0, needed - have));
  }
  return p;
}

/// A pooling window reduction's operands: the input padded with
/// `padValue`, an empty window tensor, and the maps over the loops (n, c,
/// o..., k...): the input read at o*stride + k*dilation, the window operand
/// only giving the k loops their extent (as in linalg's pooling ops).
struct PoolOperands {
  Value paddedX, window;
  SlidingWindowMaps maps;
  int64_t loops;
};

PoolOperands getPoolOperands(OpBuilder &b, Location loc, Value x,
                             const PoolGeometry &p, TypedAttr padValue) {
  Type elementType = cast<RankedTensorType>(x.getType()).getElementType();
  SmallVector<int64_t> high(p.g.padEnd);
  for (size_t i = 0; i < high.size(); ++i)
    high[i] += p.ceilExtra[i];
  MLIRContext *ctx = b.getContext();
  int64_t spatial = p.g.kernel.size();
  AffineExpr dn = getAffineDimExpr(0, ctx), dc = getAffineDimExpr(1, ctx);
  PoolOperands operands{padSpatial(b, loc, x, p.g.padBegin, high, padValue),
                        tensor::EmptyOp::create(b, loc, p.g.kernel, elementType),
                        SlidingWindowMaps{/*input=*/{dn, dc}, /*window=*/{},
                                          /*output=*/{dn, dc}, /*reduced=*/{}},
                        2 + 2 * spatial};
  operands.maps.appendSpatial(p.g, /*firstOutputLoop=*/2,
                              /*firstTapLoop=*/2 + spatial, ctx);
  return operands;
}

/// Pads the input with `padValue` and reduces every window with `combine`,
/// starting from `init`.
Value applyPool(OpBuilder &b, Location loc, Value x, const PoolGeometry &p,
                TypedAttr padValue, TypedAttr init, Combiner combine) {
  PoolOperands in = getPoolOperands(b, loc, x, p, padValue);
  auto outType = RankedTensorType::get(
      p.yShape, cast<RankedTensorType>(x.getType()).getElementType());
  MLIRContext *ctx = b.getContext();
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{in.paddedX, in.window},
             ValueRange{createFilled(b, loc, outType, init)},
             in.maps.getMaps(in.loops, ctx),
             getIteratorTypes(in.loops, in.maps.reduced),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, combine(nb, l, args[2], args[0]));
             })
      .getResult(0);
}

/// MaxPool with its Indices output: each window's first maximum (in the
/// window's row-major order, as ONNX Runtime scans it) and that element's
/// flat index in the unpadded input, spatial dims row-major
/// (storage_order 0) or column-major (1).
std::pair<Value, Value> applyArgMaxPool(OpBuilder &b, Location loc, Value x,
                                        const PoolGeometry &p, TypedAttr lowest,
                                        bool isUnsigned, bool columnMajor) {
  PoolOperands in = getPoolOperands(b, loc, x, p, lowest);
  MLIRContext *ctx = b.getContext();
  auto valuesType = RankedTensorType::get(
      p.yShape, cast<RankedTensorType>(x.getType()).getElementType());
  auto indicesType = RankedTensorType::get(p.yShape, b.getI64Type());
  SmallVector<AffineMap> maps = in.maps.getMaps(in.loops, ctx);
  maps.push_back(maps.back());
  int64_t spatial = p.g.kernel.size();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valuesType, indicesType}, ValueRange{in.paddedX, in.window},
      ValueRange{createFilled(b, loc, valuesType, lowest),
                 createFilled(b, loc, indicesType, 0)},
      maps, getIteratorTypes(in.loops, in.maps.reduced),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto index = [&](int64_t loop) -> Value {
          return linalg::IndexOp::create(nb, l, loop);
        };
        auto cst = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, l, v);
        };
        // Horner over (n, c, spatial dims in storage order).
        Value flat = arith::AddIOp::create(
            nb, l, arith::MulIOp::create(nb, l, index(0), cst(p.xShape[1])), index(1));
        for (int64_t i = 0; i < spatial; ++i) {
          int64_t d = columnMajor ? spatial - 1 - i : i;
          Value position = arith::SubIOp::create(
              nb, l,
              arith::AddIOp::create(
                  nb, l, arith::MulIOp::create(nb, l, index(2 + d), cst(p.g.strides[d])),
                  arith::MulIOp::create(nb, l, index(2 + spatial + d),
                                        cst(p.g.dilations[d]))),
              cst(p.g.padBegin[d]));
          flat = arith::AddIOp::create(
              nb, l, arith::MulIOp::create(nb, l, flat, cst(p.xShape[2 + d])), position);
        }
        Value v = args[0], best = args[2];
        Value better =
            isa<FloatType>(v.getType())
                ? Value(arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, v, best))
                : Value(arith::CmpIOp::create(
                      nb, l, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
                      v, best));
        Value flat64 = arith::IndexCastOp::create(nb, l, nb.getI64Type(), flat);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, better, v, best),
                       arith::SelectOp::create(nb, l, better, flat64, args[3])});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

struct MaxPoolPattern : StaticShapePattern<MaxPoolOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(MaxPoolOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    std::optional<PoolGeometry> p = analyzePool(
        op.getX(), op.getY(), op.getKernelShapeAttr(), op.getPadsAttr(),
        op.getStridesAttr(), op.getDilationsAttr(), op.getAutoPad(),
        op.getCeilMode());
    if (!p)
      return rewriter.notifyMatchFailure(op, "unsupported geometry");
    // Integer pooling (uint8, int8) pads and starts with the lowest value of
    // its signedness, which the signless converted type no longer says.
    bool isUnsigned = getElementTypeOrSelf(op.getX().getType()).isUnsignedInteger();
    Type elementType = getElementTypeOrSelf(adaptor.getX().getType());
    TypedAttr lowest = getIdentity(elementType, Combine::Max, isUnsigned);
    if (op.getIndices() && !op.getIndices().use_empty()) {
      auto [y, indices] =
          applyArgMaxPool(rewriter, op.getLoc(), adaptor.getX(), *p, lowest,
                          isUnsigned, op.getStorageOrder() == 1);
      rewriter.replaceOp(op, {y, indices});
      return success();
    }
    Value y = applyPool(rewriter, op.getLoc(), adaptor.getX(), *p, lowest, lowest,
                        [&](OpBuilder &b, Location l, Value acc, Value v) {
                          return combineScalars(b, l, Combine::Max, isUnsigned,
                                                acc, v);
                        });
    SmallVector<Value> results = {y};
    if (op.getIndices())
      results.push_back(createEmpty(rewriter, op.getLoc(),
                                    cast<RankedTensorType>(getTypeConverter()->convertType(
                                        op.getIndices().getType()))));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// How many elements of each output window count as the divisor.
DenseElementsAttr getWindowCounts(const PoolGeometry &p, bool countIncludePad,
                                  Type elementType) {
  ArrayRef<int64_t> outShape = ArrayRef<int64_t>(p.yShape).drop_front(2);
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
  SmallVector<APFloat> counts;
  forEachKernelPosition(outShape, [&](ArrayRef<int64_t> position) {
    int64_t count = 1;
    for (auto [dim, o] : llvm::enumerate(position))
      count *= axisCount(dim, o);
    APFloat v(static_cast<double>(count));
    bool lost;
    v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
    counts.push_back(v);
  });
  return DenseElementsAttr::get(RankedTensorType::get(outShape, elementType),
                                counts);
}

struct AveragePoolPattern : StaticShapePattern<AveragePoolOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(AveragePoolOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getY().getType());
    if (!isa<FloatType>(elementType))
      return rewriter.notifyMatchFailure(op, "float pooling only");
    std::optional<PoolGeometry> p = analyzePool(
        op.getX(), op.getY(), op.getKernelShapeAttr(), op.getPadsAttr(),
        op.getStridesAttr(), op.getDilationsAttr(), op.getAutoPad(),
        op.getCeilMode());
    if (!p)
      return rewriter.notifyMatchFailure(op, "unsupported geometry");
    Location loc = op.getLoc();
    TypedAttr zero = rewriter.getZeroAttr(elementType);
    Value sum = applyPool(rewriter, loc, adaptor.getX(), *p, zero, zero,
                          [](OpBuilder &b, Location l, Value acc, Value v) {
                            return arith::AddFOp::create(b, l, acc, v);
                          });
    Value counts = arith::ConstantOp::create(
        rewriter, loc, getWindowCounts(*p, op.getCountIncludePad(), elementType));
    Value mean = createElementwise(
        rewriter, loc, cast<RankedTensorType>(sum.getType()), {sum, counts},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, mean);
    return success();
  }
};

/// Reduction over every dimension after N and C, keeping them as size 1:
/// each (n, c) row of H*W elements reduced in vector-wide lanes first
/// (reduceRowsInLanes), since the output has no contiguous dimension along
/// which the rows could be vectorized.
template <typename OpTy, bool isMax>
struct GlobalPoolPattern : StaticShapePattern<OpTy> {
  GlobalPoolPattern(const TypeConverter &converter, MLIRContext *ctx,
                    unsigned vectorBits)
      : StaticShapePattern<OpTy>(converter, ctx), vectorBits(vectorBits) {}
  unsigned vectorBits;

  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType xType = getTensorType(op.getX());
    RankedTensorType yType = getTensorType(op.getY());
    Type elementType = xType.getElementType();
    if (!isa<FloatType>(elementType))
      return rewriter.notifyMatchFailure(op, "float input only");
    Location loc = op.getLoc();
    int64_t rows = xType.getDimSize(0) * xType.getDimSize(1);
    int64_t count = xType.getNumElements() / std::max<int64_t>(rows, 1);
    Value x = reshapeTo(rewriter, loc, adaptor.getX(),
                        RankedTensorType::get({rows, count}, elementType));
    double init = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    int64_t lanes = std::max<int64_t>(1, vectorBits / xType.getElementTypeBitWidth());
    auto combine = [&](OpBuilder &b, Location l, Value acc, Value v) -> Value {
      return isMax ? Value(arith::MaximumFOp::create(b, l, acc, v))
                   : Value(arith::AddFOp::create(b, l, acc, v));
    };
    Value reduced = reduceRowsInLanes(rewriter, loc, x,
                                      getScalarAttr(elementType, init), combine,
                                      combine, lanes);
    Value result = reshapeTo(rewriter, loc, reduced, yType);
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
                                               RewritePatternSet &patterns,
                                               unsigned vectorBits) {
  patterns.add<MaxPoolPattern, AveragePoolPattern>(converter,
                                                   patterns.getContext());
  patterns.add<GlobalPoolPattern<GlobalAveragePoolOp, false>,
               GlobalPoolPattern<GlobalMaxPoolOp, true>>(
      converter, patterns.getContext(), vectorBits);
}
