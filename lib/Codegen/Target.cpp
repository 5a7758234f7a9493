//===- Target.cpp - LLVM IR, assembly and object emission -----------------===//

#include "onnx-quant/Codegen/Target.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::onnxq;

static std::string getHostFeatures() {
  std::string features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features += (features.empty() ? "" : ",") +
                std::string(feature.getValue() ? "+" : "-") +
                feature.getKey().str();
  return features;
}

FailureOr<std::unique_ptr<llvm::TargetMachine>>
mlir::onnxq::createTargetMachine(const TargetOptions &options, Location loc) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  bool host = options.triple.empty();
  llvm::Triple triple(host ? llvm::sys::getDefaultTargetTriple() : options.triple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return emitError(loc) << "unknown target triple '" << triple.str()
                              << "': " << error
                              << " (run `llc-22 --version` for the registered "
                                 "targets)";
  std::string cpu = options.cpu;
  std::string features = options.features;
  if (host && cpu.empty())
    cpu = llvm::sys::getHostCPUName().str();
  if (host && options.cpu.empty() && features.empty())
    features = getHostFeatures();
  // Fused multiply-add where the target has it, as ONNX Runtime's kernels do.
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return emitError(loc) << "cannot create a target machine for '"
                              << triple.str() << "'";
  if (!cpu.empty() && !machine->getMCSubtargetInfo()->isCPUStringValid(cpu))
    return emitError(loc) << "unknown CPU '" << cpu << "' for '"
                              << triple.str() << "' (run `llc-22 -mtriple="
                              << triple.str() << " -mcpu=help` for the list)";
  return machine;
}

void mlir::onnxq::prepareForTarget(llvm::Module &module,
                                   const llvm::TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
  // LLVM caps x86 vectors at 256 bits by default even with AVX-512 (to avoid
  // frequency drops on old parts); whole-model kernels want the full width.
  if (machine.getTargetTriple().isX86() &&
      machine.getMCSubtargetInfo()->checkFeatures("+avx512f"))
    for (llvm::Function &function : module)
      if (!function.isDeclaration())
        function.addFnAttr("prefer-vector-width", "512");
}

static void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, mam);
}

FailureOr<TargetCapabilities>
mlir::onnxq::getTargetCapabilities(ModuleOp module,
                                   const TargetOptions &options) {
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options, module.getLoc());
  if (failed(machine))
    return failure();
  const llvm::MCSubtargetInfo *info = (*machine)->getMCSubtargetInfo();
  TargetCapabilities capabilities;
  if ((*machine)->getTargetTriple().isX86()) {
    if (info->checkFeatures("+avx512f"))
      capabilities.vectorBits = 512;
    else if (info->checkFeatures("+avx2"))
      capabilities.vectorBits = 256;
    // The int8 kernels' byte work (saturating packs, byte permutes) needs
    // AVX-512BW, and their half-width vectors VL (256-bit vpdpbusd), which
    // every CPU with VNNI has; `--mattr=-avx512bw` or `-avx512vl` takes the
    // VNNI kernels away too.
    capabilities.hasAVX512VNNI = capabilities.vectorBits == 512 &&
                                 info->checkFeatures("+avx512vnni,+avx512bw,+avx512vl");
    capabilities.hasAVX512VBMI = capabilities.vectorBits == 512 &&
                                 info->checkFeatures("+avx512vbmi");
    // The kernels ask Linux for the tiles (onnxq_amx_ready). Normalized:
    // "x86_64-linux-gnu" is read as vendor "linux" otherwise.
    llvm::Triple triple(llvm::Triple::normalize((*machine)->getTargetTriple().str()));
    capabilities.hasAMXInt8 = capabilities.hasAVX512VNNI && triple.isOSLinux() &&
                              info->checkFeatures("+amx-tile,+amx-int8");
  }
  capabilities.hasAArch64NEON = (*machine)->getTargetTriple().isAArch64() &&
                                info->checkFeatures("+neon");
  capabilities.hasAArch64DotProd =
      (*machine)->getTargetTriple().isAArch64() &&
      info->checkFeatures("+neon,+dotprod");
  return capabilities;
}

LogicalResult mlir::onnxq::emitNativeCode(ModuleOp module,
                                          const TargetOptions &options,
                                          OutputKind kind,
                                          llvm::raw_pwrite_stream &os) {
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options, module.getLoc());
  if (failed(machine))
    return failure();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "onnx-quant");
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");
  prepareForTarget(*llvmModule, **machine);
  optimize(*llvmModule, **machine);

  if (kind == OutputKind::LLVMIR) {
    llvmModule->print(os, nullptr);
    return success();
  }
  llvm::legacy::PassManager codegen;
  auto fileType = kind == OutputKind::Object ? llvm::CodeGenFileType::ObjectFile
                                             : llvm::CodeGenFileType::AssemblyFile;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr, fileType))
    return module.emitError("the target cannot emit this file type");
  codegen.run(*llvmModule);
  return success();
}
