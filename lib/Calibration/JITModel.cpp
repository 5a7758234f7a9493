//===- JITModel.cpp - the float model compiled in-process -----------------===//

#include "JITModel.h"

#include "onnx-quant/Calibration/Observe.h"

#include "onnx-quant/Codegen/Pipeline.h"
#include "onnx-quant/Codegen/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

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
JITModel::compile(OwningOpRef<ModuleOp> module, StringRef entry,
                  ArrayRef<std::pair<std::string, void *>> symbols,
                  Location loc) {
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

  // The host target machine as `--emit=obj` sets it up (lib/Codegen/
  // Target.cpp): host CPU and features, fused multiply-adds, aggressive code
  // generation, the O3 pipeline with the target's cost model, and 512-bit
  // vectors where AVX-512 exists. ExecutionEngine's default would be a
  // generic O3 pipeline and default code generation.
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return emitError(loc) << "cannot set up the JIT for this host: "
                          << llvm::toString(builder.takeError());
  builder->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Fast;
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return emitError(loc) << "cannot set up the JIT for this host: "
                          << llvm::toString(machine.takeError());
  bool wideVectors =
      (*machine)->getTargetTriple().isX86() &&
      (*machine)->getMCSubtargetInfo()->checkFeatures("+avx512f");
  // The engine keeps the target machine alive as long as itself, and runs
  // the transformer before create() returns.
  auto optimize = makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                            machine->get());
  auto transform = [&](llvm::Module *llvmModule) {
    if (wideVectors)
      for (llvm::Function &function : *llvmModule)
        if (!function.isDeclaration())
          function.addFnAttr("prefer-vector-width", "512");
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
