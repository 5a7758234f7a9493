//===- JITModel.cpp - a model compiled in-process -------------------------===//

#include "JITModel.h"

#include "onnx-quant/Execution/ObservingModel.h"

#include "onnx-quant/Codegen/Pipeline.h"
#include "onnx-quant/Codegen/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::onnxq;

std::vector<std::vector<char>>
mlir::onnxq::allocateBuffers(ArrayRef<TensorABI> tensors) {
  std::vector<std::vector<char>> buffers;
  for (const TensorABI &tensor : tensors)
    buffers.emplace_back(tensor.getNumElements() * tensor.elementBytes);
  return buffers;
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
JITModel::compile(OwningOpRef<ModuleOp> module, StringRef entry,
                  ArrayRef<std::pair<std::string, void *>> symbols,
                  Location loc) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  LowerToLLVMOptions lowering;
  if (failed(configureForTarget(lowering, *module, TargetOptions{})))
    return failure();
  lowering.entry = entry.str();
  buildLowerToLLVMPipeline(pm, lowering);
  if (failed(pm.run(*module)))
    return emitError(loc) << "could not lower the model for calibration";
  auto model = std::make_unique<JITModel>();
  FailureOr<ModelABI> abi = readModelABI(*module);
  if (failed(abi))
    return failure();
  model->abi = std::move(*abi);

  // The host target machine exactly as `--emit=obj` sets it up, and the
  // O3 pipeline with its cost model. ExecutionEngine's default would be a
  // generic O3 pipeline and default code generation.
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(TargetOptions{}, loc);
  if (failed(machine))
    return failure();
  // The engine owns the target machine as long as itself, and runs the
  // transformer before create() returns.
  llvm::TargetMachine *target = machine->get();
  auto optimize = makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                            target);
  auto transform = [&](llvm::Module *llvmModule) {
    prepareForTarget(*llvmModule, *target);
    return optimize(llvmModule);
  };
  ExecutionEngineOptions options;
  options.transformer = transform; // a function_ref: `transform` outlives it
  auto engine = ExecutionEngine::create(*module, options, std::move(*machine));
  if (!engine)
    return emitError(loc) << "could not JIT-compile the model for calibration: "
                          << llvm::toString(engine.takeError());
  model->engine = std::move(*engine);
  model->engine->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (const auto &[name, address] : symbols)
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    return map;
  });
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
