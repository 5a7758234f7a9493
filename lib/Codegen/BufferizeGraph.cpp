//===- BufferizeGraph.cpp - bufferization for the C ABI -------------------===//

#include "PassDetail.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_BUFFERIZEGRAPHPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
struct BufferizeGraphPass
    : onnxq::impl::BufferizeGraphPassBase<BufferizeGraphPass> {
  void runOnOperation() override {
    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::IdentityLayoutMap);
    // memref.copy of a strided view would call the `memrefCopy` runtime
    // function; linalg.copy lowers to plain loops.
    options.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) {
      linalg::CopyOp::create(b, loc, from, to);
      return success();
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotModuleBufferize(getOperation(), options,
                                                        state)))
      signalPassFailure();
  }
};
} // namespace
