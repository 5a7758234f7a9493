//===- FloatFallback.cpp - keep the layers that cost accuracy in float ----===//
//
// The samples are read once and kept; the float model's outputs on them are
// the reference. Each quantized copy is JIT-compiled through the --emit=obj
// lowering (what is measured is what ships) and run on every sample; its
// outputs' SQNR is pooled over all float outputs and samples, and its run
// time is the median over the samples.
//
//===----------------------------------------------------------------------===//

#include "FloatFallback.h"
#include "Report.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Execution/ObservingModel.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr StringLiteral kPass = "onnx-quantize";

/// The graph's float outputs, as tensors to observe.
std::vector<ObservedTensor> getFloatOutputs(func::FuncOp func) {
  std::vector<ObservedTensor> outputs;
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [i, value] : llvm::enumerate(ret->getOperands()))
    if (isa<FloatType>(getElementTypeOrSelf(value.getType())))
      outputs.push_back({value, "output " + std::to_string(i)});
  return outputs;
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  auto middle = values.begin() + values.size() / 2;
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

struct Measurement {
  double sqnr = 0, ms = 0;
};

/// The samples, read once, and the float model's outputs on them.
class Bench {
public:
  Bench(const FallbackOptions &options, Location loc) : options(options), loc(loc) {}

  LogicalResult load(ModuleOp floatModule) {
    auto model = compile(floatModule, "onnxq_fallback_float");
    if (failed(model))
      return failure();
    const ModelABI &abi = (*model)->getABI();
    auto batches = SampleBatches::open(options.samples, abi, abi.getBatchSize(),
                                       (kPass + ": float fallback").str(), loc);
    if (failed(batches))
      return failure();
    LogicalResult read = (*batches)->forEach([&] {
      std::vector<std::vector<char>> inputs;
      for (auto [tensor, pointer] : llvm::zip(abi.inputs, (*batches)->getInputs())) {
        const char *bytes = static_cast<const char *>(pointer);
        inputs.emplace_back(bytes, bytes + tensor.getNumElements() * tensor.elementBytes);
      }
      samples.push_back(std::move(inputs));
      return success();
    });
    if (failed(read))
      return failure();
    if (samples.empty())
      return emitError(loc) << kPass << ": float fallback: no usable sample in '"
                            << options.samples.data << "'";
    format = (*batches)->getFormat().str();
    used = (*batches)->getUsed();
    FailureOr<Measurement> reference = run(**model, &expected);
    if (failed(reference))
      return failure();
    floatMs = reference->ms;
    return success();
  }

  /// Compiles `module`, runs it on every sample and compares its outputs
  /// with the float model's.
  FailureOr<Measurement> measure(ModuleOp module, StringRef entry) {
    auto model = compile(module, entry);
    if (failed(model))
      return failure();
    return run(**model, nullptr);
  }

  double floatMs = 0;
  std::string format;
  size_t used = 0;

private:
  FailureOr<std::unique_ptr<ObservingModel>> compile(ModuleOp module, StringRef entry) {
    FailureOr<func::FuncOp> func = getGraphFunction(module, kPass);
    if (failed(func))
      return failure();
    std::vector<ObservedTensor> outputs = getFloatOutputs(*func);
    if (outputs.empty())
      return emitError(loc) << kPass
                            << ": float fallback: the model has no float "
                               "output to measure the quantization error on";
    return ObservingModel::compile(module, *func, outputs, entry, loc);
  }

  /// Runs every sample; `record` keeps the outputs (the float reference),
  /// else they are compared with `expected`.
  FailureOr<Measurement> run(ObservingModel &model,
                             std::vector<std::vector<float>> *record) {
    SQNR error;
    std::vector<double> times;
    size_t numOutputs = model.getObservedSizes().size();
    for (auto [k, inputs] : llvm::enumerate(samples)) {
      SmallVector<const void *> pointers;
      for (const std::vector<char> &input : inputs)
        pointers.push_back(input.data());
      auto start = std::chrono::steady_clock::now();
      int status = model.run(pointers);
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
      if (status)
        return emitError(loc) << kPass << ": float fallback: a model failed on "
                              << "sample " << k << " (status " << status << ")";
      for (size_t o = 0; o < numOutputs; ++o) {
        ArrayRef<float> values = model.getObserved(o);
        if (record)
          record->emplace_back(values.begin(), values.end());
        else
          error.add(expected[k * numOutputs + o], values);
      }
    }
    return Measurement{error.getDecibels(), median(std::move(times))};
  }

  const FallbackOptions &options;
  Location loc;
  std::vector<std::vector<std::vector<char>>> samples; ///< [sample][input]
  std::vector<std::vector<float>> expected; ///< [sample * outputs + output]
};

} // namespace

FailureOr<FallbackResult>
mlir::onnxq::searchFloatFallback(ModuleOp floatModule,
                                 ArrayRef<std::string> candidates,
                                 QuantizeCopy quantize,
                                 const FallbackOptions &options, Location loc) {
  FallbackResult result;
  result.sqnrFloor = options.sqnrFloor;
  result.maxFloatLayers = options.maxFloatLayers;
  result.data = options.samples.data;
  result.candidates = candidates.size();
  Bench bench(options, loc);
  if (failed(bench.load(floatModule)))
    return failure();
  result.samples = bench.used;
  result.dataFormat = bench.format;
  result.floatMs = bench.floatMs;

  FailureOr<Measurement> base = failure();
  auto measure = [&](const llvm::StringSet<> &floatNodes) -> FailureOr<Measurement> {
    FailureOr<OwningOpRef<ModuleOp>> copy = quantize(floatNodes);
    if (failed(copy))
      return failure();
    if (!*copy)
      return *base; // the same quantized graph
    return bench.measure(**copy, "onnxq_fallback_quantized");
  };
  base = measure({});
  if (failed(base))
    return failure();
  result.baseSQNR = base->sqnr;
  result.baseMs = base->ms;
  auto done = [&] {
    int64_t limit = options.maxFloatLayers.value_or(int64_t(candidates.size()));
    return int64_t(result.kept.size()) >= limit || (options.sqnrFloor && result.reachedFloor());
  };
  if (done())
    return result;
  if (!options.quiet)
    llvm::errs() << kPass << ": float fallback: output SQNR " << formatDecibels(base->sqnr)
                 << " dB with every layer quantized; measuring "
                 << candidates.size() << " layers in float one at a time on "
                 << bench.used << " samples\n";

  // Each layer alone; the ones that help, best first.
  struct Alone {
    std::string node;
    size_t position; ///< in program order, for ties
    Measurement measured;
  };
  std::vector<Alone> helpful;
  for (auto [k, node] : llvm::enumerate(candidates)) {
    llvm::StringSet<> alone;
    alone.insert(node);
    FailureOr<Measurement> m = measure(alone);
    if (failed(m))
      return failure();
    if (!options.quiet)
      llvm::errs() << "  [" << k + 1 << "/" << candidates.size() << "] " << node
                   << " in float: " << formatDecibels(m->sqnr) << " dB\n";
    if (m->sqnr > base->sqnr)
      helpful.push_back({node, k, *m});
  }
  llvm::sort(helpful, [](const Alone &a, const Alone &b) {
    return a.measured.sqnr != b.measured.sqnr ? a.measured.sqnr > b.measured.sqnr
                                              : a.position < b.position;
  });

  // Greedily, each re-measured with the layers kept before it (the first
  // one's measurement alone is that).
  llvm::StringSet<> kept;
  double current = base->sqnr;
  for (const Alone &candidate : helpful) {
    if (done())
      break;
    kept.insert(candidate.node);
    FailureOr<Measurement> m =
        kept.size() == 1 ? FailureOr<Measurement>(candidate.measured) : measure(kept);
    if (failed(m))
      return failure();
    if (m->sqnr <= current) {
      kept.erase(candidate.node);
      result.rejected.push_back(candidate.node);
      continue;
    }
    current = m->sqnr;
    result.kept.push_back({candidate.node, candidate.measured.sqnr, m->sqnr, m->ms});
  }
  return result;
}
