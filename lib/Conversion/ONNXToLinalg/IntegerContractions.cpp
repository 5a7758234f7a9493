//===- IntegerContractions.cpp - ConvInteger and MatMulInteger ------------===//
//
// (x - x_zero_point) (*) (w - w_zero_point) accumulated in int32, as ONNX
// Runtime's dynamic quantization writes them. With constant weights (what
// quantize_dynamic and mode=dynamic give), w's zero point is subtracted at
// compile time and x's, known only when the model runs (DynamicQuantizeLinear
// computes it), joins the accumulator's start:
//   sum((x - x_zp) * w') = sum(x * w') - x_zp * sum(w'),
// so the inner loop multiplies the 8-bit operands as the QLinear ops' do.
// Otherwise each operand is first widened to int32 less its zero point (per
// tensor, or per row of w / column of B), so the padding of a convolution is
// 0 and the contraction is a plain int32 multiply-add.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "PackedBytes.h"
#include "Requantize.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

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

/// Constant weights less their zero points, and their sums per output
/// channel.
struct CenteredWeights {
  SmallVector<int64_t> values;
  SmallVector<int64_t> sums;
  /// Whether every value fits in 8 bits (else they are stored as i16).
  bool narrow = true;
};

/// The constant weights `w` less `zeroPoint` (null: 0; per tensor or one
/// per channel), element i in channel `channelOf(i)` of `channels`; nullopt
/// unless both are constants.
std::optional<CenteredWeights>
getCenteredWeights(Value w, Value zeroPoint, int64_t channels,
                   function_ref<int64_t(int64_t)> channelOf) {
  std::optional<SmallVector<int64_t>> values = getConstantIntegers(w);
  std::optional<SmallVector<int64_t>> zeroPoints =
      zeroPoint ? getConstantIntegers(zeroPoint) : SmallVector<int64_t>{0};
  if (!values || !zeroPoints ||
      (zeroPoints->size() != 1 && int64_t(zeroPoints->size()) != channels))
    return std::nullopt;
  CenteredWeights result{std::move(*values), SmallVector<int64_t>(channels, 0)};
  for (auto [i, v] : llvm::enumerate(result.values)) {
    int64_t c = channelOf(i);
    v -= (*zeroPoints)[zeroPoints->size() == 1 ? 0 : c];
    result.sums[c] += v;
    result.narrow &= v == int8_t(v);
  }
  return result;
}

/// The accumulators' start per channel, (offset - x_zp) * sum(w')
/// (channels,) in int32, with x_zp (a converted 8-bit scalar tensor, null:
/// 0) read when the model runs; `offset` is 128 for sdot, which reads
/// x - 128, else 0.
Value getChannelStart(OpBuilder &b, Location loc, Value xZeroPoint,
                      bool xUnsigned, ArrayRef<int64_t> sums, int64_t offset = 0) {
  auto type = RankedTensorType::get({int64_t(sums.size())}, b.getI32Type());
  if (!xZeroPoint)
    return createConstant(b, loc, type,
                          llvm::map_to_vector(sums, [&](int64_t s) { return offset * s; }));
  Value scalar = reshapeTo(b, loc, xZeroPoint,
                           RankedTensorType::get({}, getElementTypeOrSelf(xZeroPoint)));
  return createElementwise(
      b, loc, type, {scalar, createConstant(b, loc, type, sums)},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value zp = extendToI32(nb, l, args[0], xUnsigned);
        Value factor = arith::SubIOp::create(
            nb, l, arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(offset)), zp);
        return arith::MulIOp::create(nb, l, factor, args[1]);
      });
}

struct ConvIntegerPattern : StaticShapePattern<ConvIntegerOp> {
  ConvIntegerPattern(const TypeConverter &converter, MLIRContext *ctx,
                     const LinalgLoweringOptions &options)
      : StaticShapePattern(converter, ctx), vectorBits(options.vectorBits),
        dot(options.int8Dot) {}
  unsigned vectorBits;
  Int8DotProduct dot;

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
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    bool xUnsigned = isUnsignedElement(op.getX());
    int64_t wSize = wType.getNumElements() / filters;
    if (std::optional<CenteredWeights> w =
            getCenteredWeights(op.getW(), op.getWZeroPoint(), filters,
                               [&](int64_t i) { return i / wSize; })) {
      // As QLinearConv's, the input padded with its zero point (read when
      // the model runs) and the filters' start -x_zp * sum(w').
      Int8DotProduct packing =
          packsFor(dot, wType, getStaticType(op.getX()), !w->narrow);
      // sdot reads x - 128: sum(x * w) = sum((x - 128) * w) + 128 * sum(w).
      Value start = getChannelStart(rewriter, loc, adaptor.getXZeroPoint(), xUnsigned,
                                    w->sums, packing == Int8DotProduct::SDot ? 128 : 0);
      Value zeroPoint = adaptor.getXZeroPoint()
                            ? tensor::ExtractOp::create(
                                  rewriter, loc,
                                  reshapeTo(rewriter, loc, adaptor.getXZeroPoint(),
                                            RankedTensorType::get({}, rewriter.getI8Type())),
                                  ValueRange{})
                                  .getResult()
                            : Value(arith::ConstantOp::create(
                                  rewriter, loc, rewriter.getI8IntegerAttr(0)));
      Value x = padSpatial(rewriter, loc, adaptor.getX(), g->padBegin, g->padEnd,
                           zeroPoint);
      rewriter.replaceOp(
          op, convolveQuantized(rewriter, loc, x, xUnsigned, wType, w->values,
                                !w->narrow, start, resultType, op.getGroup(), *g,
                                packing, /*channelFill=*/0, vectorBits,
                                /*epilogue=*/nullptr));
      return success();
    }
    SmallVector<int64_t> perFilter(wType.getRank(), 1);
    perFilter[0] = wPoints > 1 ? filters : 1;
    Value x = centered(rewriter, loc, adaptor.getX(), isUnsignedElement(op.getX()),
                       adaptor.getXZeroPoint(), {});
    Value w = centered(rewriter, loc, adaptor.getW(), isUnsignedElement(op.getW()),
                       adaptor.getWZeroPoint(), perFilter);
    // The zero point, centered, is 0.
    x = padSpatial(rewriter, loc, x, g->padBegin, g->padEnd,
                   rewriter.getI32IntegerAttr(0));
    rewriter.replaceOp(op, convolve(rewriter, loc, x, w, resultType,
                                    /*perFilter=*/nullptr, op.getGroup(), *g,
                                    vectorBits));
    return success();
  }
};

struct MatMulIntegerPattern : StaticShapePattern<MatMulIntegerOp> {
  MatMulIntegerPattern(const TypeConverter &converter, MLIRContext *ctx,
                       Int8DotProduct dot)
      : StaticShapePattern(converter, ctx), dot(dot) {}
  Int8DotProduct dot;

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
    auto outType = RankedTensorType::get({rows, n}, rewriter.getI32Type());
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getY().getType()));
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m = getAffineDimExpr(0, ctx), nn = getAffineDimExpr(1, ctx),
               kk = getAffineDimExpr(2, ctx);
    AffineMap aMap = AffineMap::get(3, 0, {m, kk}, ctx);
    AffineMap bMap = AffineMap::get(3, 0, {kk, nn}, ctx);
    bool aUnsigned = isUnsignedElement(op.getA());
    if (std::optional<CenteredWeights> b =
            getCenteredWeights(op.getB(), op.getBZeroPoint(), n,
                               [&](int64_t i) { return i % n; })) {
      // Centered, the weights are signed whatever their ONNX type.
      Value start =
          getChannelStart(rewriter, loc, adaptor.getAZeroPoint(), aUnsigned, b->sums);
      Value y = multiplyQuantized(rewriter, loc, a, aUnsigned, /*transA=*/false,
                                  b->values, k, n, start, dot);
      rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, resultType));
      return success();
    }
    a = centered(rewriter, loc, a, aUnsigned, adaptor.getAZeroPoint(), {});
    Value b = centered(rewriter, loc, adaptor.getB(), isUnsignedElement(op.getB()),
                       adaptor.getBZeroPoint(), {bPoints > 1 ? n : 1});
    Value y = createContraction(rewriter, loc, a, b,
                                createFilled(rewriter, loc, outType, 0.0), aMap, bMap);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, resultType));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateIntegerContractionsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options) {
  patterns.add<ConvIntegerPattern>(converter, patterns.getContext(), options);
  patterns.add<MatMulIntegerPattern>(converter, patterns.getContext(),
                                     options.int8Dot);
}
