//===- onnx-quant-opt.cpp - the onnx-quant driver -------------------------===//
//
// mlir-opt for the onnx dialect: every registered pass and pipeline works as
// in mlir-opt, and on top of that the input may be an ONNX model and the
// output may be written in other forms (--emit).
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Export/ONNXExporter.h"
#include "onnx-quant/Import/ONNXImporter.h"
#include "onnx-quant/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace llvm;

namespace {
enum class EmitKind { MLIR, ONNX };
} // namespace

static cl::OptionCategory category("onnx-quant options");

static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to write to -o (default: mlir)"),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "the IR after the passes"),
               clEnumValN(EmitKind::ONNX, "onnx",
                          "an ONNX model (opset 17) of the onnx-dialect IR")),
    cl::init(EmitKind::MLIR), cl::cat(category));

static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Static shape of a graph input, NAME:D0xD1x... (repeatable). "
             "A dynamic batch dimension defaults to 1; other dynamic "
             "dimensions need this option"),
    cl::value_desc("name:1x3x224x224"), cl::cat(category));

static cl::opt<std::string> functionName(
    "function-name", cl::desc("Name of the imported graph function"),
    cl::init("main_graph"), cl::cat(category));

static cl::opt<bool> printSupportedOps(
    "print-supported-ops",
    cl::desc("Print the supported ONNX operators, one 'OpType domain' per "
             "line, and exit"),
    cl::init(false), cl::cat(category));

/// Inputs the importer reads (everything else is parsed as MLIR).
static bool isONNXInput(StringRef path) {
  StringRef ext = sys::path::extension(path);
  return ext == ".onnx" || ext == ".onnxtext" || ext == ".textproto" ||
         ext == ".pbtxt";
}

/// The dialect's ops as ONNX (op type, domain) pairs, sorted by op type.
static std::vector<std::pair<std::string, std::string>> getSupportedOps() {
  MLIRContext context;
  context.loadDialect<onnxq::ONNXDialect>();
  std::vector<std::pair<std::string, std::string>> ops;
  for (RegisteredOperationName name : context.getRegisteredOperations())
    if (name.getDialectNamespace() == "onnx")
      ops.emplace_back(name.stripDialect().str(),
                       name.hasTrait<onnxq::MicrosoftDomain>() ? "com.microsoft"
                                                               : "ai.onnx");
  llvm::sort(ops);
  return ops;
}

static std::string buildDescription() {
  std::string text =
      "onnx-quant-opt: ahead-of-time ONNX compiler driver (mlir-opt style)\n\n"
      "  onnx-quant-opt INPUT [pass flags] [-o OUT] [--emit=mlir|onnx]\n\n"
      "INPUT is an ONNX model (.onnx binary; .onnxtext ONNX text syntax; "
      ".textproto/.pbtxt protobuf text) or MLIR (.mlir, '-' for stdin).\n"
      "Pass flags are MLIR pass flags, run in the order given.\n\n"
      "Supported ONNX operators (ai.onnx opsets " +
      std::to_string(onnxq::kMinSupportedOpset) + "-" +
      std::to_string(onnxq::getMaxSupportedOpset()) + "; [ms] = com.microsoft):\n ";
  size_t column = 1;
  for (const auto &[opType, domain] : getSupportedOps()) {
    std::string entry =
        " " + opType + (domain == "com.microsoft" ? "[ms]" : "");
    if (column + entry.size() > 78) {
      text += "\n ";
      column = 1;
    }
    text += entry;
    column += entry.size();
  }
  return text + "\n";
}

/// Reads the input as a module: imports ONNX, parses MLIR.
static OwningOpRef<ModuleOp> loadInput(MLIRContext &context, StringRef path,
                                       SourceMgr &sourceMgr) {
  if (isONNXInput(path)) {
    onnxq::ImportOptions options;
    options.functionName = functionName;
    if (std::optional<std::string> error =
            onnxq::parseInputShapes(inputShapes, options.inputShapes)) {
      emitError(UnknownLoc::get(&context)) << *error;
      return nullptr;
    }
    return onnxq::importONNXFile(&context, path, options);
  }
  std::string message;
  auto file = openInputFile(path, &message);
  if (!file) {
    emitError(UnknownLoc::get(&context)) << message;
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// Imports or parses, runs the passes, then writes the requested form. The
/// output file is created only once everything has succeeded.
static LogicalResult compile(StringRef inputPath, StringRef outputPath,
                             DialectRegistry &registry,
                             const MlirOptMainConfig &config) {
  MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = loadInput(context, inputPath, sourceMgr);
  if (!module)
    return failure();

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)) ||
      failed(config.setupPassPipeline(pm)) || failed(pm.run(*module)))
    return failure();

  std::string bytes;
  raw_string_ostream os(bytes);
  if (emitKind == EmitKind::ONNX) {
    if (failed(onnxq::exportONNXModel(*module, os)))
      return failure();
  } else {
    module->print(os);
    os << "\n";
  }
  std::string message;
  auto output = openOutputFile(outputPath, &message);
  if (!output) {
    emitError(UnknownLoc::get(&context)) << message;
    return failure();
  }
  output->os() << bytes;
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  DialectRegistry registry;
  onnxq::registerAllDialects(registry);
  onnxq::registerAllPasses();

  std::string description = buildDescription();
  auto [inputPath, outputPath] =
      registerAndParseCLIOptions(argc, argv, description, registry);

  if (printSupportedOps) {
    for (const auto &[opType, domain] : getSupportedOps())
      outs() << opType << " " << domain << "\n";
    return 0;
  }

  // Plain MLIR in and out is exactly mlir-opt (split-input-file,
  // verify-diagnostics, ...).
  if (!isONNXInput(inputPath) && emitKind == EmitKind::MLIR)
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputPath, outputPath, registry));

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  return asMainReturnCode(compile(inputPath, outputPath, registry, config));
}
