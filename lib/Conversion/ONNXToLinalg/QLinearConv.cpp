//===- QLinearConv.cpp - quantized convolution to integer linalg ----------===//
//
// y = requantize(sum((x - x_zp) * (w - w_zp)) + bias), with int32
// accumulation. The input is padded with its zero point (real 0), so
//   sum((x - x_zp) * w') = sum(x * w') - x_zp * sum(w')   (w' = w - w_zp)
// where the second term depends only on the filter: it is folded with the
// bias into the accumulator's initial value at compile time, and the inner
// loop is a plain widening multiply-add of the 8-bit operands. The epilogue
// is the integer-only requantization of Requantize.h with one multiplier
// per filter (s_x * s_w[f] / s_y in float32).
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "Requantize.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct QLinearConvPattern : RequantizingPattern<QLinearConvOp> {
  using RequantizingPattern::RequantizingPattern;

  LogicalResult
  matchAndRewriteStatic(QLinearConvOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    std::optional<WindowGeometry> g =
        getConvGeometry(op, op.getX(), op.getW(), op.getY());
    if (!g)
      return rewriter.notifyMatchFailure(op, "needs static shapes that match");
    RankedTensorType xType = getStaticType(op.getX());
    RankedTensorType wType = getStaticType(op.getW());
    RankedTensorType yType = getStaticType(op.getY());
    FailureOr<QuantParams> xq = getQuantParams(op.getXScale(), op.getXZeroPoint());
    FailureOr<QuantParams> wq = getQuantParams(op.getWScale(), op.getWZeroPoint());
    FailureOr<QuantParams> yq = getQuantParams(op.getYScale(), op.getYZeroPoint());
    std::optional<SmallVector<int64_t>> weights = getConstantIntegers(op.getW());
    if (failed(xq) || failed(wq) || failed(yq) || !weights ||
        !xq->isPerTensor() || !yq->isPerTensor())
      return rewriter.notifyMatchFailure(
          op, "needs constant weights, scales and zero points");
    int64_t filters = wType.getDimSize(0);
    int64_t perFilter = wType.getNumElements() / filters;
    if (!wq->fits(filters))
      return rewriter.notifyMatchFailure(op, "w_scale per tensor or per filter");
    SmallVector<int64_t> bias(filters, 0);
    if (op.getB()) {
      std::optional<SmallVector<int64_t>> b = getConstantIntegers(op.getB());
      if (!b || int64_t(b->size()) != filters)
        return rewriter.notifyMatchFailure(op, "needs a constant bias");
      bias = std::move(*b);
    }

    // Filters without their zero points (16 bits wide when one is not 0),
    // the accumulator's start and the per-filter multipliers.
    bool wideWeights = llvm::any_of(wq->zeroPoints, [](int64_t zp) { return zp; });
    int64_t xZeroPoint = xq->zeroPoints[0];
    SmallVector<int64_t> init(filters);
    SmallVector<float> multipliers(filters);
    for (int64_t f = 0; f < filters; ++f) {
      int64_t wZeroPoint = wq->zeroPointAt(f);
      int64_t sum = 0;
      for (int64_t i = f * perFilter; i < (f + 1) * perFilter; ++i) {
        (*weights)[i] -= wZeroPoint;
        sum += (*weights)[i];
      }
      init[f] = bias[f] - xZeroPoint * sum;
      // In float32, in ONNX Runtime's order: (s_x * s_w) / s_y.
      multipliers[f] = xq->scales[0] * wq->scaleAt(f) / yq->scales[0];
    }
    if (llvm::any_of(init, [](int64_t v) { return v != int32_t(v); }))
      return rewriter.notifyMatchFailure(op, "bias overflows int32");

    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    bool xUnsigned = xType.getElementType().isUnsignedInteger();
    // Padding is the zero point's bit pattern as a signless i8.
    Value x = padSpatial(rewriter, loc, adaptor.getX(), g->padBegin, g->padEnd,
                         rewriter.getIntegerAttr(i8, int8_t(xZeroPoint)));
    Value w = createConstant(
        rewriter, loc,
        RankedTensorType::get(wType.getShape(),
                              wideWeights ? rewriter.getI16Type() : i8),
        *weights);
    auto accType = RankedTensorType::get(yType.getShape(), i32);
    // (F, 1, ...): broadcasts along the filters.
    SmallVector<int64_t> filterShape(yType.getRank() - 1, 1);
    filterShape[0] = filters;
    Value initPerFilter = createConstant(
        rewriter, loc, RankedTensorType::get(filterShape, i32), init);
    Value acc = createElementwise(rewriter, loc, accType, initPerFilter,
                                  [](OpBuilder &, Location, ValueRange args) {
                                    return args[0];
                                  });
    acc = convolve(rewriter, loc, x, w, acc, op.getGroup(), *g,
                   MultiplyAdd{xUnsigned, /*rhsUnsigned=*/false});

    FailureOr<Value> y = createRequantized(
        rewriter, loc, acc, multipliers, /*axis=*/1, yq->zeroPoints[0],
        getQuantizedRange(yType.getElementType()),
        RankedTensorType::get(yType.getShape(), i8), mode);
    if (failed(y))
      return rewriter.notifyMatchFailure(op, "scales give no requantization");
    rewriter.replaceOp(op, *y);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateQLinearConvToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    Requantization mode) {
  patterns.add<QLinearConvPattern>(converter, patterns.getContext(), mode);
}
