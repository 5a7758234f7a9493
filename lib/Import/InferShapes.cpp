//===- InferShapes.cpp - ONNX shape inference over the graph again --------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Export/ONNXExporter.h"
#include "onnx-quant/Import/ONNXImporter.h"
#include "onnx-quant/Import/Passes.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_INFERSHAPESPASS
#include "onnx-quant/Import/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
struct InferShapesPass
    : public onnxq::impl::InferShapesPassBase<InferShapesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> graph = getGraphFunction(module, "onnx-infer-shapes");
    if (failed(graph))
      return signalPassFailure();
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    if (failed(exportONNXModel(module, os)))
      return signalPassFailure();
    ImportOptions options;
    options.functionName = graph->getSymName().str();
    OwningOpRef<ModuleOp> inferred =
        importONNXModel(&getContext(), bytes, "onnx-infer-shapes.onnx", options);
    if (!inferred)
      return signalPassFailure();
    // Keep the original file in every location (the node names come back).
    Location fileLoc = module.getLoc();
    if (auto name = dyn_cast<NameLoc>(fileLoc))
      fileLoc = name.getChildLoc();
    auto relocate = [&](Location loc) -> Location {
      if (auto name = dyn_cast<NameLoc>(loc))
        return NameLoc::get(name.getName(), fileLoc);
      return fileLoc;
    };
    inferred->walk([&](Operation *op) {
      op->setLoc(relocate(op->getLoc()));
      for (Region &region : op->getRegions())
        for (BlockArgument arg : region.getArguments())
          arg.setLoc(relocate(arg.getLoc()));
    });
    graph->erase();
    module.getBody()->getOperations().splice(
        module.getBody()->end(), inferred->getBody()->getOperations());
  }
};
} // namespace
