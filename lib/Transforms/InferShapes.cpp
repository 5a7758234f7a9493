//===- InferShapes.cpp - the ops' shape rules over a whole graph ----------===//

#include "onnx-quant/Transforms/Passes.h"

#include "onnx-quant/Dialect/ONNX/IR/ShapeInference.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_INFERSHAPESPASS
#include "onnx-quant/Transforms/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
struct InferShapesPass
    : public onnxq::impl::InferShapesPassBase<InferShapesPass> {
  using InferShapesPassBase::InferShapesPassBase;

  void runOnOperation() override {
    if (failed(inferShapes(getOperation())) ||
        (requireStatic && failed(verifyStaticShapes(getOperation()))))
      signalPassFailure();
  }
};
} // namespace
