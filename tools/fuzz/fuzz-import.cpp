//===- fuzz-import.cpp - libFuzzer target: model loader and importer ------===//
//
// Feeds arbitrary bytes to the importer as a binary ONNX model: the protobuf
// parse, the attribute and external-data checks, libonnx's checker and
// shape inference, the importer and the onnx dialect's verifiers. Errors
// are expected; a crash, a sanitizer report or a hang is a bug.
// scripts/fuzz.sh builds and runs it (docs/testing.md).
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXDialect.h"
#include "onnx-quant/Import/ONNXImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdint>

using namespace mlir;

static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    auto *ctx = new MLIRContext();
    ctx->loadDialect<onnxq::ONNXDialect, func::FuncDialect>();
    ctx->printOpOnDiagnostic(false);
    // Diagnostics are the expected outcome: dropped, not printed.
    ctx->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
    return ctx;
  }();
  return *context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  onnxq::ImportOptions options;
  // A fixed path in a folder without files: external data never resolves.
  OwningOpRef<ModuleOp> module = onnxq::importONNXModel(
      &context, StringRef(reinterpret_cast<const char *>(data), size),
      "/nonexistent-onnxq-fuzz/model.onnx", options);
  if (module)
    (void)verify(*module);
  return 0;
}
