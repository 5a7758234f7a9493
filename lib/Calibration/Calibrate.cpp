//===- Calibrate.cpp - the onnx-calibrate pass -----------------------------===//
//
// Instruments a copy of the graph (every observed tensor becomes an extra
// result), JIT-compiles it through the `--emit=obj` lowering, streams the
// samples through it and keeps per-tensor statistics, then annotates the
// original graph with the chosen ranges.
//
//===----------------------------------------------------------------------===//

#include "JITModel.h"
#include "Report.h"
#include "Samples.h"
#include "Statistics.h"

#include "onnx-quant/Calibration/Passes.h"
#include "onnx-quant/Calibration/Ranges.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace mlir::onnxq {
#define GEN_PASS_DEF_CALIBRATEPASS
#include "onnx-quant/Calibration/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr llvm::StringLiteral kEntry = "onnxq_calibration";

/// The module's single graph function, or an error.
FailureOr<func::FuncOp> getGraphFunction(ModuleOp module, StringRef pass) {
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  if (funcs.size() != 1)
    return module.emitError() << pass << " expects exactly one graph function, "
                              << "found " << funcs.size();
  return funcs.front();
}

/// A copy of `module` whose graph function also returns every observed
/// tensor (named after it), ready to be lowered.
OwningOpRef<ModuleOp> instrument(ModuleOp module, func::FuncOp func,
                                 ArrayRef<ObservedTensor> observed) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone(mapping));
  auto copyFunc = cast<func::FuncOp>(mapping.lookup(func.getOperation()));
  auto ret = cast<func::ReturnOp>(copyFunc.getBody().back().getTerminator());
  unsigned original = ret.getNumOperands();
  SmallVector<Value> results(ret.getOperands());
  for (const ObservedTensor &tensor : observed)
    results.push_back(mapping.lookup(tensor.value));
  OpBuilder builder(ret);
  func::ReturnOp::create(builder, ret.getLoc(), results);
  ret.erase();
  copyFunc.setType(builder.getFunctionType(copyFunc.getArgumentTypes(),
                                           ValueRange(results).getTypes()));
  for (auto [i, tensor] : llvm::enumerate(observed))
    copyFunc.setResultAttr(original + i, "onnx.name",
                           builder.getStringAttr(tensor.name));
  return copy;
}

/// The float values of an output buffer (f32 or f16).
void toFloats(const std::vector<char> &bytes, const TensorABI &tensor,
              std::vector<float> &values) {
  size_t n = tensor.getNumElements();
  values.resize(n);
  if (tensor.elementBytes == 4) {
    std::memcpy(values.data(), bytes.data(), n * 4);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    uint16_t bits;
    std::memcpy(&bits, bytes.data() + 2 * i, 2);
    values[i] = llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits))
                    .convertToFloat();
  }
}

/// The first non-finite float input of `sample`, as (input index, element).
std::optional<std::pair<size_t, size_t>>
findNonFinite(const Sample &sample, ArrayRef<TensorABI> inputs) {
  std::vector<float> values;
  for (auto [i, tensor] : llvm::enumerate(inputs)) {
    if (tensor.dtype != 1 && tensor.dtype != 10)
      continue;
    toFloats(sample.inputs[i], tensor, values);
    for (auto [k, v] : llvm::enumerate(values))
      if (!std::isfinite(v))
        return std::pair(i, k);
  }
  return std::nullopt;
}

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
    if (!(percentile > 0 && percentile <= 100)) {
      char text[32];
      std::snprintf(text, sizeof(text), "%g", double(percentile));
      return fail("percentile=" + std::string(text) + " is outside (0, 100]");
    }
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
  std::vector<ObservedTensor> observed = collectObservedTensors(*func);
  unsigned numOriginalOutputs = func->getNumResults();

  // Compile the instrumented copy.
  auto start = std::chrono::steady_clock::now();
  FailureOr<std::unique_ptr<JITModel>> model = JITModel::compile(
      instrument(module, *func, observed), kEntry, loc);
  if (failed(model))
    return signalPassFailure();
  const ModelABI &abi = (*model)->getABI();
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count();

  // The samples: one per run (the model's batch dimension must be 1, or
  // equal `batch`, and then each run takes that many samples).
  int64_t modelBatch = abi.inputs.empty() || abi.inputs[0].shape.empty()
                           ? 1
                           : abi.inputs[0].shape[0];
  int64_t perRun = batch ? int64_t(batch) : 1;
  if (perRun != modelBatch && !(batch == 0 && modelBatch == 1)) {
    module.emitError() << "onnx-calibrate: batch=" << perRun
                       << " but the model's batch dimension is " << modelBatch
                       << "; import with --input-shape=" << abi.inputs[0].name
                       << ":" << perRun << "x... or set batch=" << modelBatch;
    return signalPassFailure();
  }
  std::vector<TensorABI> sampleInputs = abi.inputs;
  for (TensorABI &input : sampleInputs)
    if (perRun > 1)
      input.shape[0] = 1;
  FailureOr<SampleSource> source = SampleSource::open(
      data, sampleInputs, image ? &*image : nullptr, loc);
  if (failed(source))
    return signalPassFailure();
  size_t available = source->size();
  if (numSamples > 0 && size_t(numSamples) > available)
    emitWarning(loc) << "onnx-calibrate: num-samples=" << int64_t(numSamples)
                     << " but '" << data << "' holds " << available
                     << " samples; using all of them";
  if (numSamples > 0)
    source->selectSubset(numSamples, seed);
  size_t total = source->size() / perRun * perRun;
  if (total < source->size())
    emitWarning(loc) << "onnx-calibrate: " << source->size() - total
                     << " samples left over after batches of " << perRun
                     << " are not used";

  // Buffers: inputs hold `perRun` samples, outputs are reused every run.
  std::vector<std::vector<char>> inputs(abi.inputs.size());
  for (auto [buffer, tensor] : llvm::zip(inputs, abi.inputs))
    buffer.resize(tensor.getNumElements() * tensor.elementBytes);
  std::vector<std::vector<char>> outputs(abi.outputs.size());
  for (auto [buffer, tensor] : llvm::zip(outputs, abi.outputs))
    buffer.resize(tensor.getNumElements() * tensor.elementBytes);
  SmallVector<const void *> inputPtrs;
  SmallVector<void *> outputPtrs;
  for (auto &b : inputs)
    inputPtrs.push_back(b.data());
  for (auto &b : outputs)
    outputPtrs.push_back(b.data());

  std::vector<TensorStatistics> stats(observed.size());
  std::vector<float> values;
  Progress progress("onnx-calibrate", total, quiet);
  size_t used = 0, skipped = 0, inBatch = 0;
  auto runStart = std::chrono::steady_clock::now();
  for (size_t i = 0; i < total; ++i) {
    FailureOr<Sample> sample = source->read(i, loc);
    if (failed(sample))
      return signalPassFailure();
    if (auto bad = findNonFinite(*sample, abi.inputs)) {
      if (!skipBad) {
        module.emitError() << "onnx-calibrate: sample '" << sample->label
                           << "' has a NaN or Inf in input '"
                           << abi.inputs[bad->first].name << "' (element "
                           << bad->second
                           << "); fix the data or pass skip-bad=true";
        return signalPassFailure();
      }
      ++skipped;
      progress.update(i + 1);
      continue;
    }
    for (auto [buffer, bytes] : llvm::zip(inputs, sample->inputs))
      std::memcpy(buffer.data() + inBatch * bytes.size(), bytes.data(),
                  bytes.size());
    if (++inBatch < size_t(perRun))
      continue;
    inBatch = 0;
    if (int status = (*model)->run(inputPtrs, outputPtrs)) {
      module.emitError() << "onnx-calibrate: the model failed on sample '"
                         << sample->label << "' (status " << status << ")";
      return signalPassFailure();
    }
    used += perRun;
    for (size_t k = 0; k < observed.size(); ++k) {
      toFloats(outputs[numOriginalOutputs + k],
               abi.outputs[numOriginalOutputs + k], values);
      stats[k].add(values);
    }
    progress.update(i + 1);
  }
  progress.finish();
  double runSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - runStart)
                          .count();
  if (used == 0) {
    module.emitError() << "onnx-calibrate: no usable sample in '" << data
                       << "' (" << skipped << " skipped for NaN/Inf)";
    return signalPassFailure();
  }

  // Ranges onto the IR (and the table).
  std::vector<std::pair<std::string, TensorRange>> table;
  for (auto [tensor, stat] : llvm::zip(observed, stats)) {
    if (stat.empty()) {
      emitWarning(tensor.value.getLoc())
          << "onnx-calibrate: tensor '" << tensor.name
          << "' had no finite value on any sample; its range is [0, 0]";
    }
    Range range = stat.selectRange(*rangeMethod, percentile, bits);
    setAnnotatedRange(tensor.value, range.min, range.max);
    table.push_back({tensor.name, TensorRange{range.min, range.max,
                                              method, int64_t(used)}});
  }
  Builder builder(&getContext());
  module->setAttr(kCalibrationAttrName,
                  builder.getDictionaryAttr(
                      {builder.getNamedAttr("method", builder.getStringAttr(method)),
                       builder.getNamedAttr("samples",
                                            builder.getI64IntegerAttr(used))}));
  if (!save.empty()) {
    std::string error;
    auto file = openOutputFile(save, &error);
    if (!file) {
      module.emitError() << "onnx-calibrate: cannot write save=" << save
                         << ": " << error;
      return signalPassFailure();
    }
    writeRangesJSON(file->os(), table);
    file->keep();
  }
  if (!quiet)
    printSummary(llvm::errs(), table, used, skipped, compileSeconds,
                 runSeconds, source->getFormat());
}

} // namespace
