//===- QOperatorToQDQ.cpp - QLinear* ops to DequantizeLinear/op/Quantize --===//
//
// QLinearConv(x, sx, zx, w, sw, zw, sy, zy, B) computes
//   y = saturate(round(sx*sw/sy * sum((x - zx)(w - zw)) + B*sx*sw/sy) + zy),
// which is Q(Conv(DQ(x), DQ(w), DQ(B, sx*sw)), sy, zy) up to the rounding of
// the float accumulation. The other QLinear ops are alike.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Quantization/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_QOPERATORTOQDQPASS
#include "onnx-quant/Quantization/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// DequantizeLinear of `x` to f32; a 1-D scale applies along `axis`.
Value dequantize(PatternRewriter &rewriter, Location loc, Value x, Value scale,
                 Value zeroPoint, int64_t axis) {
  auto type = cast<ShapedType>(x.getType());
  Type f32 = rewriter.getF32Type();
  return DequantizeLinearOp::create(rewriter, loc, type.clone(f32), x, scale,
                                    zeroPoint, rewriter.getI64IntegerAttr(axis));
}

/// QuantizeLinear of the float `y` to the type of `result`.
Value quantize(PatternRewriter &rewriter, Location loc, Value y, Value scale,
               Value zeroPoint, Type resultType) {
  return QuantizeLinearOp::create(rewriter, loc, resultType, y, scale, zeroPoint,
                                  rewriter.getI64IntegerAttr(1));
}

RankedTensorType toF32(Type type) {
  auto ranked = cast<RankedTensorType>(type);
  return ranked.clone(Float32Type::get(type.getContext()));
}

struct QLinearConvToQDQ : OpRewritePattern<QLinearConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QLinearConvOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getY().getType()))
      return failure();
    Location loc = op.getLoc();
    Value x = dequantize(rewriter, loc, op.getX(), op.getXScale(),
                         op.getXZeroPoint(), 1);
    Value w = dequantize(rewriter, loc, op.getW(), op.getWScale(),
                         op.getWZeroPoint(), 0);
    Value bias;
    if (Value b = op.getB()) {
      // The bias scale is x_scale * w_scale (per channel when w_scale is).
      Value scale = MulOp::create(rewriter, loc, op.getWScale().getType(),
                                  op.getXScale(), op.getWScale());
      bias = dequantize(rewriter, loc, b, scale, Value(), 0);
    }
    auto conv = ConvOp::create(rewriter, loc, toF32(op.getY().getType()), x, w,
                               bias, op.getAutoPadAttr(), op.getDilationsAttr(),
                               op.getGroupAttr(), op.getKernelShapeAttr(),
                               op.getPadsAttr(), op.getStridesAttr());
    rewriter.replaceOp(op, quantize(rewriter, loc, conv, op.getYScale(),
                                    op.getYZeroPoint(), op.getY().getType()));
    return success();
  }
};

struct QLinearMatMulToQDQ : OpRewritePattern<QLinearMatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QLinearMatMulOp op,
                                PatternRewriter &rewriter) const override {
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    if (!b || !isa<RankedTensorType>(op.getY().getType()))
      return failure();
    Location loc = op.getLoc();
    Value a = dequantize(rewriter, loc, op.getA(), op.getAScale(),
                         op.getAZeroPoint(), 1);
    // A 1-D b_scale is per column (the last dimension of b).
    Value bf = dequantize(rewriter, loc, op.getB(), op.getBScale(),
                          op.getBZeroPoint(), b.getRank() - 1);
    auto matmul = MatMulOp::create(rewriter, loc, toF32(op.getY().getType()), a, bf);
    rewriter.replaceOp(op, quantize(rewriter, loc, matmul, op.getYScale(),
                                    op.getYZeroPoint(), op.getY().getType()));
    return success();
  }
};

struct QLinearAddToQDQ : OpRewritePattern<QLinearAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QLinearAddOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getC().getType()) ||
        !isa<RankedTensorType>(op.getA().getType()) ||
        !isa<RankedTensorType>(op.getB().getType()))
      return failure();
    Location loc = op.getLoc();
    Value a = dequantize(rewriter, loc, op.getA(), op.getAScale(),
                         op.getAZeroPoint(), 1);
    Value b = dequantize(rewriter, loc, op.getB(), op.getBScale(),
                         op.getBZeroPoint(), 1);
    auto add = AddOp::create(rewriter, loc, toF32(op.getC().getType()), a, b);
    rewriter.replaceOp(op, quantize(rewriter, loc, add, op.getCScale(),
                                    op.getCZeroPoint(), op.getC().getType()));
    return success();
  }
};

struct QLinearGlobalAveragePoolToQDQ
    : OpRewritePattern<QLinearGlobalAveragePoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QLinearGlobalAveragePoolOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getChannelsLast() != 0 ||
        !isa<RankedTensorType>(op.getY().getType()))
      return rewriter.notifyMatchFailure(op, "NCHW only");
    Location loc = op.getLoc();
    Value x = dequantize(rewriter, loc, op.getX(), op.getXScale(),
                         op.getXZeroPoint(), 1);
    auto pool = GlobalAveragePoolOp::create(rewriter, loc,
                                            toF32(op.getY().getType()), x);
    rewriter.replaceOp(op, quantize(rewriter, loc, pool, op.getYScale(),
                                    op.getYZeroPoint(), op.getY().getType()));
    return success();
  }
};

/// No integer kernel: always DequantizeLinear of each input, Concat,
/// QuantizeLinear (the same integers as ONNX Runtime's requantization, which
/// dequantizes and quantizes in float).
struct QLinearConcatToQDQ : OpRewritePattern<QLinearConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QLinearConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getY().getType()))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> parts;
    OperandRange inputs = op.getInputs();
    for (size_t i = 0; i + 2 < inputs.size(); i += 3) {
      if (!isa<RankedTensorType>(inputs[i].getType()))
        return failure();
      parts.push_back(
          dequantize(rewriter, loc, inputs[i], inputs[i + 1], inputs[i + 2], 1));
    }
    auto concat = ConcatOp::create(rewriter, loc, toF32(op.getY().getType()),
                                   parts, op.getAxisAttr());
    rewriter.replaceOp(op, quantize(rewriter, loc, concat, op.getYScale(),
                                    op.getYZeroPoint(), op.getY().getType()));
    return success();
  }
};

/// Whether every operand of `op` but its activations (the first `data`
/// operands in `dataOperands`) is an onnx.Constant: what the integer
/// lowering needs to fold zero points and multipliers at compile time.
bool hasConstantParameters(Operation *op, ArrayRef<unsigned> dataOperands) {
  for (OpOperand &operand : op->getOpOperands())
    if (!llvm::is_contained(dataOperands, operand.getOperandNumber()) &&
        !operand.get().getDefiningOp<ConstantOp>())
      return false;
  return true;
}

bool hasIntegerLowering(Operation *op) {
  if (isa<QLinearConcatOp>(op))
    return false;
  if (auto matmul = dyn_cast<QLinearMatMulOp>(op)) {
    auto b = dyn_cast<RankedTensorType>(matmul.getB().getType());
    return b && b.getRank() == 2 && hasConstantParameters(op, {0});
  }
  if (isa<QLinearAddOp>(op))
    return hasConstantParameters(op, {0, 3});
  return hasConstantParameters(op, {0});
}

struct QOperatorToQDQPass
    : public onnxq::impl::QOperatorToQDQPassBase<QOperatorToQDQPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<QLinearConvToQDQ, QLinearMatMulToQDQ, QLinearAddToQDQ,
                 QLinearGlobalAveragePoolToQDQ, QLinearConcatToQDQ>(
        &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<QLinearConvOp, QLinearMatMulOp, QLinearAddOp,
              QLinearGlobalAveragePoolOp, QLinearConcatOp>(op) &&
          !(runtimeParametersOnly && hasIntegerLowering(op)))
        ops.push_back(op);
    });
    // New ops (the bias scale's Mul) fold as they would in a full rewrite.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::AnyOp);
    if (failed(applyOpPatternsGreedily(ops, frozen, config)))
      return signalPassFailure();
  }
};

} // namespace
