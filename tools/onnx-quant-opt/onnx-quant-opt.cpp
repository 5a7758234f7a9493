//===- onnx-quant-opt.cpp - the onnx-quant driver -------------------------===//
//
// mlir-opt for the onnx dialect: every registered pass and pipeline works as
// in mlir-opt, and on top of that the input may be an ONNX model and the
// output may be written in other forms (--emit).
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Pipeline.h"
#include "onnx-quant/Codegen/Target.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Export/ONNXExporter.h"
#include "onnx-quant/Import/ONNXImporter.h"
#include "onnx-quant/InitAll.h"
#include "onnx-quant/Support/OutputFile.h"

#include "mlir/Debug/Counter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace llvm;

namespace {
enum class EmitKind { MLIR, ONNX, LLVM, ASM, OBJ };
} // namespace

// --help shows these three categories (sorted by name) and LLVM's generic
// options; everything else is in --help-hidden.
static cl::OptionCategory category("Compiler options (onnx-quant)");
static cl::OptionCategory passCategory(
    "Compiler passes (run in the order given; options as "
    "--pass=\"opt=value ...\")");
static cl::OptionCategory driverCategory("MLIR driver options (as mlir-opt)");

static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to write to -o (default: mlir)"),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "the IR after the passes"),
               clEnumValN(EmitKind::ONNX, "onnx",
                          "an ONNX model (opset 17; 21 for 4-bit or blocked "
                          "weights) of the onnx-dialect IR"),
               clEnumValN(EmitKind::LLVM, "llvm",
                          "optimized LLVM IR for the target"),
               clEnumValN(EmitKind::ASM, "asm", "assembly for the target"),
               clEnumValN(EmitKind::OBJ, "obj",
                          "an object file for the target, and its C header")),
    cl::init(EmitKind::MLIR), cl::cat(category));

static cl::opt<int64_t> exportOpset(
    "opset",
    cl::desc("ai.onnx opset of --emit=onnx: 17 or 21 (default: the lowest "
             "the model needs; 21 for 4-bit or blocked weights)"),
    cl::init(0), cl::cat(category));

static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Static shape of a graph input, NAME:D0xD1x... (repeatable). "
             "A dynamic batch dimension defaults to 1; other dynamic "
             "dimensions need this option"),
    cl::value_desc("name:1x3x224x224"), cl::cat(category));

static cl::opt<std::string> functionName(
    "function-name", cl::desc("Name of the imported graph function"),
    cl::init("main_graph"), cl::cat(category), cl::Hidden);

static cl::opt<bool> printSupportedOps(
    "print-supported-ops",
    cl::desc("Print the supported ONNX operators, one 'OpType domain' per "
             "line, and exit"),
    cl::init(false), cl::cat(category));

static cl::opt<std::string> entryName(
    "entry",
    cl::desc("Prefix of the exported C symbols (NAME_run, ...); default: the "
             "input file's stem made into a C identifier"),
    cl::value_desc("NAME"), cl::cat(category));

static cl::opt<std::string> headerPath(
    "header", cl::desc("Where --emit=obj writes the C header (default: the "
                       "output path with .h; none for -o /dev/null)"),
    cl::value_desc("FILE"), cl::cat(category));

static cl::opt<std::string> targetTriple(
    "mtriple", cl::desc("Target triple (default: the host), e.g. "
                        "aarch64-linux-gnu"),
    cl::cat(category));

static cl::opt<std::string> targetCPU(
    "mcpu", cl::desc("Target CPU (default: the host CPU for the host)"),
    cl::cat(category));

static cl::opt<std::string> requantization(
    "requant",
    cl::desc("How --emit=llvm|asm|obj computes the requantization of "
             "quantized ops: 'float' (default: float32 as ONNX Runtime's "
             "kernels, same integers) or 'integer' (no floating-point "
             "instruction, same integers, slower)"),
    cl::init("float"), cl::cat(category));

static cl::opt<int64_t> maxThreads(
    "max-threads",
    cl::desc("At most this many threads per loop in NAME_run_parallel (0, "
             "default: as many as the caller gives; 1: no parallel code, "
             "NAME_run_parallel runs on the calling thread)"),
    cl::init(0), cl::cat(category));

static_assert(mlir::onnxq::kDefaultMinModelWork == 1048576,
              "--parallel-min-work's help states the default");
static cl::opt<int64_t> parallelMinWork(
    "parallel-min-work",
    cl::desc("NAME_run_parallel splits no loop when the loops worth splitting "
             "hold less work than this in all (default 1048576: MNIST-sized "
             "models run on the calling thread, ResNet8-sized ones split; "
             "0: split every loop worth it)"),
    cl::init(mlir::onnxq::kDefaultMinModelWork), cl::cat(category));

enum class WeightUnpacking { Once, EveryCall };
static cl::opt<WeightUnpacking> unpackWeights(
    "unpack-weights",
    cl::desc("When --emit=llvm|asm|obj code unpacks the weights the object "
             "keeps packed (4-bit)"),
    cl::values(clEnumValN(WeightUnpacking::Once, "once",
                          "on the first call of the process, into static memory "
                          "(default: later calls run at full speed; memory as "
                          "unpacked weights)"),
               clEnumValN(WeightUnpacking::EveryCall, "every-call",
                          "on every call, layer by layer in the workspace (less "
                          "memory, slower)")),
    cl::init(WeightUnpacking::Once), cl::cat(category));

static cl::opt<std::string> targetFeatures(
    "mattr", cl::desc("Target features, e.g. +neon,+dotprod (default: the "
                      "host CPU's for the host)"),
    cl::cat(category));

/// What the input holds. By extension; a file of another extension is an
/// ONNX model when it is binary (the importer then says whether it parses),
/// and refused when it is text: MLIR parser errors about a Python script
/// help nobody.
enum class InputFormat { ONNX, MLIR };

static FailureOr<InputFormat> getInputFormat(StringRef path,
                                             std::string &error) {
  StringRef ext = sys::path::extension(path);
  if (ext == ".onnx" || ext == ".onnxtext" || ext == ".textproto" ||
      ext == ".pbtxt")
    return InputFormat::ONNX;
  if (path == "-" || ext == ".mlir" || ext == ".mlirbc")
    return InputFormat::MLIR;
  uint64_t size = 0;
  if (sys::fs::file_size(path, size)) // the MLIR reader reports it
    return InputFormat::MLIR;
  auto head = MemoryBuffer::getFileSlice(path, std::min<uint64_t>(size, 4096),
                                         0, /*IsVolatile=*/false);
  if (!head)
    return InputFormat::MLIR;
  StringRef bytes = (*head)->getBuffer();
  if (bytes.contains('\0') || !llvm::json::isUTF8(bytes))
    return InputFormat::ONNX;
  error = ("'" + path +
           "' is neither an ONNX model nor MLIR: onnx-quant-opt reads ONNX "
           "models (.onnx binary protobuf, .onnxtext, .textproto, .pbtxt) and "
           "MLIR (.mlir, or - for stdin); name the file by what it holds")
              .str();
  return failure();
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
  for (auto [opType, domain] : onnxq::getImportExpansions())
    ops.emplace_back(opType.str(), domain.str());
  llvm::sort(ops);
  return ops;
}

static std::string buildDescription() {
  return "onnx-quant-opt: ahead-of-time ONNX compiler driver (mlir-opt style)\n"
         "  onnx-quant-opt INPUT [pass flags] [-o OUT] "
         "[--emit=mlir|onnx|llvm|asm|obj]\n"
         "INPUT is an ONNX model (.onnx binary; .onnxtext ONNX text syntax; "
         ".textproto/.pbtxt protobuf text) or MLIR (.mlir, '-' for stdin).\n"
         "Pass flags run in the order given. --emit=llvm|asm|obj then lowers "
         "the result to native code for the target (--mtriple/--mcpu/--mattr, "
         "default the host); --emit=obj also writes the model's C header. "
         "Supported ONNX operators: " +
         std::to_string(getSupportedOps().size()) + " (ai.onnx opsets " +
         std::to_string(onnxq::kMinSupportedOpset) + "-" +
         std::to_string(onnxq::kMaxSupportedOpset) +
         ", com.microsoft's quantized ops): --print-supported-ops lists them; "
         "--help-hidden shows every option, LLVM's back ends' too.\n";
}

/// "onnx-quant-opt: error: message", as compilers report their invocation's
/// errors.
static void printToolDiagnostic(Diagnostic &diag) {
  // The option parser prints its own message and then fails without one.
  if (diag.str().empty())
    return;
  StringRef severity = diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : diag.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                       : diag.getSeverity() == DiagnosticSeverity::Note ? "note"
                                                                        : "remark";
  errs() << "onnx-quant-opt: " << severity << ": " << diag.str() << "\n";
  for (Diagnostic &note : diag.getNotes())
    errs() << "onnx-quant-opt: note: " << note.str() << "\n";
}

/// Prints diagnostics like SourceMgrDiagnosticHandler, naming the ONNX node
/// of a location `NameLoc(node, file)` so that pass errors ("failed to
/// legalize operation 'onnx.Pad'") say which node of the model they are about.
class NodeNameDiagnosticHandler : public SourceMgrDiagnosticHandler {
public:
  NodeNameDiagnosticHandler(SourceMgr &mgr, MLIRContext *ctx)
      : SourceMgrDiagnosticHandler(mgr, ctx) {
    setHandler([this](Diagnostic &diag) {
      // Errors about the invocation itself (options, output files) have no
      // place in a file: "onnx-quant-opt: error: ...", not "<unknown>:0".
      if (isa<UnknownLoc>(diag.getLocation())) {
        printToolDiagnostic(diag);
        return success();
      }
      std::string message = diag.str();
      StringRef node = onnxq::getNodeName(diag.getLocation());
      if (!node.empty() && !StringRef(message).contains("node '"))
        message = ("node '" + node + "': " + message).str();
      emitDiagnostic(diag.getLocation(), message, diag.getSeverity());
      for (Diagnostic &note : diag.getNotes())
        emitDiagnostic(note.getLocation(), note.str(), note.getSeverity());
      return success();
    });
  }
};

/// Reads the input as a module: imports ONNX, parses MLIR.
static OwningOpRef<ModuleOp> loadInput(MLIRContext &context, StringRef path,
                                       InputFormat format,
                                       SourceMgr &sourceMgr) {
  if (format == InputFormat::ONNX) {
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

/// The input file's stem as a C identifier ("squeezenet1.1-x" ->
/// "squeezenet1_1_x").
static std::string getDefaultEntry(StringRef inputPath) {
  return onnxq::makeCIdentifier(sys::path::stem(inputPath));
}

/// Where --emit=obj writes the header: --header, else next to the object;
/// none when the object goes to a device such as /dev/null (a check run).
static std::optional<std::string> getHeaderPath(StringRef outputPath) {
  if (!headerPath.empty())
    return headerPath.getValue();
  if (sys::fs::exists(outputPath) && !sys::fs::is_regular_file(outputPath))
    return std::nullopt;
  SmallString<128> path(outputPath);
  sys::path::replace_extension(path, ".h");
  return path.str().str();
}

/// Lowers to the LLVM dialect and emits LLVM IR, assembly or an object (plus
/// the header text) for the target.
static LogicalResult emitNative(ModuleOp module, StringRef inputPath,
                                raw_svector_ostream &os, std::string &header) {
  MLIRContext *context = module.getContext();
  onnxq::TargetOptions target{targetTriple, targetCPU, targetFeatures};
  onnxq::LowerToLLVMOptions lowering;
  if (failed(onnxq::configureForTarget(lowering, module, target)))
    return failure();
  lowering.entry = entryName.empty() ? getDefaultEntry(inputPath) : entryName;
  lowering.requant = requantization;
  if (maxThreads < 0)
    return emitError(UnknownLoc::get(context))
           << "--max-threads must be 0 (no limit) or more, got " << maxThreads;
  lowering.maxThreads = maxThreads;
  if (parallelMinWork < 0)
    return emitError(UnknownLoc::get(context))
           << "--parallel-min-work must be 0 or more, got " << parallelMinWork;
  lowering.parallelMinWork = parallelMinWork;
  lowering.hoistConstants = unpackWeights == WeightUnpacking::Once;
  PassManager pm(context, ModuleOp::getOperationName());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  onnxq::buildLowerToLLVMPipeline(pm, lowering);
  if (failed(pm.run(module)))
    return failure();
  FailureOr<onnxq::ModelABI> abi = onnxq::readModelABI(module);
  if (failed(abi))
    return failure();
  header = onnxq::emitHeader(*abi);
  auto kind = emitKind == EmitKind::LLVM  ? onnxq::OutputKind::LLVMIR
              : emitKind == EmitKind::ASM ? onnxq::OutputKind::Assembly
                                          : onnxq::OutputKind::Object;
  return onnxq::emitNativeCode(module, target, kind, os);
}

/// Refuses output paths that would overwrite the model or each other.
static LogicalResult checkOutputPaths(MLIRContext &context, StringRef inputPath,
                                      ArrayRef<std::string> outputs) {
  for (auto [i, output] : llvm::enumerate(outputs)) {
    if (output == "-")
      continue;
    if (onnxq::isSameFile(inputPath, output))
      return emitError(UnknownLoc::get(&context))
             << "the output '" << output
             << "' is the input model; choose another output path";
    for (const std::string &other : outputs.drop_front(i + 1))
      if (onnxq::isSameFile(output, other))
        return emitError(UnknownLoc::get(&context))
               << "-o and --header both name '" << output
               << "'; give the header another path";
  }
  return success();
}

/// A failed compile removes what an earlier run left at its output paths:
/// a stale object next to a failed build looks like success to a build
/// system. Only regular files go (never /dev/null or a pipe).
static void removeStaleOutputs(ArrayRef<std::string> outputs) {
  for (const std::string &output : outputs)
    if (output != "-" && sys::fs::is_regular_file(output))
      (void)sys::fs::remove(output);
}

/// Imports or parses, runs the passes, then writes the requested form. The
/// outputs are opened (as temporaries) before the work, so that an
/// unwritable directory fails early, and reach their paths only once
/// everything, the passes' own files (save=, report=) included, succeeded.
static LogicalResult compile(StringRef inputPath, InputFormat format,
                             StringRef outputPath, DialectRegistry &registry,
                             const MlirOptMainConfig &config) {
  MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  // A whole-model dump under every error helps nobody (models are large).
  context.printOpOnDiagnostic(false);
  SourceMgr sourceMgr;
  NodeNameDiagnosticHandler diagnostics(sourceMgr, &context);

  if (emitKind == EmitKind::OBJ && outputPath == "-")
    return emitError(UnknownLoc::get(&context))
           << "--emit=obj needs an output file: -o model.o";
  SmallVector<std::string> paths = {outputPath.str()};
  if (emitKind == EmitKind::OBJ)
    if (std::optional<std::string> header = getHeaderPath(outputPath))
      paths.push_back(*header);
  if (failed(checkOutputPaths(context, inputPath, paths)))
    return failure();
  bool done = false;
  llvm::scope_exit removeOnFailure([&] {
    if (!done)
      removeStaleOutputs(paths);
  });
  onnxq::DeferredOutputs deferred;
  SmallVector<std::unique_ptr<onnxq::OutputFile>> files;
  for (const std::string &path : paths) {
    std::string error;
    files.push_back(onnxq::OutputFile::open(path, error));
    if (!files.back())
      return emitError(UnknownLoc::get(&context))
             << "cannot write '" << path << "': " << error;
  }

  OwningOpRef<ModuleOp> module =
      loadInput(context, inputPath, format, sourceMgr);
  if (!module)
    return failure();

  PassManager pm(&context, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  if (failed(applyPassManagerCLOptions(pm)) ||
      failed(config.setupPassPipeline(pm)) || failed(pm.run(*module)))
    return failure();

  raw_ostream &os = files[0]->os();
  std::string header;
  switch (emitKind) {
  case EmitKind::MLIR:
    module->print(os);
    os << "\n";
    break;
  case EmitKind::ONNX:
    if (failed(onnxq::exportONNXModel(*module, os, exportOpset)))
      return failure();
    break;
  case EmitKind::LLVM:
  case EmitKind::ASM:
  case EmitKind::OBJ: {
    // Object emission seeks back: into memory first (the output may be a
    // pipe).
    SmallVector<char, 0> bytes;
    raw_svector_ostream buffer(bytes);
    if (failed(emitNative(*module, inputPath, buffer, header)))
      return failure();
    os << buffer.str();
    break;
  }
  }
  if (files.size() > 1)
    files[1]->os() << header;
  for (auto &file : files)
    deferred.add(std::move(file));
  std::string error, failedPath;
  if (failed(deferred.commit(error, failedPath)))
    return emitError(UnknownLoc::get(&context))
           << "cannot write '" << failedPath << "': " << error;
  done = true;
  return success();
}

/// The mlir-opt options --help keeps; the rest of mlir-opt's and all of
/// LLVM's back-end options (AMDGPU, SystemZ, ...) move to --help-hidden.
static constexpr StringLiteral kDriverOptions[] = {
    "mlir-print-ir-after-all", "mlir-timing", "o", "pass-pipeline",
    "split-input-file",
};

// mlir-opt's input and output, as parseCLIOptions declares them, but in the
// driver's category.
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input file>"),
                                          cl::init("-"));
static cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                           cl::value_desc("filename"),
                                           cl::init("-"));

static constexpr StringLiteral kGenericOptions[] = {"help", "help-hidden",
                                                    "version"};

/// Registers mlir-opt's options (as registerAndParseCLIOptions does) and
/// sorts every option into --help or --help-hidden.
static void registerAndFocusOptions(DialectRegistry &registry) {
  MlirOptMainConfig::registerCLOptions(registry);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  tracing::DebugCounter::registerCLOptions();
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (llvm::is_contained(option->Categories, &category))
      continue;
    // The pass list has one literal flag per pass and no name of its own.
    if (option->ArgStr.empty()) {
      option->Categories.assign({&passCategory});
      continue;
    }
    if (llvm::is_contained(kDriverOptions, option->ArgStr)) {
      option->Categories.assign({&driverCategory});
      continue;
    }
    // LLVM's generic options (--help, --version, ...) keep their category.
    if (!llvm::is_contained(kGenericOptions, option->ArgStr))
      option->setHiddenFlag(cl::Hidden);
  }
}

/// Refuses an unknown flag with the closest known one, passes included
/// (LLVM's parser leaves the passes out of its suggestion and blames -o for a
/// misspelled pass). Returns false after the error.
static bool checkOptionNames(int argc, char **argv) {
  const auto &options = cl::getRegisteredOptions();
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--")
      break;
    if (!arg.starts_with("-") || arg == "-")
      continue;
    StringRef name = arg.drop_while([](char c) { return c == '-'; })
                         .split('=')
                         .first;
    if (name.empty() || options.contains(name))
      continue;
    StringRef best;
    unsigned bestDistance = std::numeric_limits<unsigned>::max();
    for (const auto &entry : options) {
      StringRef candidate = entry.first;
      if (candidate.empty())
        continue;
      unsigned distance = name.edit_distance(candidate, true, bestDistance);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = candidate;
      }
    }
    errs() << "onnx-quant-opt: error: unknown option '" << arg << "'";
    if (!best.empty() && bestDistance <= std::max<size_t>(2, name.size() / 3))
      errs() << "; did you mean '--" << best << "'?";
    errs() << " (--help lists the options and passes)\n";
    return false;
  }
  return true;
}

static void printVersion(raw_ostream &os) {
  os << "onnx-quant-opt " << ONNXQ_VERSION << "\n"
     << "  LLVM and MLIR " << LLVM_VERSION_STRING << "\n"
     << "  default target: " << sys::getDefaultTargetTriple() << " ("
     << sys::getHostCPUName() << "; --mtriple, --mcpu, --mattr choose another)\n";
}

/// Whether the pass flags and their options parse. mlir-opt would report a
/// bad one at "<unknown>:0" and carry on; this names the tool instead.
static bool checkPassPipeline(DialectRegistry &registry) {
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
    printToolDiagnostic(diag);
    return success();
  });
  PassManager pm(&context);
  return succeeded(
      MlirOptMainConfig::createFromCLOptions().setupPassPipeline(pm));
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  DialectRegistry registry;
  onnxq::registerAllDialects(registry);
  onnxq::registerAllPasses();

  registerAndFocusOptions(registry);
  cl::SetVersionPrinter(printVersion);
  std::string description = buildDescription();
  if (!checkOptionNames(argc, argv))
    return 1;
  cl::ParseCommandLineOptions(argc, argv, description);
  std::string inputPath = inputFilename, outputPath = outputFilename;

  if (printSupportedOps) {
    for (const auto &[opType, domain] : getSupportedOps())
      outs() << opType << " " << domain << "\n";
    return 0;
  }

  // Plain MLIR in and out is exactly mlir-opt (split-input-file,
  // verify-diagnostics, ...).
  std::string error;
  FailureOr<InputFormat> format = getInputFormat(inputPath, error);
  if (failed(format)) {
    errs() << "onnx-quant-opt: error: " << error << "\n";
    return 1;
  }
  if (*format == InputFormat::MLIR && emitKind == EmitKind::MLIR) {
    if (!checkPassPipeline(registry))
      return 1;
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputPath, outputPath, registry));
  }

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  return asMainReturnCode(
      compile(inputPath, *format, outputPath, registry, config));
}
