//===- Conv.cpp - onnx.Conv to linalg convolutions ------------------------===//
//
// A convolution with a K1x...xKd kernel is the sum of K1*...*Kd 1x1
// convolutions, each reading a strided window of the padded input: one
// `linalg.generic` contraction per kernel tap, all accumulating into the same
// tensor (initialized with the bias). Every indexing map is then a projected
// permutation, so the loops can be reordered and vectorized along the
// innermost output dimension. Any number of spatial dims; groups (and
// depthwise) add a group loop.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// result += (1x1 convolution of the input window of `tap` with
/// w[:, :, tap...]), over loops (n, g, f, o..., c).
Value accumulateTap(OpBuilder &b, Location loc, Value x, Value w, Value acc,
                    int64_t group, ArrayRef<int64_t> tap,
                    const WindowGeometry &g, MultiplyAdd step) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto accType = cast<RankedTensorType>(acc.getType());
  Type xElement = xType.getElementType(), wElement = wType.getElementType(),
       accElement = accType.getElementType();
  int64_t spatial = tap.size();
  int64_t n = accType.getDimSize(0), m = accType.getDimSize(1),
          c = xType.getDimSize(1), cg = wType.getDimSize(1);
  ArrayRef<int64_t> outSpatial = accType.getShape().drop_front(2);
  // The window: x[:, :, tap*d + o*s].
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0)),
      sizes = {b.getIndexAttr(n), b.getIndexAttr(c)},
      strides(2, b.getIndexAttr(1));
  SmallVector<OpFoldResult> tapOffsets(2, b.getIndexAttr(0)),
      tapSizes = {b.getIndexAttr(m), b.getIndexAttr(cg)};
  SmallVector<int64_t> windowShape = {n, c};
  for (int64_t d = 0; d < spatial; ++d) {
    offsets.push_back(b.getIndexAttr(tap[d] * g.dilations[d]));
    sizes.push_back(b.getIndexAttr(outSpatial[d]));
    strides.push_back(b.getIndexAttr(g.strides[d]));
    windowShape.push_back(outSpatial[d]);
    tapOffsets.push_back(b.getIndexAttr(tap[d]));
    tapSizes.push_back(b.getIndexAttr(1));
  }
  auto typeOf = [](ArrayRef<int64_t> shape, Type elementType) {
    return RankedTensorType::get(shape, elementType);
  };
  Value window = tensor::ExtractSliceOp::create(
      b, loc, typeOf(windowShape, xElement), x, offsets, sizes, strides);
  SmallVector<int64_t> tapShape = {m, cg};
  tapShape.append(spatial, 1);
  SmallVector<OpFoldResult> ones(spatial + 2, b.getIndexAttr(1));
  Value tapWeights = tensor::ExtractSliceOp::create(
      b, loc, typeOf(tapShape, wElement), w, tapOffsets, tapSizes, ones);

  // Grouped views: window (n, g, c/g, o...), tap (g, m/g, c/g),
  // accumulator (n, g, m/g, o...).
  SmallVector<int64_t> windowGrouped = {n, group, cg}, accGrouped = {
      n, group, m / group};
  windowGrouped.append(outSpatial.begin(), outSpatial.end());
  accGrouped.append(outSpatial.begin(), outSpatial.end());
  window = reshapeTo(b, loc, window, typeOf(windowGrouped, xElement));
  tapWeights =
      reshapeTo(b, loc, tapWeights, typeOf({group, m / group, cg}, wElement));
  Value groupedAcc = reshapeTo(b, loc, acc, typeOf(accGrouped, accElement));
  Value result = accumulateGroupedPointwise(b, loc, window, tapWeights,
                                            groupedAcc,
                                            /*weightsInputMajor=*/false, step);
  return reshapeTo(b, loc, result, accType);
}

struct ConvPattern : StaticShapePattern<ConvOp> {
  using StaticShapePattern::StaticShapePattern;

  LogicalResult
  matchAndRewriteStatic(ConvOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    std::optional<WindowGeometry> g =
        getConvGeometry(op, op.getX(), op.getW(), op.getY());
    if (!g)
      return rewriter.notifyMatchFailure(op, "needs static shapes that match");
    RankedTensorType wType = getStaticType(op.getW());
    RankedTensorType yType = getStaticType(op.getY());
    if (!isa<FloatType>(yType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float convolutions only");
    Location loc = op.getLoc();
    Type elementType = yType.getElementType();
    ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);

    Value x = padSpatial(rewriter, loc, adaptor.getX(), g->padBegin, g->padEnd,
                         rewriter.getZeroAttr(elementType));
    Value init;
    if (Value bias = adaptor.getB()) {
      SmallVector<int64_t> perChannel(kernel.size() + 1, 1);
      perChannel[0] = wType.getDimSize(0);
      Value broadcastable = reshapeTo(
          rewriter, loc, bias, RankedTensorType::get(perChannel, elementType));
      init = createElementwise(rewriter, loc, yType, broadcastable,
                               [](OpBuilder &, Location, ValueRange args) {
                                 return args[0];
                               });
    } else {
      init = createFilled(rewriter, loc, yType, 0.0);
    }

    rewriter.replaceOp(op, convolve(rewriter, loc, x, adaptor.getW(), init,
                                    op.getGroup(), *g));
    return success();
  }
};

} // namespace

Value mlir::onnxq::accumulateGroupedPointwise(OpBuilder &b, Location loc,
                                              Value input, Value weights,
                                              Value acc, bool weightsInputMajor,
                                              MultiplyAdd step) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t spatial = accType.getRank() - 3;
  MLIRContext *ctx = b.getContext();
  int64_t loops = 4 + spatial;
  AffineExpr dn = getAffineDimExpr(0, ctx), dg = getAffineDimExpr(1, ctx),
             df = getAffineDimExpr(2, ctx), dc = getAffineDimExpr(loops - 1, ctx);
  SmallVector<AffineExpr> inputExprs = {dn, dg, dc}, accExprs = {dn, dg, df};
  for (int64_t d = 0; d < spatial; ++d) {
    inputExprs.push_back(getAffineDimExpr(3 + d, ctx));
    accExprs.push_back(getAffineDimExpr(3 + d, ctx));
  }
  AffineMap weightMap = AffineMap::get(
      loops, 0, weightsInputMajor ? ArrayRef{dg, dc, df} : ArrayRef{dg, df, dc}, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inputExprs, ctx),
                                 weightMap, AffineMap::get(loops, 0, accExprs, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{accType}, ValueRange{input, weights},
             ValueRange{acc}, maps, getIteratorTypes(loops, {loops - 1}),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, step.build(nb, l, args[0], args[1], args[2]));
             })
      .getResult(0);
}

Value mlir::onnxq::convolve(OpBuilder &b, Location loc, Value x, Value w,
                            Value init, int64_t group, const WindowGeometry &g,
                            MultiplyAdd step) {
  auto wType = cast<RankedTensorType>(w.getType());
  Value result = init;
  forEachKernelPosition(wType.getShape().drop_front(2), [&](ArrayRef<int64_t> tap) {
    result = accumulateTap(b, loc, x, w, result, group, tap, g, step);
  });
  return result;
}

void mlir::onnxq::populateConvToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ConvPattern>(converter, patterns.getContext());
}
