//===- SampleBatches.cpp - samples from a directory, in batches -----------===//

#include "onnx-quant/Execution/SampleBatches.h"

#include "JITModel.h"
#include "SampleSource.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <future>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The float values of a buffer of `tensor` (f32 or f16).
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

} // namespace

/// The next sample, read on another thread while the model runs on the
/// current one.
struct SampleBatches::Prefetch {
  struct Loaded {
    Sample sample;
    std::string error;
    bool ok = false;
  };
  std::future<Loaded> next;

  void start(const SampleSource &source, size_t index) {
    next = std::async(std::launch::async, [&source, index] {
      Loaded loaded;
      loaded.ok = source.load(index, loaded.sample, loaded.error);
      return loaded;
    });
  }
};

SampleBatches::SampleBatches(Location loc)
    : prefetch(std::make_unique<Prefetch>()), loc(loc) {}
SampleBatches::~SampleBatches() = default;

FailureOr<std::unique_ptr<SampleBatches>>
SampleBatches::open(const SampleSpec &spec, const ModelABI &abi,
                    int64_t perRun, StringRef pass, Location loc) {
  std::unique_ptr<SampleBatches> batches(new SampleBatches(loc));
  batches->spec = spec;
  batches->pass = pass.str();
  batches->perRun = perRun;
  // A sample is one item of the batch.
  std::vector<TensorABI> sampleInputs = abi.inputs;
  for (TensorABI &input : sampleInputs)
    if (perRun > 1)
      input.shape[0] = 1;
  batches->inputs = sampleInputs;
  FailureOr<SampleSource> source = SampleSource::open(
      spec.data, sampleInputs, spec.image ? &*spec.image : nullptr, loc);
  if (failed(source))
    return failure();
  batches->source = std::make_unique<SampleSource>(std::move(*source));
  SampleSource &samples = *batches->source;
  size_t available = samples.size();
  if (spec.numSamples > 0 && size_t(spec.numSamples) > available &&
      !spec.numSamplesOption.empty())
    emitWarning(loc) << pass << ": " << spec.numSamplesOption << "="
                     << spec.numSamples << " but '"
                     << spec.data << "' holds " << available
                     << " samples; using all of them";
  if (spec.numSamples > 0)
    samples.selectSubset(spec.numSamples, spec.seed);
  batches->total = samples.size();
  batches->buffers = allocateBuffers(abi.inputs);
  for (std::vector<char> &buffer : batches->buffers)
    batches->inputPtrs.push_back(buffer.data());
  return batches;
}

StringRef SampleBatches::getFormat() const { return source->getFormat(); }

FailureOr<bool> SampleBatches::next() {
  int64_t inBatch = 0;
  while (inBatch < perRun) {
    if (read == total) {
      // Samples skipped for NaN/Inf shift the batches: what is left over
      // is known only now.
      if (inBatch > 0)
        emitWarning(loc) << pass << ": " << inBatch
                         << " samples left over after batches of " << perRun
                         << " are not used";
      return false;
    }
    if (!prefetch->next.valid())
      prefetch->start(*source, read);
    Prefetch::Loaded loaded = prefetch->next.get();
    if (++read < total)
      prefetch->start(*source, read);
    if (!loaded.ok)
      return emitError(loc) << loaded.error;
    const Sample &sample = loaded.sample;
    lastLabel = sample.label;
    if (auto bad = findNonFinite(sample, inputs)) {
      if (!spec.skipBad)
        return emitError(loc) << pass << ": sample '" << sample.label
                              << "' has a NaN or Inf in input '"
                              << inputs[bad->first].name << "' (element "
                              << bad->second << ")" << spec.badSampleHint;
      ++skipped;
      continue;
    }
    for (auto [buffer, bytes] : llvm::zip(buffers, sample.inputs))
      std::memcpy(buffer.data() + inBatch * bytes.size(), bytes.data(),
                  bytes.size());
    ++inBatch;
  }
  used += perRun;
  return true;
}

LogicalResult SampleBatches::forEach(llvm::function_ref<LogicalResult()> body) {
  while (true) {
    FailureOr<bool> more = next();
    if (failed(more))
      return failure();
    if (!*more)
      return success();
    if (failed(body()))
      return failure();
  }
}

FailureOr<SampleSpec> mlir::onnxq::makeSampleSpec(StringRef data,
                                                  StringRef preprocess,
                                                  int64_t numSamples,
                                                  std::string &error) {
  SampleSpec spec;
  spec.data = data.str();
  spec.numSamples = numSamples;
  if (!preprocess.empty()) {
    FailureOr<ImagePreprocess> image = parseImagePreprocess(preprocess, error);
    if (failed(image))
      return failure();
    spec.image = std::move(*image);
  }
  return spec;
}
