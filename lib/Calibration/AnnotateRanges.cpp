//===- AnnotateRanges.cpp - apply a saved range table ---------------------===//

#include "onnx-quant/Calibration/Passes.h"
#include "onnx-quant/Calibration/Ranges.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Execution/ObservingModel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_ANNOTATERANGESPASS
#include "onnx-quant/Calibration/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
/// Appends up to 10 names, then how many more.
void listNames(InFlightDiagnostic &diag, ArrayRef<std::string> names) {
  for (auto [i, name] : llvm::enumerate(names.take_front(10)))
    diag << (i ? ", '" : "'") << name << "'";
  if (names.size() > 10)
    diag << " and " << names.size() - 10 << " more";
}

struct AnnotateRangesPass
    : public onnxq::impl::AnnotateRangesPassBase<AnnotateRangesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (file.empty()) {
      module.emitError("onnx-annotate-ranges: give the table with file=FILE "
                       "(written by --onnx-calibrate=\"... save=FILE\")");
      return signalPassFailure();
    }
    FailureOr<func::FuncOp> graph =
        getGraphFunction(module, "onnx-annotate-ranges");
    if (failed(graph))
      return signalPassFailure();
    auto table = readRangesJSON(file, module.getLoc());
    if (failed(table))
      return signalPassFailure();
    llvm::StringMap<TensorRange> ranges;
    for (auto &[name, range] : *table)
      ranges[name] = range;

    std::vector<ObservedTensor> observed = collectObservedTensors(*graph);
    std::vector<std::string> missing, unknown;
    llvm::StringSet<> known;
    for (const ObservedTensor &tensor : observed) {
      known.insert(tensor.name);
      if (!ranges.count(tensor.name))
        missing.push_back(tensor.name);
    }
    for (auto &[name, range] : *table)
      if (!known.contains(name))
        unknown.push_back(name);
    if (!unknown.empty()) {
      InFlightDiagnostic diag = module.emitError()
                                << "onnx-annotate-ranges: '" << file << "' names "
                                << unknown.size()
                                << " tensors that are not in the graph: ";
      listNames(diag, unknown);
      diag << " (was it saved for another model or before other passes?)";
      return signalPassFailure();
    }
    if (!missing.empty()) {
      InFlightDiagnostic diag = module.emitError()
                                << "onnx-annotate-ranges: '" << file
                                << "' has no range for " << missing.size()
                                << " tensors of the graph: ";
      listNames(diag, missing);
      diag << " (re-run --onnx-calibrate with the same passes before it)";
      return signalPassFailure();
    }
    std::string method;
    int64_t samples = 0;
    for (const ObservedTensor &tensor : observed) {
      const TensorRange &range = ranges[tensor.name];
      setAnnotatedRange(tensor.value, range.min, range.max);
      method = range.method;
      samples = range.samples;
    }
    CalibrationInfo info;
    info.method = method;
    info.samples = samples;
    info.file = file;
    setCalibrationInfo(module, info);
  }
};
} // namespace
