//===- ExpandMath.cpp - polynomial approximations of math functions -------===//
//
// Also expands bfloat16 conversions into integer bit operations: LLVM would
// call compiler-rt's __truncsfbf2 on CPUs without bf16 conversion
// instructions, and the object must need no runtime library.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_EXPANDMATHPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {
struct ExpandMathPass : onnxq::impl::ExpandMathPassBase<ExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Functions whose approximation is accurate to a few ulp in f32; pow and
    // the rest stay libm calls.
    auto approximate = [](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained({"exp", "expm1", "log", "log1p", "log2", "tanh",
                                 "erf"},
                                name);
    };
    // The inverse hyperbolic functions have no LLVM intrinsic (they would
    // become libm calls on scalarized vectors): expand them into log/sqrt.
    math::populateExpansionPatterns(patterns, {"asinh", "acosh", "atanh"});
    populateMathF32ExpansionPatterns(patterns, approximate);
    populateMathPolynomialApproximationPatterns(patterns, approximate);
    // f32 -> bf16 rounds to nearest even (NaN stays a quiet NaN), bf16 -> f32
    // is a shift.
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
