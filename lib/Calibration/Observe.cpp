//===- Observe.cpp - run a graph on samples and read its tensors ----------===//

#include "onnx-quant/Calibration/Observe.h"

#include "JITModel.h"
#include "Samples.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

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

std::vector<std::vector<char>> allocate(ArrayRef<TensorABI> tensors) {
  std::vector<std::vector<char>> buffers;
  for (const TensorABI &tensor : tensors)
    buffers.emplace_back(tensor.getNumElements() * tensor.elementBytes);
  return buffers;
}

} // namespace

//===----------------------------------------------------------------------===//
// ObservingModel
//===----------------------------------------------------------------------===//

ObservingModel::ObservingModel() = default;
ObservingModel::~ObservingModel() = default;

FailureOr<std::unique_ptr<ObservingModel>>
ObservingModel::compile(ModuleOp module, func::FuncOp func,
                        ArrayRef<ObservedTensor> observed, StringRef entry,
                        Location loc) {
  std::unique_ptr<ObservingModel> result(new ObservingModel());
  result->numOriginalOutputs = func.getNumResults();
  FailureOr<std::unique_ptr<JITModel>> model =
      JITModel::compile(instrument(module, func, observed), entry, loc);
  if (failed(model))
    return failure();
  result->model = std::move(*model);
  result->outputs = allocate(result->getABI().outputs);
  for (std::vector<char> &buffer : result->outputs)
    result->outputPtrs.push_back(buffer.data());
  return result;
}

const ModelABI &ObservingModel::getABI() const { return model->getABI(); }

int ObservingModel::run(ArrayRef<const void *> inputs) {
  return model->run(inputs, outputPtrs);
}

void ObservingModel::getObserved(size_t k, std::vector<float> &values) const {
  size_t index = numOriginalOutputs + k;
  toFloats(outputs[index], getABI().outputs[index], values);
}

ArrayRef<float>
ObservingModel::getObservedValues(size_t k, std::vector<float> &scratch) const {
  size_t index = numOriginalOutputs + k;
  const TensorABI &tensor = getABI().outputs[index];
  if (tensor.elementBytes == 4)
    return ArrayRef(reinterpret_cast<const float *>(outputs[index].data()),
                    tensor.getNumElements());
  toFloats(outputs[index], tensor, scratch);
  return scratch;
}

//===----------------------------------------------------------------------===//
// SampleBatches
//===----------------------------------------------------------------------===//

SampleBatches::SampleBatches(Location loc) : loc(loc) {}
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
  batches->buffers = allocate(abi.inputs);
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
    FailureOr<Sample> sample = source->read(read++, loc);
    if (failed(sample))
      return failure();
    lastLabel = sample->label;
    if (auto bad = findNonFinite(*sample, inputs)) {
      if (!spec.skipBad)
        return emitError(loc) << pass << ": sample '" << sample->label
                              << "' has a NaN or Inf in input '"
                              << inputs[bad->first].name << "' (element "
                              << bad->second << ")" << spec.badSampleHint;
      ++skipped;
      continue;
    }
    for (auto [buffer, bytes] : llvm::zip(buffers, sample->inputs))
      std::memcpy(buffer.data() + inBatch * bytes.size(), bytes.data(),
                  bytes.size());
    ++inBatch;
  }
  used += perRun;
  return true;
}
