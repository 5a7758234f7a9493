//===- Canonicalize.cpp - canonicalization patterns of onnx ops -----------===//
//
// The rewrites that need more than one op (folders handle the rest): they
// remove what exported models carry for training or for the exporter's
// convenience, so quantization sees the plain inference graph.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

namespace {

/// Dropout in inference (no training_mode, or a constant false) whose mask
/// is unused is the identity.
struct RemoveInferenceDropout : OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DropoutOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getMask() && !op.getMask().use_empty())
      return rewriter.notifyMatchFailure(op, "the mask is used");
    if (Value training = op.getTrainingMode()) {
      std::optional<SmallVector<int64_t>> mode =
          getConstantIntegers(training);
      if (!mode || mode->size() != 1 || (*mode)[0] != 0)
        return rewriter.notifyMatchFailure(op, "training mode may be on");
    }
    if (op.getData().getType() != op.getOutput().getType())
      return rewriter.notifyMatchFailure(op, "the result type differs");
    rewriter.replaceAllUsesWith(op.getOutput(), op.getData());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The permutation of `op` (the reversal when `perm` is absent).
std::optional<SmallVector<int64_t>> getPermutation(TransposeOp op) {
  if (op.getPerm())
    return getI64Values(*op.getPerm());
  std::optional<int64_t> rank = getRank(op.getData());
  if (!rank)
    return std::nullopt;
  return llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(*rank)));
}

/// transpose(transpose(x, p1), p2) = transpose(x, p1 o p2): result dimension
/// i is dimension p1[p2[i]] of x.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getData().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    std::optional<SmallVector<int64_t>> p1 = getPermutation(inner);
    std::optional<SmallVector<int64_t>> p2 = getPermutation(op);
    if (!p1 || !p2 || p1->size() != p2->size())
      return failure();
    SmallVector<int64_t> composed;
    for (int64_t p : *p2)
      composed.push_back((*p1)[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, op.getType(), inner.getData(), rewriter.getI64ArrayAttr(composed));
    return success();
  }
};

/// reshape(reshape-like(x)) = reshape(x) when the outer result has a static
/// shape (the outer shape operand may refer to the inner shape through 0
/// entries, so the new shape comes from the result type).
struct ComposeReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Operation *inner = op.getData().getDefiningOp();
    if (!isa_and_nonnull<ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp>(inner))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape())
      return failure();
    auto shapeType =
        RankedTensorType::get({type.getRank()}, rewriter.getI64Type());
    Value shape = ConstantOp::create(
        rewriter, op.getLoc(),
        createIntegerElements(shapeType, type.getShape()));
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, inner->getOperand(0),
                                           shape);
    return success();
  }
};

/// conv(x, w, b) + c with c one value per output channel (shaped (M, 1, ..),
/// (1, M, 1, ..) or a scalar) is conv(x, w, b + c).
struct AddIntoConvBias : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [convValue, constValue] :
         {std::pair(op.getA(), op.getB()), std::pair(op.getB(), op.getA())}) {
      auto conv = convValue.getDefiningOp<ConvOp>();
      if (!conv || !conv->hasOneUse() || convValue.getType() != op.getType())
        continue;
      auto convType = dyn_cast<RankedTensorType>(conv.getType());
      ElementsAttr addend = getConstantValue(constValue);
      if (!convType || !convType.hasStaticShape() || !addend)
        continue;
      std::optional<SmallVector<float>> perChannel =
          getPerChannelValues(addend, convType);
      if (!perChannel)
        continue;
      std::optional<SmallVector<float>> bias(SmallVector<float>(
          perChannel->size(), 0.0f));
      if (conv.getB()) {
        bias = getConstantFloats(conv.getB());
        if (!bias || bias->size() != perChannel->size())
          continue;
      }
      for (auto [b, c] : llvm::zip(*bias, *perChannel))
        b += c;
      auto biasType = RankedTensorType::get({int64_t(bias->size())},
                                            convType.getElementType());
      Value newBias = ConstantOp::create(rewriter, op.getLoc(),
                                         createFloatElements(biasType, *bias));
      rewriter.modifyOpInPlace(conv, [&] {
        if (conv.getB())
          conv.getBMutable().assign(newBias);
        else
          conv.getBMutable().append(newBias);
      });
      rewriter.replaceOp(op, conv.getY());
      return success();
    }
    return failure();
  }

  /// The addend as one value per channel of the (N, M, spatial...) result, or
  /// nullopt when it varies along another dimension or broadcasts the result
  /// to a larger shape.
  static std::optional<SmallVector<float>>
  getPerChannelValues(ElementsAttr addend, RankedTensorType convType) {
    std::optional<SmallVector<float>> values = getFloatValues(addend);
    if (!values || addend.getElementType() != convType.getElementType())
      return std::nullopt;
    int64_t channels = convType.getDimSize(1);
    if (values->size() == 1)
      return SmallVector<float>(channels, (*values)[0]);
    ArrayRef<int64_t> shape = addend.getShapedType().getShape();
    int64_t rank = convType.getRank();
    if (int64_t(shape.size()) > rank || int64_t(shape.size()) < rank - 1)
      return std::nullopt;
    // Aligned right, the channel dimension is at index 1 of the result.
    int64_t offset = rank - shape.size();
    for (auto [i, d] : llvm::enumerate(shape)) {
      int64_t resultDim = i + offset;
      if (d != (resultDim == 1 ? channels : 1))
        return std::nullopt;
    }
    return values;
  }
};

} // namespace

void DropoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<RemoveInferenceDropout>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ComposeReshapes>(context);
}

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AddIntoConvBias>(context);
}
