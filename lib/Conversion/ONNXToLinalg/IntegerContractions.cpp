//===- IntegerContractions.cpp - ConvInteger and MatMulInteger ------------===//
//
// (x - x_zero_point) (*) (w - w_zero_point) accumulated in int32, as ONNX
// Runtime's dynamic quantization writes them. Each operand is first widened
// to int32 less its zero point (per tensor, or per row of w / column of B),
// so the padding of a convolution is 0 and the contraction is a plain int32
// multiply-add, which the kernel stage vectorizes.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "Requantize.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// `value` (8-bit, `isUnsigned` per its ONNX type) as int32 less
/// `zeroPoint`, which broadcasts onto it as `zeroPointShape` (null: none).
Value centered(OpBuilder &b, Location loc, Value value, bool isUnsigned,
               Value zeroPoint, ArrayRef<int64_t> zeroPointShape) {
  auto type = cast<RankedTensorType>(value.getType());
  auto wide = RankedTensorType::get(type.getShape(), b.getI32Type());
  SmallVector<Value> inputs = {value};
  if (zeroPoint)
    inputs.push_back(reshapeTo(
        b, loc, zeroPoint,
        RankedTensorType::get(zeroPointShape, getElementTypeOrSelf(zeroPoint))));
  return createElementwise(
      b, loc, wide, inputs, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = extendToI32(nb, l, args[0], isUnsigned);
        return args.size() > 1
                   ? Value(arith::SubIOp::create(
                         nb, l, v, extendToI32(nb, l, args[1], isUnsigned)))
                   : v;
      });
}

bool isUnsignedElement(Value onnxValue) {
  return getElementTypeOrSelf(onnxValue).isUnsignedInteger();
}

/// Elements of an optional zero point: 0 when absent.
int64_t getElementCount(Value value) {
  return value ? cast<RankedTensorType>(value.getType()).getNumElements() : 0;
}

struct ConvIntegerPattern : StaticShapePattern<ConvIntegerOp> {
  ConvIntegerPattern(const TypeConverter &converter, MLIRContext *ctx,
                     unsigned vectorBits)
      : StaticShapePattern(converter, ctx), vectorBits(vectorBits) {}
  unsigned vectorBits;

  LogicalResult
  matchAndRewriteStatic(ConvIntegerOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    std::optional<WindowGeometry> g =
        getConvGeometry(op, op.getX(), op.getW(), op.getY());
    if (!g)
      return rewriter.notifyMatchFailure(op, "needs static shapes that match");
    RankedTensorType wType = getStaticType(op.getW());
    int64_t filters = wType.getDimSize(0);
    int64_t wPoints = getElementCount(adaptor.getWZeroPoint());
    if (getElementCount(adaptor.getXZeroPoint()) > 1 ||
        (wPoints > 1 && wPoints != filters))
      return rewriter.notifyMatchFailure(
          op, "x_zero_point per tensor, w_zero_point per tensor or per filter");
    Location loc = op.getLoc();
    SmallVector<int64_t> perFilter(wType.getRank(), 1);
    perFilter[0] = wPoints > 1 ? filters : 1;
    Value x = centered(rewriter, loc, adaptor.getX(), isUnsignedElement(op.getX()),
                       adaptor.getXZeroPoint(), {});
    Value w = centered(rewriter, loc, adaptor.getW(), isUnsignedElement(op.getW()),
                       adaptor.getWZeroPoint(), perFilter);
    // The zero point, centered, is 0.
    x = padSpatial(rewriter, loc, x, g->padBegin, g->padEnd,
                   rewriter.getI32IntegerAttr(0));
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    rewriter.replaceOp(op, convolve(rewriter, loc, x, w, resultType,
                                    /*perFilter=*/nullptr, op.getGroup(), *g,
                                    vectorBits));
    return success();
  }
};

struct MatMulIntegerPattern : StaticShapePattern<MatMulIntegerOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(MatMulIntegerOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = getStaticType(op.getA());
    RankedTensorType bType = getStaticType(op.getB());
    if (aType.getRank() < 2 || bType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "A of rank >= 2 and a 2-D B");
    int64_t k = bType.getDimSize(0), n = bType.getDimSize(1);
    int64_t bPoints = getElementCount(adaptor.getBZeroPoint());
    if (getElementCount(adaptor.getAZeroPoint()) > 1 || (bPoints > 1 && bPoints != n))
      return rewriter.notifyMatchFailure(
          op, "a_zero_point per tensor, b_zero_point per tensor or per column");
    Location loc = op.getLoc();
    // A's leading dims as rows: (R, K).
    int64_t rows = aType.getNumElements() / k;
    Value a = reshapeTo(rewriter, loc, adaptor.getA(),
                        RankedTensorType::get({rows, k}, getElementTypeOrSelf(
                                                             adaptor.getA())));
    a = centered(rewriter, loc, a, isUnsignedElement(op.getA()),
                 adaptor.getAZeroPoint(), {});
    Value b = centered(rewriter, loc, adaptor.getB(), isUnsignedElement(op.getB()),
                       adaptor.getBZeroPoint(), {bPoints > 1 ? n : 1});
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m = getAffineDimExpr(0, ctx), nn = getAffineDimExpr(1, ctx),
               kk = getAffineDimExpr(2, ctx);
    auto outType = RankedTensorType::get({rows, n}, rewriter.getI32Type());
    Value y = createContraction(rewriter, loc, a, b,
                                createFilled(rewriter, loc, outType, 0.0),
                                AffineMap::get(3, 0, {m, kk}, ctx),
                                AffineMap::get(3, 0, {kk, nn}, ctx));
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y,
                                     cast<RankedTensorType>(getTypeConverter()->convertType(
                                         op.getY().getType()))));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateIntegerContractionsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    unsigned vectorBits) {
  patterns.add<ConvIntegerPattern>(converter, patterns.getContext(), vectorBits);
  patterns.add<MatMulIntegerPattern>(converter, patterns.getContext());
}
