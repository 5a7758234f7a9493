//===- InferShapes.cpp - ONNX shape inference over the graph again --------===//

#include "onnx-quant/Export/ONNXExporter.h"
#include "onnx-quant/Export/Passes.h"
#include "onnx-quant/Import/ONNXImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_INFERSHAPESPASS
#include "onnx-quant/Export/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
struct InferShapesPass
    : public onnxq::impl::InferShapesPassBase<InferShapesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
    if (funcs.size() != 1) {
      module.emitError("onnx-infer-shapes expects exactly one graph function");
      return signalPassFailure();
    }
    // Through a temporary file: the importer reads models from paths.
    SmallString<128> path;
    int fd;
    if (llvm::sys::fs::createTemporaryFile("onnxq-infer-shapes", "onnx", fd,
                                           path)) {
      module.emitError("onnx-infer-shapes: cannot create a temporary file");
      return signalPassFailure();
    }
    llvm::FileRemover remover(path);
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      if (failed(exportONNXModel(module, os)))
        return signalPassFailure();
    }
    ImportOptions options;
    options.functionName = funcs.front().getSymName().str();
    OwningOpRef<ModuleOp> inferred =
        importONNXFile(&getContext(), path, options);
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
    funcs.front().erase();
    module.getBody()->getOperations().splice(
        module.getBody()->end(), inferred->getBody()->getOperations());
  }
};
} // namespace
