//===- VectorizableLoopOrder.cpp - innermost loop parallel ----------------===//

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_VECTORIZABLELOOPORDERPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {

/// The loop order `[parallel..., reductions..., last parallel]`, or an empty
/// vector when the op already has it (or has nothing to gain).
SmallVector<unsigned> getVectorizableOrder(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, type] : llvm::enumerate(iterators))
    (type == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
  if (parallel.empty() || reduction.empty() ||
      parallel.back() == iterators.size() - 1)
    return {};
  SmallVector<unsigned> order(parallel.begin(), parallel.end() - 1);
  order.append(reduction);
  order.push_back(parallel.back());
  return order;
}

struct InnermostParallel : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<unsigned> order = getVectorizableOrder(op);
    if (order.empty())
      return rewriter.notifyMatchFailure(op, "innermost loop already parallel");
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return failure();
      generic = *generalized;
    }
    return linalg::interchangeGenericOp(rewriter, generic, order);
  }
};

struct VectorizableLoopOrderPass
    : onnxq::impl::VectorizableLoopOrderPassBase<VectorizableLoopOrderPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<InnermostParallel>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
