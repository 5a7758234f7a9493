//===- QLinearElementwise.cpp - quantized element-wise ops and pooling ----===//
//
// Integer-only forms of the ops that combine quantized tensors element by
// element, rounding like ONNX Runtime's CPU kernels (see Requantize.h):
//   QuantizeLinear(DequantizeLinear(x)): y = rq((x - zx) * fl(sx / sy))
//   QLinearGlobalAveragePool: y = rq((sum_hw x - H*W*zx) * fl(sx / fl(sy*H*W)))
//   QLinearAdd: c = rne(fl(a * rA + fl(b * rB + k))) with rA = fl(sa/sc),
//     rB = fl(sb/sc), k = fl(zc - (rA * za + rB * zb)): the x86-64 kernel's
//     float32 operations (two fused multiply-adds), with requant=integer
//     each reproduced exactly on int64 values that count units of 2^-F.
//
//===----------------------------------------------------------------------===//

#include "Requantize.h"
#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// (x - zeroPoint) as i32, element-wise.
Value createCentered(OpBuilder &rewriter, Location loc, Value x, bool isUnsigned,
                     int64_t zeroPoint) {
  auto type = cast<RankedTensorType>(x.getType());
  return createElementwise(
      rewriter, loc, RankedTensorType::get(type.getShape(), rewriter.getI32Type()),
      x, [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value v = extendToI32(b, l, args[0], isUnsigned);
        if (!zeroPoint)
          return v;
        return arith::SubIOp::create(
            b, l, v, arith::ConstantOp::create(b, l, b.getI32IntegerAttr(zeroPoint)));
      });
}

/// QuantizeLinear of a DequantizeLinear, both per tensor: a requantization
/// that never leaves the integers.
struct RequantizePattern : RequantizingPattern<QuantizeLinearOp> {
  RequantizePattern(const TypeConverter &converter, MLIRContext *ctx,
                    Requantization mode)
      : RequantizingPattern(converter, ctx, mode, /*benefit=*/2) {}
  LogicalResult
  matchAndRewriteStatic(QuantizeLinearOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto dequantize = op.getX().getDefiningOp<DequantizeLinearOp>();
    if (!dequantize)
      return rewriter.notifyMatchFailure(op, "input is not dequantized");
    RankedTensorType xType = getStaticType(dequantize.getX());
    RankedTensorType yType = getStaticType(op.getY());
    FailureOr<QuantParams> xq =
        getQuantParams(dequantize.getXScale(), dequantize.getXZeroPoint());
    FailureOr<QuantParams> yq = getQuantParams(op.getYScale(), op.getYZeroPoint());
    if (!xType || !yType || !xType.getElementType().isInteger(8) || failed(xq) ||
        failed(yq) || !xq->isPerTensor() || !yq->isPerTensor())
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit parameters");
    Location loc = op.getLoc();
    Value centered = createCentered(rewriter, loc,
                                    rewriter.getRemappedValue(dequantize.getX()),
                                    xType.getElementType().isUnsignedInteger(),
                                    xq->zeroPoints[0]);
    FailureOr<Value> y = createRequantized(
        rewriter, loc, centered, xq->scales[0] / yq->scales[0], /*axis=*/0,
        yq->zeroPoints[0], getQuantizedRange(yType.getElementType()),
        convertTensorType(yType), mode);
    if (failed(y))
      return rewriter.notifyMatchFailure(op, "scales give no requantization");
    rewriter.replaceOp(op, *y);
    return success();
  }
};

/// The number of fraction bits that make `value` an integer (a float32
/// is m * 2^-k).
int64_t getFractionBits(float value) {
  if (value == 0)
    return 0;
  FailureOr<Float32Multiplier> m = decomposeFloat32(std::abs(value));
  return succeeded(m) ? m->shift : 64;
}

/// `value` in units of 2^-bits (exact when bits >= getFractionBits(value)).
int64_t toFixedPoint(float value, int64_t bits) {
  return static_cast<int64_t>(std::ldexp(double(value), int(bits)));
}

struct QLinearAddPattern : RequantizingPattern<QLinearAddOp> {
  using RequantizingPattern::RequantizingPattern;
  LogicalResult
  matchAndRewriteStatic(QLinearAddOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = getTensorType(op.getA());
    RankedTensorType bType = getTensorType(op.getB());
    RankedTensorType cType = getTensorType(op.getC());
    FailureOr<QuantParams> aq = getQuantParams(op.getAScale(), op.getAZeroPoint());
    FailureOr<QuantParams> bq = getQuantParams(op.getBScale(), op.getBZeroPoint());
    FailureOr<QuantParams> cq = getQuantParams(op.getCScale(), op.getCZeroPoint());
    if (failed(aq) || failed(bq) || failed(cq) || !aq->isPerTensor() ||
        !bq->isPerTensor() || !cq->isPerTensor())
      return rewriter.notifyMatchFailure(op, "needs constant per-tensor parameters");
    // The kernel's float32 constants.
    float ratioA = aq->scales[0] / cq->scales[0];
    float ratioB = bq->scales[0] / cq->scales[0];
    float fixedPart =
        float(cq->zeroPoints[0]) -
        std::fma(ratioA, float(aq->zeroPoints[0]), ratioB * float(bq->zeroPoints[0]));
    bool aUnsigned = aType.getElementType().isUnsignedInteger();
    bool bUnsigned = bType.getElementType().isUnsignedInteger();
    QuantizedRange range = getQuantizedRange(cType.getElementType());
    auto resultType = convertTensorType(cType);
    if (mode == Requantization::Float) {
      // The kernel's instructions: two fused multiply-adds, then the
      // rounding and saturation of the requantization.
      Value c = createElementwise(
          rewriter, op.getLoc(), resultType, ValueRange{adaptor.getA(), adaptor.getB()},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Type f32 = b.getF32Type();
            auto toFloat = [&](Value v, bool isUnsigned) -> Value {
              return arith::SIToFPOp::create(b, l, f32, extendToI32(b, l, v, isUnsigned));
            };
            auto constant = [&](float v) -> Value {
              return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
            };
            Value t = math::FmaOp::create(b, l, toFloat(args[1], bUnsigned),
                                          constant(ratioB), constant(fixedPart));
            Value r = math::FmaOp::create(b, l, toFloat(args[0], aUnsigned),
                                          constant(ratioA), t);
            return emitFloatSaturate(b, l, r, range, resultType.getElementType());
          });
      rewriter.replaceOp(op, c);
      return success();
    }
    // Every value below is a whole number of 2^-bits: products of an 8-bit
    // integer and a ratio, and float32 roundings of sums of them.
    int64_t bits = std::max({getFractionBits(ratioA), getFractionBits(ratioB),
                             getFractionBits(fixedPart)});
    if (bits > 46 || std::abs(ratioA) >= 256 || std::abs(ratioB) >= 256 ||
        std::abs(fixedPart) >= 65536)
      return rewriter.notifyMatchFailure(op, "scale ratios out of range");
    int64_t unitA = toFixedPoint(ratioA, bits), unitB = toFixedPoint(ratioB, bits),
            fixed = toFixedPoint(fixedPart, bits);
    Value c = createElementwise(
        rewriter, op.getLoc(), resultType, ValueRange{adaptor.getA(), adaptor.getB()},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Type i64 = b.getI64Type();
          auto wide = [&](Value v, bool isUnsigned) {
            return arith::ExtSIOp::create(b, l, i64, extendToI32(b, l, v, isUnsigned));
          };
          // fl(b * rB + k), then fl(a * rA + that): two fused multiply-adds.
          Value t = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, wide(args[1], bUnsigned), createI64(b, l, unitB)),
              createI64(b, l, fixed));
          t = emitRoundToFloat32(b, l, t);
          Value r = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, wide(args[0], aUnsigned), createI64(b, l, unitA)),
              t);
          r = emitRoundToFloat32(b, l, r);
          Value q = emitShiftRoundHalfEven(b, l, r, createI64(b, l, bits));
          return emitSaturate(b, l, q, /*zeroPoint=*/0, range,
                              resultType.getElementType());
        });
    rewriter.replaceOp(op, c);
    return success();
  }
};

struct QLinearGlobalAveragePoolPattern
    : RequantizingPattern<QLinearGlobalAveragePoolOp> {
  QLinearGlobalAveragePoolPattern(const TypeConverter &converter,
                                  MLIRContext *ctx, Requantization mode,
                                  unsigned vectorBits)
      : RequantizingPattern(converter, ctx, mode), vectorBits(vectorBits) {}
  unsigned vectorBits;

  LogicalResult
  matchAndRewriteStatic(QLinearGlobalAveragePoolOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType xType = getTensorType(op.getX());
    RankedTensorType yType = getTensorType(op.getY());
    FailureOr<QuantParams> xq = getQuantParams(op.getXScale(), op.getXZeroPoint());
    FailureOr<QuantParams> yq = getQuantParams(op.getYScale(), op.getYZeroPoint());
    if (op.getChannelsLast() || failed(xq) || failed(yq) ||
        !xq->isPerTensor() || !yq->isPerTensor())
      return rewriter.notifyMatchFailure(
          op, "needs NCHW and constant per-tensor parameters");
    Location loc = op.getLoc();
    int64_t rows = xType.getDimSize(0) * xType.getDimSize(1);
    int64_t window = xType.getNumElements() / rows;
    // sum(x) - window * zx, accumulated in i32 (each byte widened as it is
    // added), each (n, c) row in vector-wide lanes first.
    bool isUnsigned = xType.getElementType().isUnsignedInteger();
    Value x = reshapeTo(rewriter, loc, adaptor.getX(),
                        RankedTensorType::get({rows, window},
                                              getElementTypeOrSelf(adaptor.getX())));
    auto add = [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
      return arith::AddIOp::create(b, l, acc, v);
    };
    Value rowSums = reduceRowsInLanes(
        rewriter, loc, x, rewriter.getI32IntegerAttr(0),
        [&](OpBuilder &b, Location l, Value acc, Value v) -> Value {
          return arith::AddIOp::create(b, l, acc, extendToI32(b, l, v, isUnsigned));
        },
        add, vectorBits / 32);
    SmallVector<int64_t> summedShape(xType.getShape());
    std::fill(summedShape.begin() + 2, summedShape.end(), 1);
    Value sum = reshapeTo(rewriter, loc, rowSums,
                          RankedTensorType::get(summedShape, rewriter.getI32Type()));
    Value centered = createCentered(rewriter, loc, sum, /*isUnsigned=*/false,
                                    window * xq->zeroPoints[0]);
    float multiplier = xq->scales[0] / (yq->scales[0] * float(window));
    FailureOr<Value> y = createRequantized(
        rewriter, loc, centered, multiplier, /*axis=*/0, yq->zeroPoints[0],
        getQuantizedRange(yType.getElementType()),
        convertTensorType(yType), mode);
    if (failed(y))
      return rewriter.notifyMatchFailure(op, "scales give no requantization");
    rewriter.replaceOp(op, *y);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateQLinearElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    Requantization mode, unsigned vectorBits) {
  patterns.add<RequantizePattern, QLinearAddPattern>(
      converter, patterns.getContext(), mode);
  patterns.add<QLinearGlobalAveragePoolPattern>(converter, patterns.getContext(),
                                                mode, vectorBits);
}
