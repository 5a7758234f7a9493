//===- onnx-quant-debug.cpp - where a quantized model loses accuracy ------===//
//
// Compares a float ONNX model with a quantized model of it (QDQ, QOperator
// or dynamic, from onnx-quant or from ONNX Runtime's quantize_static /
// quantize_dynamic) on sample data: per-tensor SQNR of weights and
// activations, worst first, with the layers to keep in float. Both models
// run natively (JIT-compiled as --emit=obj compiles them).
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Execution/ObservingModel.h"
#include "onnx-quant/Import/ONNXImporter.h"
#include "onnx-quant/InitAll.h"
#include "onnx-quant/Quantization/ModelComparison.h"
#include "onnx-quant/Support/OutputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;
using namespace llvm;

static cl::OptionCategory category("onnx-quant-debug options");

static cl::opt<std::string> floatPath(cl::Positional, cl::Required,
                                      cl::desc("<float model>"),
                                      cl::cat(category));
static cl::opt<std::string> quantizedPath(cl::Positional, cl::Required,
                                          cl::desc("<quantized model>"),
                                          cl::cat(category));
static cl::opt<std::string>
    dataDir("data", cl::Required,
            cl::desc("Sample directory, in any format --onnx-calibrate reads "
                     "(.npy, ONNX TensorProto .pb, test_data_set_N/, images "
                     "with --preprocess)"),
            cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string> preprocess(
    "preprocess",
    cl::desc("Image preprocessing, as --onnx-calibrate's preprocess= "
             "(\"resize=256 crop=224 mean=... std=... scale=... "
             "channels=rgb|bgr layout=nchw|nhwc\")"),
    cl::value_desc("spec"), cl::cat(category));
static cl::opt<int64_t>
    samples("samples",
            cl::desc("Run a seeded subset of this many samples (0: all)"),
            cl::init(0), cl::cat(category));
static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Static shape of a graph input of both models, "
             "NAME:D0xD1x... (repeatable); a dynamic batch dimension "
             "defaults to 1"),
    cl::value_desc("name:1x3x224x224"), cl::cat(category));
static cl::opt<std::string>
    outputPath("o",
               cl::desc("Write the report here (JSON if it ends in .json; "
                        "default: the table on standard output)"),
               cl::value_desc("file"), cl::init("-"), cl::cat(category));
static cl::opt<unsigned>
    suggest("suggest",
            cl::desc("How many layers the report suggests for exclude= "
                     "(the worst own error first)"),
            cl::init(3), cl::cat(category));

static const char *kDescription =
    "onnx-quant-debug: where a quantized model loses accuracy\n\n"
    "  onnx-quant-debug FLOAT.onnx QUANTIZED.onnx --data=DIR [-o report.json]\n\n"
    "Runs both models (natively, JIT-compiled) on the samples and reports, "
    "worst first, the SQNR of every quantized activation against the float "
    "model (errors accumulate) and of its own QuantizeLinear/"
    "DequantizeLinear, and of every quantized weight, with ONNX Runtime "
    "qdq_loss_debug's definitions. Tensors match by name (ORT's naming) or "
    "by the node that computes them (onnx-quant's exports). The quantized "
    "model may be QDQ, QOperator or dynamic (DynamicQuantizeLinear), from "
    "onnx-quant or ONNX Runtime.\n";

/// "onnx-quant-debug: error: FILE: node 'N': message".
static LogicalResult printDiagnostic(Diagnostic &diag) {
  StringRef severity = diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : diag.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "note";
  errs() << "onnx-quant-debug: " << severity << ": ";
  if (auto file = diag.getLocation()->findInstanceOf<FileLineColLoc>())
    errs() << file.getFilename().getValue() << ": ";
  std::string message = diag.str();
  // The library prefixes its errors with the tool's name, said already.
  if (StringRef(message).starts_with("onnx-quant-debug: "))
    message = message.substr(StringRef("onnx-quant-debug: ").size());
  StringRef node = onnxq::getNodeName(diag.getLocation());
  if (!node.empty() && !StringRef(message).contains("node '"))
    errs() << "node '" << node << "': ";
  errs() << message << "\n";
  for (Diagnostic &note : diag.getNotes())
    errs() << "onnx-quant-debug: note: " << note.str() << "\n";
  return success();
}

static void printVersion(raw_ostream &os) {
  os << "onnx-quant-debug " << ONNXQ_VERSION << "\n"
     << "  LLVM and MLIR " << LLVM_VERSION_STRING << "\n";
}

static int run() {
  DialectRegistry registry;
  onnxq::registerAllDialects(registry);
  onnxq::registerJITDependencies(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler handler(&context, printDiagnostic);
  Location loc = UnknownLoc::get(&context);

  if (samples < 0) {
    emitError(loc) << "--samples must be 0 (all) or more, got "
                   << samples.getValue();
    return 1;
  }
  onnxq::ImportOptions importOptions;
  if (std::optional<std::string> error =
          onnxq::parseInputShapes(inputShapes, importOptions.inputShapes)) {
    emitError(loc) << *error;
    return 1;
  }
  // The output is opened first: a bad path fails before the work.
  std::string error;
  std::unique_ptr<onnxq::OutputFile> output =
      onnxq::OutputFile::open(outputPath, error);
  if (!output) {
    emitError(loc) << "cannot write '" << outputPath << "': " << error;
    return 1;
  }
  llvm::StringMap<Value> floatTensors, quantizedTensors;
  importOptions.tensorValues = &floatTensors;
  OwningOpRef<ModuleOp> floatModule =
      onnxq::importONNXFile(&context, floatPath, importOptions);
  if (!floatModule)
    return 1;
  importOptions.tensorValues = &quantizedTensors;
  OwningOpRef<ModuleOp> quantizedModule =
      onnxq::importONNXFile(&context, quantizedPath, importOptions);
  if (!quantizedModule)
    return 1;

  onnxq::ComparisonOptions options{dataDir, preprocess, samples};
  FailureOr<onnxq::ModelComparison> comparison =
      onnxq::compareModels(*floatModule, floatTensors, *quantizedModule,
                           quantizedTensors, options);
  if (failed(comparison))
    return 1;
  comparison->floatModel = floatPath;
  comparison->quantizedModel = quantizedPath;
  if (StringRef(outputPath).ends_with(".json"))
    comparison->printJSON(output->os(), suggest);
  else
    comparison->printTable(output->os(), suggest);
  if (failed(output->commit(error))) {
    emitError(loc) << "cannot write '" << outputPath << "': " << error;
    return 1;
  }
  comparison->printSummary(errs());
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(argc, argv, kDescription);
  return run();
}
