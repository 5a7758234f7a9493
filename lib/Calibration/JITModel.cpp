//===- JITModel.cpp - the float model compiled in-process -----------------===//

#include "JITModel.h"

#include "onnx-quant/Calibration/Observe.h"

#include "onnx-quant/Codegen/Pipeline.h"
#include "onnx-quant/Codegen/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace mlir::onnxq;

static void setLowering(LowerToLLVMOptions &options, StringRef entry,
                        unsigned vectorBits) {
  options.entry = entry.str();
  options.vectorBits = vectorBits;
}

void mlir::onnxq::registerJITDependencies(DialectRegistry &registry) {
  OpPassManager pm(ModuleOp::getOperationName());
  LowerToLLVMOptions lowering;
  buildLowerToLLVMPipeline(pm, lowering);
  pm.getDependentDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

FailureOr<std::unique_ptr<JITModel>>
JITModel::compile(OwningOpRef<ModuleOp> module, StringRef entry, Location loc) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  FailureOr<unsigned> vectorBits = getVectorBits(*module, TargetOptions{});
  if (failed(vectorBits))
    return failure();
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  LowerToLLVMOptions lowering;
  setLowering(lowering, entry, *vectorBits);
  buildLowerToLLVMPipeline(pm, lowering);
  if (failed(pm.run(*module)))
    return emitError(loc) << "could not lower the model for calibration";
  auto model = std::make_unique<JITModel>();
  FailureOr<ModelABI> abi = readModelABI(*module);
  if (failed(abi))
    return failure();
  model->abi = std::move(*abi);

  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/3,
                                               /*sizeLevel=*/0, nullptr);
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine)
    return emitError(loc) << "could not JIT-compile the model for calibration: "
                          << llvm::toString(engine.takeError());
  model->engine = std::move(*engine);
  auto run = model->engine->lookup((entry + "_run").str());
  if (!run)
    return emitError(loc) << "the JIT-compiled model has no " << entry
                          << "_run: " << llvm::toString(run.takeError());
  model->runFn = reinterpret_cast<RunFn>(*run);
  size_t bytes = llvm::alignTo(std::max<int64_t>(model->abi.workspaceSize, 1), 64);
  model->workspace.reset(static_cast<char *>(std::aligned_alloc(64, bytes)));
  return model;
}

int JITModel::run(ArrayRef<const void *> inputs, ArrayRef<void *> outputs) {
  return runFn(inputs.data(), outputs.data(), workspace.get());
}
