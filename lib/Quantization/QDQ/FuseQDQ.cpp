//===- FuseQDQ.cpp - DequantizeLinear -> op -> QuantizeLinear to QLinear* -===//
//
// In the QDQ form every quantized op reads dequantized inputs and its result
// is quantized again. The patterns here give each such island its integer
// QOperator op, sink DequantizeLinear below the ops that only move values
// (so they run on the integers), and drop a QuantizeLinear of a
// DequantizeLinear with the same parameters. What is left in float is what
// has no integer form.
//
//===----------------------------------------------------------------------===//

#include "Matchers.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Quantization/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::onnxq {
#define GEN_PASS_DEF_FUSEQDQPASS
#include "onnx-quant/Quantization/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The zero point operand, or zeros of `dataType`'s element type shaped like
/// `scale` (QOperator ops require zero points).
Value getOrCreateZeroPoint(PatternRewriter &rewriter, Location loc, Value zp,
                           Type dataType, Value scale) {
  if (zp)
    return zp;
  auto scaleType = cast<RankedTensorType>(scale.getType());
  auto type = scaleType.clone(getElementTypeOrSelf(dataType));
  SmallVector<int64_t> zeros(scaleType.getNumElements(), 0);
  return ConstantOp::create(rewriter, loc, createIntegerElements(type, zeros));
}

/// The zero points of a DequantizeLinear's input and a QuantizeLinear's
/// result, created as zeros when absent.
Value getZeroPoint(PatternRewriter &rewriter, Location loc, DequantizeLinearOp dq) {
  return getOrCreateZeroPoint(rewriter, loc, dq.getXZeroPoint(),
                              dq.getX().getType(), dq.getXScale());
}
Value getZeroPoint(PatternRewriter &rewriter, Location loc, QuantizeLinearOp q) {
  return getOrCreateZeroPoint(rewriter, loc, q.getYZeroPoint(),
                              q.getY().getType(), q.getYScale());
}

/// The single integer of a scalar constant (0 when absent).
int64_t getScalarInteger(Value value) {
  if (!value)
    return 0;
  std::optional<SmallVector<int64_t>> values = getConstantIntegers(value);
  return values && values->size() == 1 ? (*values)[0] : 0;
}

/// Whether two quantizations have equal element types, scales and zero points.
bool haveSameParams(Type aType, Value aScale, Value aZp, Type bType,
                    Value bScale, Value bZp) {
  if (getElementTypeOrSelf(aType) != getElementTypeOrSelf(bType))
    return false;
  std::optional<SmallVector<float>> a = getConstantFloats(aScale);
  std::optional<SmallVector<float>> b = getConstantFloats(bScale);
  return a && b && *a == *b && getScalarInteger(aZp) == getScalarInteger(bZp);
}

/// `value` with a Relu in front of it peeled off: the op that feeds the
/// QuantizeLinear, and whether it was clamped at 0 first.
std::pair<Operation *, bool> getProducer(Value value) {
  Operation *op = value.getDefiningOp();
  if (auto relu = dyn_cast_or_null<ReluOp>(op)) {
    if (!relu->hasOneUse())
      return {nullptr, false};
    return {relu.getX().getDefiningOp(), true};
  }
  return {op, false};
}

/// Replaces `q` with `result`, clamped below at the output zero point when
/// a Relu was fused (quantization is monotone and maps 0 to the zero point).
void replaceQuantize(PatternRewriter &rewriter, QuantizeLinearOp q,
                     Value result, bool relu) {
  if (relu) {
    Value zp = getZeroPoint(rewriter, q.getLoc(), q);
    result = MaxOp::create(rewriter, q.getLoc(), q.getY().getType(),
                           ValueRange{result, zp});
  }
  rewriter.replaceOp(q, result);
}

/// Whether a DequantizeLinear of an int32 bias has scale `s_x * s_w` (per
/// output channel) and zero point 0, as QLinearConv and QGemm define it.
bool isBiasOf(DequantizeLinearOp bias, DequantizeLinearOp x,
              DequantizeLinearOp w) {
  if (!getElementTypeOrSelf(bias.getX().getType()).isInteger(32) ||
      !getConstantValue(bias.getX()) || getScalarInteger(bias.getXZeroPoint()))
    return false;
  std::optional<SmallVector<float>> sb = getConstantFloats(bias.getXScale());
  std::optional<SmallVector<float>> sx = getConstantFloats(x.getXScale());
  std::optional<SmallVector<float>> sw = getConstantFloats(w.getXScale());
  if (!sb || !sx || !sw || (sb->size() != sw->size() && sb->size() != 1))
    return false;
  for (size_t c = 0; c < sw->size(); ++c) {
    double expected = double((*sx)[0]) * (*sw)[c];
    double actual = (*sb)[sb->size() == 1 ? 0 : c];
    if (std::abs(actual - expected) > 1e-5 * expected)
      return false;
  }
  return true;
}

/// The DequantizeLinear of an optional bias: null without a bias, failure
/// when it is not an int32 of scale s_x * s_w.
FailureOr<DequantizeLinearOp> getBias(Value bias, DequantizeLinearOp x,
                                      DequantizeLinearOp w) {
  if (!bias)
    return DequantizeLinearOp();
  DequantizeLinearOp dq = getDequantize(bias, /*allowPerAxis=*/true);
  if (!dq || !isBiasOf(dq, x, w))
    return failure();
  return dq;
}

/// Constant 8- or 4-bit weights behind a DequantizeLinear (per tensor, or
/// per axis `axis`).
DequantizeLinearOp getWeights(Value value, int64_t axis) {
  DequantizeLinearOp dq = getDequantize(value, /*allowPerAxis=*/true);
  Type elementType = dq ? getElementTypeOrSelf(dq.getX().getType()) : Type();
  if (!dq || !getConstantValue(dq.getX()) ||
      !(elementType.isInteger(8) || elementType.isInteger(4)))
    return nullptr;
  auto scaleType = cast<ShapedType>(dq.getXScale().getType());
  if (scaleType.getNumElements() != 1 && dq.getAxis() != axis)
    return nullptr;
  return dq;
}

/// A weights constant (or its zero point) as the QLinear ops take it: 4-bit
/// values widened to the 8-bit type of their signedness, unchanged.
Value getWeightData(PatternRewriter &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto intType = cast<IntegerType>(type.getElementType());
  if (intType.getWidth() != 4)
    return value;
  auto wide = type.clone(
      IntegerType::get(rewriter.getContext(), 8, intType.getSignedness()));
  return ConstantOp::create(
      rewriter, loc, createIntegerElements(wide, *getConstantIntegers(value)));
}

/// The weights and zero point of `w` for a QLinear op.
std::pair<Value, Value> getWeightOperands(PatternRewriter &rewriter,
                                          Location loc, DequantizeLinearOp w) {
  return {getWeightData(rewriter, loc, w.getX()),
          getWeightData(rewriter, loc, getZeroPoint(rewriter, loc, w))};
}

/// Q(Conv(DQ(x), DQ(w), DQ(b))) -> QLinearConv.
struct FuseConv : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto [producer, relu] = getProducer(q.getX());
    auto conv = dyn_cast_or_null<ConvOp>(producer);
    if (!conv || !conv->hasOneUse() || !isPerTensorQuantize(q))
      return failure();
    DequantizeLinearOp x = getDequantize(conv.getX());
    DequantizeLinearOp w = getWeights(conv.getW(), 0);
    if (!x || !w)
      return failure();
    FailureOr<DequantizeLinearOp> bias = getBias(conv.getB(), x, w);
    if (failed(bias))
      return failure();
    Location loc = conv.getLoc();
    auto [wData, wZeroPoint] = getWeightOperands(rewriter, loc, w);
    auto fused = QLinearConvOp::create(
        rewriter, loc, q.getY().getType(), x.getX(), x.getXScale(),
        getZeroPoint(rewriter, loc, x),
        wData, w.getXScale(), wZeroPoint,
        q.getYScale(),
        getZeroPoint(rewriter, loc, q),
        *bias ? bias->getX() : Value(), conv.getAutoPadAttr(),
        conv.getDilationsAttr(), conv.getGroupAttr(), conv.getKernelShapeAttr(),
        conv.getPadsAttr(), conv.getStridesAttr());
    replaceQuantize(rewriter, q, fused, relu);
    return success();
  }
};

/// Q(Gemm(DQ(a), DQ(b), DQ(c))) -> QGemm, when beta is 1 (or no C).
struct FuseGemm : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto [producer, relu] = getProducer(q.getX());
    auto gemm = dyn_cast_or_null<GemmOp>(producer);
    if (!gemm || !gemm->hasOneUse() || !isPerTensorQuantize(q) ||
        (gemm.getC() && gemm.getBeta().convertToDouble() != 1.0))
      return failure();
    DequantizeLinearOp a = getDequantize(gemm.getA());
    // Per-column weights: the N axis is 0 when B is stored transposed.
    DequantizeLinearOp b = getWeights(gemm.getB(), gemm.getTransB() ? 0 : 1);
    if (!a || !b)
      return failure();
    FailureOr<DequantizeLinearOp> c = getBias(gemm.getC(), a, b);
    if (failed(c))
      return failure();
    Location loc = gemm.getLoc();
    auto [bData, bZeroPoint] = getWeightOperands(rewriter, loc, b);
    auto fused = QGemmOp::create(
        rewriter, loc, q.getY().getType(), a.getX(), a.getXScale(),
        getZeroPoint(rewriter, loc, a),
        bData, b.getXScale(), bZeroPoint,
        *c ? c->getX() : Value(), q.getYScale(),
        getZeroPoint(rewriter, loc, q),
        gemm.getAlphaAttr(), gemm.getTransAAttr(), gemm.getTransBAttr());
    replaceQuantize(rewriter, q, fused, relu);
    return success();
  }
};

/// Q(MatMul(DQ(a), DQ(constant 2-D b))) -> QLinearMatMul.
struct FuseMatMul : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto [producer, relu] = getProducer(q.getX());
    auto matmul = dyn_cast_or_null<MatMulOp>(producer);
    if (!matmul || !matmul->hasOneUse() || !isPerTensorQuantize(q))
      return failure();
    DequantizeLinearOp a = getDequantize(matmul.getA());
    DequantizeLinearOp b = getWeights(matmul.getB(), 1);
    auto bType = dyn_cast<RankedTensorType>(matmul.getB().getType());
    if (!a || !b || !bType || bType.getRank() != 2)
      return failure();
    Location loc = matmul.getLoc();
    auto [bData, bZeroPoint] = getWeightOperands(rewriter, loc, b);
    auto fused = QLinearMatMulOp::create(
        rewriter, loc, q.getY().getType(), a.getX(), a.getXScale(),
        getZeroPoint(rewriter, loc, a),
        bData, b.getXScale(), bZeroPoint,
        q.getYScale(),
        getZeroPoint(rewriter, loc, q));
    replaceQuantize(rewriter, q, fused, relu);
    return success();
  }
};

/// Q(Add(DQ(a), DQ(b))) -> QLinearAdd.
struct FuseAdd : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto [producer, relu] = getProducer(q.getX());
    auto add = dyn_cast_or_null<AddOp>(producer);
    if (!add || !add->hasOneUse() || !isPerTensorQuantize(q))
      return failure();
    DequantizeLinearOp a = getDequantize(add.getA());
    DequantizeLinearOp b = getDequantize(add.getB());
    if (!a || !b || !getElementTypeOrSelf(a.getX().getType()).isInteger(8) ||
        !getElementTypeOrSelf(b.getX().getType()).isInteger(8))
      return failure();
    auto fused = QLinearAddOp::create(
        rewriter, add.getLoc(), q.getY().getType(), a.getX(), a.getXScale(),
        a.getXZeroPoint(), b.getX(), b.getXScale(), b.getXZeroPoint(),
        q.getYScale(), q.getYZeroPoint());
    replaceQuantize(rewriter, q, fused, relu);
    return success();
  }
};

/// Whether an AveragePool's window is the whole (static) spatial input with
/// no padding: then it is a GlobalAveragePool. ONNX Runtime makes the same
/// test and runs such a QLinearAveragePool as QLinearGlobalAveragePool, so
/// fusing it that way also gives its results exactly.
bool isGlobalWindow(AveragePoolOp pool) {
  auto type = dyn_cast<RankedTensorType>(pool.getX().getType());
  ArrayRef<Attribute> kernel = pool.getKernelShape().getValue();
  if (!type || !type.hasStaticShape() ||
      type.getRank() != int64_t(kernel.size()) + 2 ||
      (pool.getAutoPad() != "NOTSET" && pool.getAutoPad() != "VALID"))
    return false;
  if (std::optional<ArrayAttr> pads = pool.getPads())
    if (llvm::any_of(*pads, [](Attribute p) { return cast<IntegerAttr>(p).getInt(); }))
      return false;
  for (auto [size, k] : llvm::zip(type.getShape().drop_front(2), kernel))
    if (size != cast<IntegerAttr>(k).getInt())
      return false;
  return true;
}

/// Q(GlobalAveragePool(DQ(x))) -> QLinearGlobalAveragePool, and the same for
/// an AveragePool whose window is the whole input.
struct FuseGlobalAveragePool : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    Operation *pool = q.getX().getDefiningOp();
    auto average = dyn_cast_or_null<AveragePoolOp>(pool);
    if (!isa_and_nonnull<GlobalAveragePoolOp>(pool) &&
        !(average && isGlobalWindow(average)))
      return failure();
    if (!pool->hasOneUse() || !isPerTensorQuantize(q))
      return failure();
    DequantizeLinearOp x = getDequantize(pool->getOperand(0));
    if (!x || !getElementTypeOrSelf(x.getX().getType()).isInteger(8))
      return failure();
    Location loc = pool->getLoc();
    rewriter.replaceOpWithNewOp<QLinearGlobalAveragePoolOp>(
        q, q.getY().getType(), x.getX(), x.getXScale(),
        getZeroPoint(rewriter, loc, x),
        q.getYScale(),
        getZeroPoint(rewriter, loc, q),
        /*channels_last=*/0);
    return success();
  }
};

/// Q(Concat(DQ(a), DQ(b), ...)) -> Concat(Q(DQ(a)), Q(DQ(b)), ...): each
/// input is requantized to the output's parameters (a no-op where they are
/// the same), and the concatenation moves integers.
struct FuseConcat : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto concat = q.getX().getDefiningOp<ConcatOp>();
    if (!concat || !concat->hasOneUse() || !isPerTensorQuantize(q) ||
        !llvm::all_of(concat.getInputs(),
                      [](Value v) { return getDequantize(v) != nullptr; }))
      return failure();
    Type elementType = getElementTypeOrSelf(q.getY().getType());
    SmallVector<Value> inputs;
    for (Value input : concat.getInputs()) {
      auto type = cast<ShapedType>(input.getType()).clone(elementType);
      inputs.push_back(QuantizeLinearOp::create(rewriter, q.getLoc(), type, input,
                                                q.getYScale(), q.getYZeroPoint(),
                                                q.getAxisAttr()));
    }
    rewriter.replaceOpWithNewOp<ConcatOp>(q, q.getY().getType(), inputs,
                                          concat.getAxisAttr());
    return success();
  }
};

/// Q(DQ(x)) with the same type, scale and zero point is x.
struct FoldRoundTrip : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    DequantizeLinearOp dq = getDequantize(q.getX());
    if (!dq || !isPerTensorQuantize(q) ||
        dq.getX().getType() != q.getY().getType() ||
        !haveSameParams(dq.getX().getType(), dq.getXScale(), dq.getXZeroPoint(),
                        q.getY().getType(), q.getYScale(), q.getYZeroPoint()))
      return failure();
    rewriter.replaceOp(q, dq.getX());
    return success();
  }
};

/// op(DQ(x)) -> DQ(op(x)) for ops that only move, select or compare values:
/// dequantization is monotone and element-wise, so it commutes with them.
/// Relu becomes a Max with the zero point (the quantized 0).
struct SinkDequantize : RewritePattern {
  SinkDequantize(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<ReshapeOp, FlattenOp, TransposeOp, SqueezeOp, UnsqueezeOp,
             MaxPoolOp, ReluOp>(op) ||
        op->getNumOperands() == 0 ||
        llvm::any_of(op->getResults().drop_front(),
                     [](Value r) { return !r.use_empty(); }))
      return failure();
    DequantizeLinearOp dq = getDequantize(op->getOperand(0));
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!dq || !resultType)
      return failure();
    Type intType = getElementTypeOrSelf(dq.getX().getType());
    if (!intType.isInteger(8))
      return failure();
    auto intResultType = resultType.clone(intType);
    Location loc = op->getLoc();
    SmallVector<Value> results;
    Value moved;
    if (isa<ReluOp>(op)) {
      Value zp = getZeroPoint(rewriter, loc, dq);
      moved = MaxOp::create(rewriter, loc, intResultType, ValueRange{dq.getX(), zp});
    } else {
      Operation *clone = rewriter.clone(*op);
      clone->setOperand(0, dq.getX());
      clone->getResult(0).setType(intResultType);
      moved = clone->getResult(0);
      // Unused extra results (MaxPool's Indices) keep their clone.
      llvm::append_range(results, clone->getResults().drop_front());
    }
    results.insert(results.begin(),
                   DequantizeLinearOp::create(rewriter, loc, resultType, moved,
                                              dq.getXScale(), dq.getXZeroPoint(),
                                              dq.getAxisAttr()));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FuseQDQPass : onnxq::impl::FuseQDQPassBase<FuseQDQPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<FuseConv, FuseGemm, FuseMatMul, FuseAdd, FuseGlobalAveragePool,
                 FuseConcat, FoldRoundTrip, SinkDequantize>(ctx);
    // Inference Dropout is the identity: without it, a DQ -> Dropout -> Q
    // round trip folds instead of staying in float (and being fused into
    // the next convolution's inner loop).
    DropoutOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
