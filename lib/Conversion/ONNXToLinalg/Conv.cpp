//===- Conv.cpp - onnx.Conv to linalg convolutions ------------------------===//
//
// A convolution is one `linalg.generic` contraction over the padded input:
// loops (n, g, f, o..., c, k...), the input read at `o * stride + k *
// dilation`, accumulating into a tensor initialized with the bias. The
// kernel stage (onnxq-contraction-kernels) keeps a register tile of outputs
// over all input channels and taps and stores it once. Any number of
// spatial dims; groups (and depthwise) add a group loop.
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

Value mlir::onnxq::convolveGrouped(OpBuilder &b, Location loc, Value input,
                                   Value weights, Value acc, int64_t group,
                                   const WindowGeometry &g, WindowStep step) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t spatial = accType.getRank() - 2;
  SmallVector<int64_t> groupedShape = {accType.getDimSize(0), group,
                                       accType.getDimSize(1) / group};
  groupedShape.append(accType.getShape().begin() + 2, accType.getShape().end());
  Value grouped = reshapeTo(
      b, loc, acc, RankedTensorType::get(groupedShape, accType.getElementType()));

  // Loops (n, g, f, o..., c, k...): every tap and input channel accumulates
  // into the same output element, so the kernel keeps its accumulators in
  // registers over the whole window and stores each output once.
  MLIRContext *ctx = b.getContext();
  int64_t loops = 4 + 2 * spatial;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  AffineExpr dn = dim(0), dg = dim(1), df = dim(2), dc = dim(3 + spatial);
  SlidingWindowMaps maps{/*input=*/{dn, dg, dc}, /*window=*/{dg, df, dc},
                         /*output=*/{dn, dg, df}, /*reduced=*/{3 + spatial}};
  maps.appendSpatial(g, /*firstOutputLoop=*/3, /*firstTapLoop=*/4 + spatial,
                     ctx);
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{grouped.getType()}, ValueRange{input, weights},
          ValueRange{grouped}, maps.getMaps(loops, ctx),
          getIteratorTypes(loops, maps.reduced),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, step(nb, l, args[0], args[1], args[2]));
          })
          .getResult(0);
  return reshapeTo(b, loc, result, accType);
}

Value mlir::onnxq::convolve(OpBuilder &b, Location loc, Value x, Value w,
                            Value init, int64_t group, const WindowGeometry &g,
                            MultiplyAdd step) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t n = xType.getDimSize(0), f = wType.getDimSize(0),
          cg = wType.getDimSize(1);
  // Grouped views: input (N, G, C/G, I...), weights (G, F/G, C/G, K...).
  auto grouped = [&](Value v, ArrayRef<int64_t> front, ArrayRef<int64_t> rest) {
    SmallVector<int64_t> shape(front);
    shape.append(rest.begin(), rest.end());
    auto type = cast<RankedTensorType>(v.getType());
    return reshapeTo(b, loc, v, RankedTensorType::get(shape, type.getElementType()));
  };
  Value input = grouped(x, {n, group, cg}, xType.getShape().drop_front(2));
  Value weights = grouped(w, {group, f / group, cg}, wType.getShape().drop_front(2));
  return convolveGrouped(b, loc, input, weights, init, group, g,
                         [&](OpBuilder &nb, Location l, Value a, Value k,
                             Value acc) { return step.build(nb, l, a, k, acc); });
}

void mlir::onnxq::populateConvToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ConvPattern>(converter, patterns.getContext());
}
