//===- QLinearMatMul.cpp - quantized matrix products to integer linalg ----===//
//
// QLinearMatMul and com.microsoft QGemm with constant weights: an (M, K)
// activation times (K, N) int8 weights, accumulated in int32 from
// `bias[n] - a_zp * sum_k(b[k][n] - b_zp[n])` (folded at compile time, as
// for QLinearConv), then requantized with one multiplier per column
// (alpha * s_a * s_b[n] / s_y in float32). Weights stored (N, K) are transposed at
// compile time so the inner loop reads them contiguously. On AVX-512 VNNI a
// u8 activation times 8-bit weights runs as vpdpbusd: four bytes along K
// packed to an int32 (PackedBytes.h).
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "PackedBytes.h"
#include "Requantize.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// What a quantized matrix product needs, gathered from either op.
struct QuantizedProduct {
  Value a;                    // converted (M, K), or (K, M) when transA
  bool aUnsigned = false, transA = false;
  int64_t m = 0, k = 0, n = 0;
  SmallVector<int64_t> b;     // (K, N), row-major
  SmallVector<int64_t> bias;  // (N)
  float alpha = 1.0f;
  QuantParams aq, bq, yq;     // b per tensor or per column
  Type yElementType;          // ONNX type of the result
  Requantization mode = Requantization::Float;
  Int8DotProduct dot = Int8DotProduct::None;
};

FailureOr<Value> lowerQuantizedProduct(OpBuilder &rewriter, Location loc,
                                       QuantizedProduct p) {
  if (!p.bq.fits(p.n) || !p.aq.isPerTensor() || !p.yq.isPerTensor())
    return failure();
  SmallVector<int64_t> init(p.bias);
  SmallVector<float> multipliers(p.n);
  for (int64_t j = 0; j < p.n; ++j) {
    int64_t sum = 0;
    for (int64_t i = 0; i < p.k; ++i) {
      int64_t &v = p.b[i * p.n + j];
      v -= p.bq.zeroPointAt(j);
      sum += v;
    }
    init[j] -= p.aq.zeroPoints[0] * sum;
    // float32, in ONNX Runtime's order.
    multipliers[j] = p.alpha * p.aq.scales[0] * p.bq.scaleAt(j) / p.yq.scales[0];
  }
  if (llvm::any_of(init, [](int64_t v) { return v != int32_t(v); }))
    return failure();
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
  Value start = createConstant(rewriter, loc, RankedTensorType::get({p.n}, i32), init);
  Value acc = multiplyQuantized(rewriter, loc, p.a, p.aUnsigned, p.transA, p.b,
                                p.k, p.n, start, p.dot);
  return createRequantized(rewriter, loc, acc, multipliers, /*axis=*/1,
                           p.yq.zeroPoints[0], getQuantizedRange(p.yElementType),
                           RankedTensorType::get({p.m, p.n}, i8), p.mode);
}

/// The quantization parameters of the three operands; failure unless all
/// are constants.
LogicalResult getProductParams(QuantizedProduct &p, Value aScale, Value aZp,
                               Value bScale, Value bZp, Value yScale, Value yZp) {
  FailureOr<QuantParams> aq = getQuantParams(aScale, aZp);
  FailureOr<QuantParams> bq = getQuantParams(bScale, bZp);
  FailureOr<QuantParams> yq = getQuantParams(yScale, yZp);
  if (failed(aq) || failed(bq) || failed(yq))
    return failure();
  p.aq = std::move(*aq);
  p.bq = std::move(*bq);
  p.yq = std::move(*yq);
  return success();
}

struct QLinearMatMulPattern : RequantizingPattern<QLinearMatMulOp> {
  QLinearMatMulPattern(const TypeConverter &converter, MLIRContext *ctx,
                       const LinalgLoweringOptions &options)
      : RequantizingPattern(converter, ctx, options.requant), dot(options.int8Dot) {}
  Int8DotProduct dot;
  LogicalResult
  matchAndRewriteStatic(QLinearMatMulOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = getTensorType(op.getA());
    RankedTensorType bType = getTensorType(op.getB());
    RankedTensorType yType = getTensorType(op.getY());
    std::optional<SmallVector<int64_t>> b = getConstantIntegers(op.getB());
    if (aType.getRank() < 2 || bType.getRank() != 2 || !b)
      return rewriter.notifyMatchFailure(op, "needs a 2-D constant b");
    QuantizedProduct p;
    p.mode = mode;
    p.dot = dot;
    if (failed(getProductParams(p, op.getAScale(), op.getAZeroPoint(),
                                op.getBScale(), op.getBZeroPoint(),
                                op.getYScale(), op.getYZeroPoint())))
      return rewriter.notifyMatchFailure(op, "needs constant quantization parameters");
    // Leading dimensions of A are rows too.
    p.k = aType.getShape().back();
    p.m = aType.getNumElements() / p.k;
    p.n = bType.getDimSize(1);
    Location loc = op.getLoc();
    p.a = reshapeTo(rewriter, loc, adaptor.getA(),
                    RankedTensorType::get({p.m, p.k}, rewriter.getI8Type()));
    p.aUnsigned = aType.getElementType().isUnsignedInteger();
    p.b = std::move(*b);
    p.bias.assign(p.n, 0);
    p.yElementType = yType.getElementType();
    FailureOr<Value> y = lowerQuantizedProduct(rewriter, loc, std::move(p));
    if (failed(y))
      return rewriter.notifyMatchFailure(op, "unsupported quantization parameters");
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, *y,
                                     RankedTensorType::get(yType.getShape(),
                                                           rewriter.getI8Type())));
    return success();
  }
};

struct QGemmPattern : RequantizingPattern<QGemmOp> {
  QGemmPattern(const TypeConverter &converter, MLIRContext *ctx,
               const LinalgLoweringOptions &options)
      : RequantizingPattern(converter, ctx, options.requant), dot(options.int8Dot) {}
  Int8DotProduct dot;
  LogicalResult
  matchAndRewriteStatic(QGemmOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = getTensorType(op.getA());
    RankedTensorType yType = getTensorType(op.getY());
    std::optional<SmallVector<int64_t>> b = getConstantIntegers(op.getB());
    if (!b)
      return rewriter.notifyMatchFailure(op, "needs a constant B");
    if (!op.getYScale())
      return rewriter.notifyMatchFailure(op, "float results are not supported");
    QuantizedProduct p;
    p.mode = mode;
    p.dot = dot;
    if (failed(getProductParams(p, op.getAScale(), op.getAZeroPoint(),
                                op.getBScale(), op.getBZeroPoint(),
                                op.getYScale(), op.getYZeroPoint())))
      return rewriter.notifyMatchFailure(op, "needs constant quantization parameters");
    p.transA = op.getTransA();
    p.m = yType.getDimSize(0);
    p.n = yType.getDimSize(1);
    p.k = aType.getDimSize(p.transA ? 0 : 1);
    p.b = std::move(*b);
    if (op.getTransB()) {
      SmallVector<int64_t> transposed(p.b.size());
      for (int64_t j = 0; j < p.n; ++j)
        for (int64_t i = 0; i < p.k; ++i)
          transposed[i * p.n + j] = p.b[j * p.k + i];
      p.b = std::move(transposed);
    }
    p.bias.assign(p.n, 0);
    if (op.getC()) {
      std::optional<SmallVector<int64_t>> c = getConstantIntegers(op.getC());
      if (!c || (c->size() != 1 && int64_t(c->size()) != p.n))
        return rewriter.notifyMatchFailure(op, "needs a constant per-column bias");
      for (int64_t j = 0; j < p.n; ++j)
        p.bias[j] = (*c)[c->size() == 1 ? 0 : j];
    }
    p.a = adaptor.getA();
    p.aUnsigned = aType.getElementType().isUnsignedInteger();
    p.alpha = op.getAlpha().convertToFloat();
    p.yElementType = yType.getElementType();
    FailureOr<Value> y = lowerQuantizedProduct(rewriter, op.getLoc(), std::move(p));
    if (failed(y))
      return rewriter.notifyMatchFailure(op, "unsupported quantization parameters");
    rewriter.replaceOp(op, *y);
    return success();
  }
};

} // namespace

Value mlir::onnxq::multiplyQuantized(OpBuilder &b, Location loc, Value a,
                                     bool aUnsigned, bool transA,
                                     ArrayRef<int64_t> weights, int64_t k,
                                     int64_t n, Value columnStart,
                                     Int8DotProduct dot) {
  bool narrow = llvm::all_of(weights, [](int64_t v) { return v == int8_t(v); });
  bool vnni = dot == Int8DotProduct::VNNI || dot == Int8DotProduct::AMX;
  if (vnni && aUnsigned && !transA && narrow)
    return multiplyPackedBytes(b, loc, a, weights, k, n, columnStart, dot);
  auto aType = cast<RankedTensorType>(a.getType());
  int64_t m = aType.getDimSize(transA ? 1 : 0);
  Value w = createConstant(
      b, loc, RankedTensorType::get({k, n}, narrow ? b.getI8Type() : b.getI16Type()),
      weights);
  MLIRContext *ctx = b.getContext();
  AffineExpr mm = getAffineDimExpr(0, ctx), nn = getAffineDimExpr(1, ctx),
             kk = getAffineDimExpr(2, ctx);
  return createContraction(
      b, loc, a, w,
      createBroadcast(b, loc, RankedTensorType::get({m, n}, b.getI32Type()),
                      columnStart),
      AffineMap::get(3, 0, transA ? ArrayRef{kk, mm} : ArrayRef{mm, kk}, ctx),
      AffineMap::get(3, 0, {kk, nn}, ctx), MultiplyAdd{aUnsigned, false});
}

void mlir::onnxq::populateQLinearMatMulToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options) {
  patterns.add<QLinearMatMulPattern, QGemmPattern>(converter,
                                                   patterns.getContext(), options);
}
