//===- Simplify.cpp - canonicalize and fold the onnx graph ----------------===//

#include "onnx-quant/Transforms/Passes.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXDialect.h"
#include "onnx-quant/Dialect/ONNX/IR/ShapeInference.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_SIMPLIFYPASS
#include "onnx-quant/Transforms/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
struct SimplifyPass : public onnxq::impl::SimplifyPassBase<SimplifyPass> {
  LogicalResult initialize(MLIRContext *context) override {
    // The onnx ops' canonicalization patterns; their folders run anyway.
    RewritePatternSet set(context);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      if (isa<ONNXDialect>(op.getDialect()))
        op.getCanonicalizationPatterns(set, context);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // Folding can make shapes known, and known shapes let more fold.
    for (int round = 0; round < kMaxRounds; ++round) {
      bool converged =
          succeeded(applyPatternsGreedily(getOperation(), patterns, config));
      FailureOr<bool> refined = inferShapes(getOperation());
      if (failed(refined))
        return signalPassFailure();
      if (*refined)
        continue;
      if (!converged)
        getOperation().emitRemark("onnx-simplify did not converge; the graph "
                                  "is valid but may simplify further");
      return;
    }
  }

  static constexpr int kMaxRounds = 4;

  FrozenRewritePatternSet patterns;
};
} // namespace
