//===- FoldBatchNorm.cpp - fold BatchNormalization into its producer ------===//
//
// y = (x - mean) * s + beta with s = scale / sqrt(var + epsilon), per channel
// (dimension 1). When x is produced by a linear op whose output channel c is
// a weight slice plus a bias, scaling that slice and rewriting the bias gives
// the same y without the BatchNormalization.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Transforms/Passes.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::onnxq {
#define GEN_PASS_DEF_FOLDBATCHNORMPASS
#include "onnx-quant/Transforms/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The per-channel affine form of an inference BatchNormalization:
/// y = x * scale[c] + shift[c].
struct ChannelAffine {
  SmallVector<double> scale, shift;
};

/// Reads the four parameter tensors; fails with a remark when they are not
/// constants of one length.
FailureOr<ChannelAffine> getChannelAffine(BatchNormalizationOp bn) {
  SmallVector<SmallVector<float>, 4> params;
  for (Value operand : {bn.getScale(), bn.getB(), bn.getInputMean(),
                        bn.getInputVar()}) {
    std::optional<SmallVector<float>> values =
        getConstantFloats(operand);
    if (!values) {
      bn.emitRemark("not folded: its scale, bias, mean and variance must be "
                    "float constants");
      return failure();
    }
    params.push_back(std::move(*values));
  }
  size_t channels = params[0].size();
  if (llvm::any_of(params, [&](auto &p) { return p.size() != channels; })) {
    bn.emitRemark("not folded: parameters of different lengths");
    return failure();
  }
  ChannelAffine affine;
  double epsilon = bn.getEpsilon().convertToDouble();
  for (size_t c = 0; c < channels; ++c) {
    double s = double(params[0][c]) / std::sqrt(double(params[3][c]) + epsilon);
    affine.scale.push_back(s);
    affine.shift.push_back(double(params[1][c]) - double(params[2][c]) * s);
  }
  return affine;
}

/// A constant holding `data` in the shape and element type of `like`.
Value createFloatConstant(RewriterBase &rewriter, Location loc, ShapedType like,
                          ArrayRef<float> data) {
  return ConstantOp::create(rewriter, loc, createFloatElements(like, data));
}

/// The folded bias: bias * s + shift (bias absent: zero).
SmallVector<float> foldBias(const ChannelAffine &affine,
                            std::optional<SmallVector<float>> bias) {
  SmallVector<float> folded;
  for (size_t c = 0; c < affine.scale.size(); ++c) {
    double b = bias ? double((*bias)[c]) : 0.0;
    folded.push_back(float(b * affine.scale[c] + affine.shift[c]));
  }
  return folded;
}

/// Weights and bias of a convolution-like producer after scaling output
/// channel `channelOf(i)` of weight element i.
struct FoldedLinear {
  Value weights, bias;
};

/// Scales the constant `weights` element-wise by s[channelOf(i)] and folds the
/// optional constant `bias` (1-D, one entry per channel). Fails with a remark
/// on `op` when they are not float constants of the expected sizes.
FailureOr<FoldedLinear>
foldIntoWeights(RewriterBase &rewriter, Operation *op, Value weights,
                Value bias, const ChannelAffine &affine,
                function_ref<int64_t(int64_t)> channelOf) {
  ElementsAttr weightAttr = getConstantValue(weights);
  std::optional<SmallVector<float>> w = getFloatValues(weightAttr);
  if (!w) {
    op->emitRemark("BatchNormalization not folded into this node: its "
                   "weights are not a float constant");
    return failure();
  }
  std::optional<SmallVector<float>> b;
  if (bias) {
    b = getConstantFloats(bias);
    if (!b || b->size() != affine.scale.size()) {
      op->emitRemark("BatchNormalization not folded into this node: its bias "
                     "is not a float constant with one value per channel");
      return failure();
    }
  }
  for (auto [i, v] : llvm::enumerate(*w))
    v = float(double(v) * affine.scale[channelOf(i)]);
  auto weightType = cast<ShapedType>(weightAttr.getType());
  Type biasElement = bias ? getElementTypeOrSelf(bias.getType())
                          : weightType.getElementType();
  auto biasType = RankedTensorType::get(
      {int64_t(affine.scale.size())}, biasElement);
  return FoldedLinear{
      createFloatConstant(rewriter, weights.getLoc(), weightType, *w),
      createFloatConstant(rewriter, op->getLoc(), biasType,
                          foldBias(affine, std::move(b)))};
}

/// Replaces the weights and sets (or adds) the bias of a convolution.
template <typename ConvOpTy>
void setWeightsAndBias(RewriterBase &rewriter, ConvOpTy conv,
                       const FoldedLinear &folded) {
  rewriter.modifyOpInPlace(conv, [&] {
    conv.getWMutable().assign(folded.weights);
    if (conv.getB())
      conv.getBMutable().assign(folded.bias);
    else
      conv.getBMutable().append(folded.bias);
  });
}

/// Conv: weights (M, C/group, k...), output channel = first index.
LogicalResult foldIntoConv(RewriterBase &rewriter, ConvOp conv,
                           const ChannelAffine &affine) {
  auto type = cast<ShapedType>(conv.getW().getType());
  if (!type.hasStaticShape() || type.getDimSize(0) != int64_t(affine.scale.size()))
    return failure();
  int64_t perChannel = type.getNumElements() / type.getDimSize(0);
  FailureOr<FoldedLinear> folded = foldIntoWeights(
      rewriter, conv, conv.getW(), conv.getB(), affine,
      [&](int64_t i) { return i / perChannel; });
  if (failed(folded))
    return failure();
  setWeightsAndBias(rewriter, conv, *folded);
  return success();
}

/// ConvTranspose: weights (C, M/group, k...); output channel of element
/// (ci, j, ...) is group(ci) * M/group + j.
LogicalResult foldIntoConvTranspose(RewriterBase &rewriter,
                                    ConvTransposeOp convT,
                                    const ChannelAffine &affine) {
  auto type = cast<ShapedType>(convT.getW().getType());
  int64_t group = convT.getGroup();
  if (!type.hasStaticShape() || type.getRank() < 2 ||
      type.getDimSize(1) * group != int64_t(affine.scale.size()))
    return failure();
  int64_t inPerGroup = type.getDimSize(0) / group;
  int64_t outPerGroup = type.getDimSize(1);
  int64_t kernel = type.getNumElements() / (type.getDimSize(0) * outPerGroup);
  FailureOr<FoldedLinear> folded = foldIntoWeights(
      rewriter, convT, convT.getW(), convT.getB(), affine, [&](int64_t i) {
        int64_t ci = i / (outPerGroup * kernel);
        int64_t j = (i / kernel) % outPerGroup;
        return (ci / inPerGroup) * outPerGroup + j;
      });
  if (failed(folded))
    return failure();
  setWeightsAndBias(rewriter, convT, *folded);
  return success();
}

/// The output channel n of op(B) for element i of B, (K, N) or (N, K).
std::function<int64_t(int64_t)> gemmChannelOf(ShapedType bType, bool transB) {
  int64_t cols = bType.getDimSize(1);
  if (transB)
    return [cols](int64_t i) { return i / cols; };
  return [cols](int64_t i) { return i % cols; };
}

/// Gemm: scales the columns of op(B); the bias must broadcast along rows
/// (absent, a scalar, (N) or (1, N)) so it stays one value per channel.
LogicalResult foldIntoGemm(RewriterBase &rewriter, GemmOp gemm,
                           const ChannelAffine &affine) {
  auto bType = cast<ShapedType>(gemm.getB().getType());
  int64_t channels = affine.scale.size();
  if (!bType.hasStaticShape() || bType.getRank() != 2 ||
      bType.getDimSize(gemm.getTransB() ? 0 : 1) != channels)
    return failure();
  std::optional<SmallVector<float>> c;
  if (Value bias = gemm.getC()) {
    c = getConstantFloats(bias);
    auto cType = dyn_cast<ShapedType>(bias.getType());
    bool perColumn = cType && cType.hasStaticShape() &&
                     (cType.getRank() == 1 ||
                      (cType.getRank() == 2 && cType.getDimSize(0) == 1));
    if (!c || !perColumn || (c->size() != 1 && int64_t(c->size()) != channels)) {
      gemm.emitRemark("BatchNormalization not folded into this node: C must "
                      "be a float constant broadcast along rows");
      return failure();
    }
    double beta = gemm.getBeta().convertToDouble();
    SmallVector<float> scaled;
    for (int64_t n = 0; n < channels; ++n)
      scaled.push_back(float(beta * (*c)[c->size() == 1 ? 0 : n]));
    c = std::move(scaled);
  }
  ElementsAttr bAttr = getConstantValue(gemm.getB());
  std::optional<SmallVector<float>> w = getFloatValues(bAttr);
  if (!w) {
    gemm.emitRemark("BatchNormalization not folded into this node: its "
                    "weights are not a float constant");
    return failure();
  }
  auto channelOf = gemmChannelOf(bType, gemm.getTransB());
  for (auto [i, v] : llvm::enumerate(*w))
    v = float(double(v) * affine.scale[channelOf(i)]);
  Value weights = createFloatConstant(rewriter, gemm.getB().getLoc(),
                                      bType, *w);
  auto biasType = RankedTensorType::get({channels}, bType.getElementType());
  Value bias = createFloatConstant(rewriter, gemm.getLoc(), biasType,
                                   foldBias(affine, std::move(c)));
  rewriter.modifyOpInPlace(gemm, [&] {
    gemm.getBMutable().assign(weights);
    if (gemm.getC())
      gemm.getCMutable().assign(bias);
    else
      gemm.getCMutable().append(bias);
    gemm.setBeta(APFloat(1.0f));
  });
  return success();
}

/// A 2-D MatMul with a constant (K, N) right operand becomes a Gemm with the
/// scaled weights and the folded bias.
LogicalResult foldIntoMatMul(RewriterBase &rewriter, MatMulOp matmul,
                             const ChannelAffine &affine) {
  auto aType = dyn_cast<RankedTensorType>(matmul.getA().getType());
  auto bType = dyn_cast<ShapedType>(matmul.getB().getType());
  if (!aType || aType.getRank() != 2 || !bType || !bType.hasStaticShape() ||
      bType.getRank() != 2 ||
      bType.getDimSize(1) != int64_t(affine.scale.size())) {
    matmul.emitRemark("BatchNormalization not folded into this node: only a "
                      "2-D MatMul with (K, N) weights folds");
    return failure();
  }
  FailureOr<FoldedLinear> folded = foldIntoWeights(
      rewriter, matmul, matmul.getB(), Value(), affine,
      gemmChannelOf(bType, /*transB=*/false));
  if (failed(folded))
    return failure();
  rewriter.replaceOpWithNewOp<GemmOp>(
      matmul, TypeRange{matmul.getType()},
      ValueRange{matmul.getA(), folded->weights, folded->bias});
  return success();
}

/// x * scale + shift with constants shaped (C, 1, ..., 1) to broadcast over
/// dimension 1 of the rank-`rank` input.
LogicalResult rewriteAsScaleShift(RewriterBase &rewriter,
                                  BatchNormalizationOp bn,
                                  const ChannelAffine &affine) {
  auto type = dyn_cast<RankedTensorType>(bn.getX().getType());
  if (!type || type.getRank() < 2) {
    bn.emitRemark("not rewritten: the input must be ranked, of rank >= 2");
    return failure();
  }
  SmallVector<int64_t> shape(type.getRank() - 1, 1);
  shape[0] = affine.scale.size();
  auto paramType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<float> scale(affine.scale.begin(), affine.scale.end());
  SmallVector<float> shift(affine.shift.begin(), affine.shift.end());
  rewriter.setInsertionPoint(bn);
  Location loc = bn.getLoc();
  Value scaleConst = createFloatConstant(rewriter, loc, paramType, scale);
  Value shiftConst = createFloatConstant(rewriter, loc, paramType, shift);
  Value scaled = MulOp::create(rewriter, loc, bn.getY().getType(), bn.getX(),
                               scaleConst);
  rewriter.replaceOpWithNewOp<AddOp>(bn, bn.getY().getType(), scaled,
                                     shiftConst);
  return success();
}

/// Folds `bn` into its producer when it can, else rewrites it as a scale and
/// shift; leaves it (with a remark) when that would change other users or
/// the semantics.
void foldBatchNorm(RewriterBase &rewriter, BatchNormalizationOp bn) {
  if (bn.getTrainingMode() != 0 || !bn.getRunningStats().empty()) {
    bn.emitRemark("not folded: training mode");
    return;
  }
  FailureOr<ChannelAffine> affine = getChannelAffine(bn);
  if (failed(affine))
    return;
  Operation *producer = bn.getX().getDefiningOp();
  bool foldable = isa_and_nonnull<ConvOp, ConvTransposeOp, GemmOp, MatMulOp>(
      producer);
  if (foldable && !producer->hasOneUse()) {
    bn.emitRemark("not folded: its producer has other users");
    return;
  }
  // The constants this may replace, erased below once nothing uses them.
  llvm::SetVector<Operation *> replaced;
  for (Operation *op : {bn.getOperation(), foldable ? producer : nullptr})
    for (Value operand : op ? op->getOperands() : ValueRange{})
      if (auto constant = operand.getDefiningOp<ConstantOp>())
        replaced.insert(constant);
  rewriter.setInsertionPoint(producer ? producer : bn.getOperation());
  LogicalResult folded = failure();
  if (auto conv = dyn_cast_or_null<ConvOp>(producer))
    folded = foldIntoConv(rewriter, conv, *affine);
  else if (auto convT = dyn_cast_or_null<ConvTransposeOp>(producer))
    folded = foldIntoConvTranspose(rewriter, convT, *affine);
  else if (auto gemm = dyn_cast_or_null<GemmOp>(producer))
    folded = foldIntoGemm(rewriter, gemm, *affine);
  else if (auto matmul = dyn_cast_or_null<MatMulOp>(producer))
    folded = foldIntoMatMul(rewriter, matmul, *affine);
  if (succeeded(folded))
    rewriter.replaceOp(bn, bn.getX());
  else if (failed(rewriteAsScaleShift(rewriter, bn, *affine)))
    return;
  for (Operation *constant : replaced)
    if (constant->use_empty())
      rewriter.eraseOp(constant);
}

struct FoldBatchNormPass
    : public onnxq::impl::FoldBatchNormPassBase<FoldBatchNormPass> {
  void runOnOperation() override {
    // A walk rather than a pattern set: each BatchNormalization is decided
    // once (with at most one remark), and no rewrite enables another.
    SmallVector<BatchNormalizationOp> bns;
    getOperation().walk([&](BatchNormalizationOp bn) { bns.push_back(bn); });
    IRRewriter rewriter(&getContext());
    for (BatchNormalizationOp bn : bns)
      foldBatchNorm(rewriter, bn);
  }
};

} // namespace
