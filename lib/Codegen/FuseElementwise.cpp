//===- FuseElementwise.cpp - element-wise fusion without recomputation ----===//

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
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
