//===- Calibrate.cpp - the onnx-calibrate pass -----------------------------===//
//
// Instruments a copy of the graph (every observed tensor is handed to the
// host as soon as it is computed), JIT-compiles it through the `--emit=obj`
// lowering, streams the samples through it (the next one is decoded, and the
// statistics of the tensors computed so far are counted, on other threads
// while the model runs), then annotates the original graph with the chosen
// ranges.
//
//===----------------------------------------------------------------------===//

#include "Progress.h"
#include "Statistics.h"
#include "StatisticsWorker.h"

#include "onnx-quant/Calibration/Passes.h"
#include "onnx-quant/Calibration/Ranges.h"
#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Execution/ObservingModel.h"
#include "onnx-quant/Execution/SampleBatches.h"
#include "onnx-quant/Support/OutputFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Threading.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

namespace mlir::onnxq {
#define GEN_PASS_DEF_CALIBRATEPASS
#include "onnx-quant/Calibration/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr llvm::StringLiteral kEntry = "onnxq_calibration";

struct CalibratePass : public onnxq::impl::CalibratePassBase<CalibratePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registerJITDependencies(registry);
  }

  LogicalResult checkOptions(std::optional<RangeMethod> &rangeMethod,
                             std::optional<ImagePreprocess> &image) {
    ModuleOp module = getOperation();
    auto fail = [&](const Twine &message) {
      module.emitError() << "onnx-calibrate: " << message;
      return failure();
    };
    if (data.empty())
      return fail("give the sample directory with data=DIR (see "
                  "docs/calibration.md for the formats)");
    rangeMethod = parseRangeMethod(method);
    if (!rangeMethod)
      return fail("method='" + method +
                  "' is not one of minmax, entropy, percentile, mse");
    auto format = [](double value) {
      char text[32];
      std::snprintf(text, sizeof(text), "%g", value);
      return std::string(text);
    };
    if (!(percentile > 0 && percentile <= 100))
      return fail("percentile=" + format(percentile) + " is outside (0, 100]");
    if (!(entropyFloor >= 0 && entropyFloor <= 100))
      return fail("entropy-floor=" + format(entropyFloor) +
                  " is outside [0, 100] (0: no floor)");
    if (bits < 2 || bits > 16)
      return fail("bits=" + std::to_string(unsigned(bits)) +
                  " is outside [2, 16]");
    if (numSamples < 0)
      return fail("num-samples must be >= 0");
    if (batch < 0)
      return fail("batch must be >= 0");
    if (!preprocess.empty()) {
      std::string error;
      FailureOr<ImagePreprocess> parsed = parseImagePreprocess(preprocess, error);
      if (failed(parsed))
        return fail("preprocess: " + error);
      image = std::move(*parsed);
    }
    return success();
  }

  void runOnOperation() override;
};

void CalibratePass::runOnOperation() {
  ModuleOp module = getOperation();
  Location loc = module.getLoc();
  std::optional<RangeMethod> rangeMethod;
  std::optional<ImagePreprocess> image;
  FailureOr<func::FuncOp> func = getGraphFunction(module, "onnx-calibrate");
  if (failed(checkOptions(rangeMethod, image)) || failed(func))
    return signalPassFailure();
  // Opened before the samples run, so an unwritable save= fails at once.
  std::unique_ptr<OutputFile> saveFile;
  if (!save.empty()) {
    std::string error;
    if (!(saveFile = OutputFile::open(save, error))) {
      module.emitError() << "onnx-calibrate: cannot write save=" << save
                         << ": " << error;
      return signalPassFailure();
    }
  }
  std::vector<ObservedTensor> observed = collectObservedTensors(*func);

  // Compile the instrumented copy.
  auto start = std::chrono::steady_clock::now();
  FailureOr<std::unique_ptr<ObservingModel>> model =
      ObservingModel::compile(module, *func, observed, kEntry, loc);
  if (failed(model))
    return signalPassFailure();
  const ModelABI &abi = (*model)->getABI();
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count();

  // The samples: as many per run as the model's batch dimension (`batch`,
  // when given, must equal it).
  int64_t modelBatch = abi.getBatchSize();
  int64_t perRun = batch ? int64_t(batch) : modelBatch;
  if (perRun != modelBatch) {
    module.emitError() << "onnx-calibrate: batch=" << perRun
                       << " but the model's batch dimension is " << modelBatch
                       << "; import with --input-shape=" << abi.inputs[0].name
                       << ":" << perRun << "x... or set batch=" << modelBatch;
    return signalPassFailure();
  }
  SampleSpec spec{data, image, numSamples, "num-samples", seed, skipBad,
                  "; fix the data or pass skip-bad=true"};
  FailureOr<std::unique_ptr<SampleBatches>> batches =
      SampleBatches::open(spec, abi, perRun, "onnx-calibrate", loc);
  if (failed(batches))
    return signalPassFailure();
  SampleBatches &samples = **batches;

  // minmax needs no histogram (the slowest part of the statistics).
  std::vector<TensorStatistics> stats(
      observed.size(), TensorStatistics(*rangeMethod != RangeMethod::MinMax));
  // Up to one sample's tensors wait for the statistics thread.
  ArrayRef<int64_t> sizes = (*model)->getObservedSizes();
  StatisticsWorker worker(stats, std::accumulate(sizes.begin(), sizes.end(),
                                                 size_t(0)));
  auto observe = [&](size_t k, ArrayRef<float> values) {
    worker.push(k, values);
  };
  Progress progress("onnx-calibrate", samples.getTotal(), quiet);
  auto runStart = std::chrono::steady_clock::now();
  LogicalResult ran = samples.forEach([&]() -> LogicalResult {
    if (int status = (*model)->run(samples.getInputs(), observe))
      return module.emitError()
             << "onnx-calibrate: the model failed on sample '"
             << samples.getLastLabel() << "': " << getStatusDescription(status)
             << " (status " << status << ")";
    progress.update(samples.getRead());
    return success();
  });
  if (failed(ran))
    return signalPassFailure();
  worker.drain();
  progress.update(samples.getRead());
  progress.finish();
  double runSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - runStart)
                          .count();
  size_t used = samples.getUsed(), skipped = samples.getSkipped();
  if (used == 0) {
    module.emitError() << "onnx-calibrate: no usable sample in '" << data
                       << "' (" << skipped << " skipped for NaN/Inf)";
    return signalPassFailure();
  }

  // Ranges onto the IR (and the table). Each tensor's choice is independent
  // (the KL search takes milliseconds per tensor): on all cores.
  std::vector<Range> ranges(stats.size());
  parallelFor(&getContext(), 0, stats.size(), [&](size_t i) {
    ranges[i] =
        stats[i].selectRange(*rangeMethod, percentile, bits, entropyFloor);
  });
  std::vector<std::pair<std::string, TensorRange>> table;
  for (auto [tensor, stat, range] : llvm::zip(observed, stats, ranges)) {
    if (stat.empty()) {
      emitWarning(tensor.value.getLoc())
          << "onnx-calibrate: tensor '" << tensor.name
          << "' had no finite value on any sample; its range is [0, 0]";
    }
    setAnnotatedRange(tensor.value, range.min, range.max);
    table.push_back({tensor.name, TensorRange{range.min, range.max,
                                              method, int64_t(used)}});
  }
  // Where the samples came from, so that later passes (the quantization
  // report) can run the model on the same data.
  SmallString<256> dataPath(data);
  llvm::sys::fs::make_absolute(dataPath);
  CalibrationInfo info;
  info.method = method;
  info.samples = used;
  info.data = dataPath.str().str();
  info.preprocess = preprocess;
  setCalibrationInfo(module, info);
  if (saveFile) {
    writeRangesJSON(saveFile->os(), table);
    std::string error;
    if (failed(OutputFile::commitOrDefer(std::move(saveFile), error))) {
      module.emitError() << "onnx-calibrate: cannot write save=" << save
                         << ": " << error;
      return signalPassFailure();
    }
  }
  if (!quiet)
    printSummary(llvm::errs(), table, used, skipped, compileSeconds,
                 runSeconds, samples.getFormat());
}

} // namespace
