//===- FuseElementwise.cpp - element-wise fusion without recomputation ----===//

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {

/// Whether the consumer of `operand` reads each element of it once: its
/// indexing map for the operand uses every loop exactly once.
bool readsEachElementOnce(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return consumer && consumer.getMatchingIndexingMap(operand).isPermutation();
}

/// linalg-fuse-elementwise-ops' control: a producer with one use.
bool hasSingleUseProducer(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

/// Whether `op` is an element-wise op that reads the result of a reduction
/// (a contraction's requantization or activation): the kernel stage takes it
/// into the contraction's kernel only over the contraction's own loops, so
/// reshapes are not folded into it.
bool finishesReduction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() == 0 &&
         llvm::any_of(linalgOp.getDpsInputs(), [](Value input) {
           auto producer = input.getDefiningOp<linalg::LinalgOp>();
           return producer && producer.getNumReductionLoops() > 0;
         });
}

/// Whether recomputing `op`'s body for every element a broadcasting
/// consumer reads costs nothing worth keeping: it only converts or moves
/// its inputs (a BatchNorm's scale / sqrt(var + eps), computed per channel,
/// would run once per pixel).
bool isCheapToRecompute(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && llvm::all_of(generic.getBody()->without_terminator(), [](Operation &inner) {
           return isa<CastOpInterface>(inner) || inner.hasTrait<OpTrait::ConstantLike>();
         });
}

int64_t getBodySize(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic ? static_cast<int64_t>(generic.getBody()->getOperations().size())
                 : 0;
}

/// The value a contraction's result becomes through layout-only ops that
/// drop some of its elements: an insert into a wider empty tensor, reshapes
/// and an extract of a leading part (a convolution computed over flattened
/// padded rows, whose pitch columns are dropped: Conv.cpp's chooseFlatRows).
/// Returns the contraction's result and fills `chain` from `value` back to
/// it, or null.
Value getContractionBehindLayout(Value value, SmallVectorImpl<Operation *> &chain) {
  auto isLeading = [](OffsetSizeAndStrideOpInterface op) {
    return op.hasUnitStride() && op.hasZeroOffset() &&
           llvm::all_of(op.getMixedSizes(),
                        [](OpFoldResult size) { return isa<Attribute>(size); });
  };
  while (Operation *def = value.getDefiningOp()) {
    if (auto contraction = dyn_cast<linalg::LinalgOp>(def))
      return llvm::any_of(chain, llvm::IsaPred<tensor::ExtractSliceOp>) &&
                     contraction.getNumReductionLoops() > 0 && value.hasOneUse()
                 ? value
                 : Value();
    Value source;
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      source = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
      source = collapse.getSrc();
    else if (auto extract = dyn_cast<tensor::ExtractSliceOp>(def))
      source = isLeading(extract) ? extract.getSource() : Value();
    else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def))
      source = isLeading(insert) && insert.getDest().getDefiningOp<tensor::EmptyOp>()
                   ? insert.getSource()
                   : Value();
    if (!source || !cast<ShapedType>(def->getResult(0).getType()).hasStaticShape() ||
        (!chain.empty() && !value.hasOneUse()))
      return {};
    chain.push_back(def);
    value = source;
  }
  return {};
}

/// `op`, a layout-only op, redone on `source` with `elementType`.
Value relayout(PatternRewriter &rewriter, Operation *op, Value source, Type elementType) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType()).clone(elementType);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return tensor::ExpandShapeOp::create(rewriter, loc, type, source,
                                         expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return tensor::CollapseShapeOp::create(rewriter, loc, type, source,
                                           collapse.getReassociationIndices());
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
    return tensor::ExtractSliceOp::create(rewriter, loc, type, source,
                                          extract.getMixedOffsets(),
                                          extract.getMixedSizes(),
                                          extract.getMixedStrides());
  auto insert = cast<tensor::InsertSliceOp>(op);
  Value dest = tensor::EmptyOp::create(rewriter, loc, type.getShape(), elementType);
  return tensor::InsertSliceOp::create(rewriter, loc, source, dest,
                                       insert.getMixedOffsets(),
                                       insert.getMixedSizes(),
                                       insert.getMixedStrides());
}

/// An element-wise op reading a contraction's result through layout-only
/// ops (getContractionBehindLayout) runs on the result itself, before them,
/// and a copy takes its place: the kernel stage fuses the op into the
/// contraction, as it does a requantization, and stores the result as the
/// copy did where its destination is contiguous (findCompactingCopy); the op
/// was a pass of its own over the result (a float depthwise convolution's
/// ReLU6 over flattened rows). Element-wise ops commute with moving
/// elements; the pitch columns are computed too, then dropped, so its body
/// must be pure (speculatable). Its other inputs must be scalars.
struct HoistElementwiseOntoContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumLoops() != op.getNumParallelLoops() || op.getNumDpsInits() != 1 ||
        !op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return failure();
    // It runs on the pitch columns too: nothing that may trap there (an
    // integer division by what the padding gave).
    if (!llvm::all_of(op.getBody()->without_terminator(),
                      [](Operation &inner) { return isPure(&inner); }))
      return rewriter.notifyMatchFailure(op, "a body op that may trap");
    Value read;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.getNumResults() == 0)
        continue;
      if (!map.isIdentity() || (read && read != input->get()))
        return failure();
      read = input->get();
    }
    if (!read || llvm::any_of(read.getUsers(), [&](Operation *user) { return user != op; }))
      return failure();
    SmallVector<Operation *> chain;
    Value result = getContractionBehindLayout(read, chain);
    if (!result)
      return rewriter.notifyMatchFailure(op, "not a contraction's result behind layout ops");

    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(result.getType());
    Type elementType = getElementTypeOrSelf(op.getResult(0).getType());
    int64_t rank = resultType.getRank();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      bool scalar = op.getMatchingIndexingMap(input).getNumResults() == 0;
      inputs.push_back(scalar ? input->get() : result);
      maps.push_back(scalar ? AffineMap::get(rank, 0, {}, getContext())
                            : rewriter.getMultiDimIdentityMap(rank));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), elementType);
    auto hoisted = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType.clone(elementType)}, inputs, ValueRange{init},
        maps, SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
    rewriter.cloneRegionBefore(op.getRegion(), hoisted.getRegion(),
                               hoisted.getRegion().end());
    Value moved = hoisted.getResult(0);
    for (Operation *layout : llvm::reverse(chain))
      moved = relayout(rewriter, layout, moved, elementType);
    // The copy that drops the pitch columns, as the element-wise op did.
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, moved, op.getDpsInits()[0]);
    return success();
  }
};

struct FuseElementwisePass
    : onnxq::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // linalg's control less the fusions that would recompute the producer or
    // create a body past the cap (fusion clones both bodies: quadratic in a
    // chain's length without it).
    int64_t maxBody = maxBodyOps;
    linalg::ControlFusionFn control = [maxBody](OpOperand *fused) {
      if (!hasSingleUseProducer(fused) ||
          getBodySize(fused->get().getDefiningOp()) +
                  getBodySize(fused->getOwner()) >
              maxBody)
        return false;
      if (readsEachElementOnce(fused))
        return true;
      // A broadcast read recomputes the producer per element it is read.
      auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
      bool elementwise = consumer && consumer.getNumLoops() ==
                                         consumer.getNumParallelLoops();
      return elementwise && isCheapToRecompute(fused->get().getDefiningOp());
    };
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    patterns.add<HoistElementwiseOntoContraction>(context);
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *fused) {
          return hasSingleUseProducer(fused) &&
                 !finishesReduction(fused->getOwner()) &&
                 !finishesReduction(fused->get().getDefiningOp());
        });
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns,
                                                 hasSingleUseProducer);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
