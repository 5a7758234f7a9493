//===- Observe.cpp - run a graph on samples and read its tensors ----------===//

#include "onnx-quant/Calibration/Observe.h"

#include "JITModel.h"
#include "Samples.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <future>
#include <utility>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The external function observed tensor `k` is handed to.
std::string getObserverName(size_t k) {
  return "onnxq_observe_" + std::to_string(k);
}

/// A copy of `module` in which every observed tensor, as soon as it is
/// computed, is passed (as f32) to `onnxq_observe_<k>(k, tensor)`. Bufferized
/// and lowered, that is a call with a pointer into the workspace: the host
/// reads the tensor in place while it is still in cache, instead of the model
/// copying every observed tensor into an output buffer.
OwningOpRef<ModuleOp> instrument(ModuleOp module, func::FuncOp func,
                                 ArrayRef<ObservedTensor> observed) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone(mapping));
  OpBuilder builder(copy->getContext());
  Type i64 = builder.getI64Type(), f32 = builder.getF32Type();
  for (auto [k, tensor] : llvm::enumerate(observed)) {
    Value value = mapping.lookup(tensor.value);
    Location loc = value.getLoc();
    if (auto arg = dyn_cast<BlockArgument>(value))
      builder.setInsertionPointToStart(arg.getOwner());
    else
      builder.setInsertionPointAfter(value.getDefiningOp());
    auto type = cast<RankedTensorType>(value.getType());
    if (!type.getElementType().isF32()) {
      type = type.clone(f32);
      value = CastOp::create(builder, loc, type, value,
                             int64_t(ONNXDataType::Float));
    }
    Value index = arith::ConstantIntOp::create(builder, loc, i64, int64_t(k));
    std::string name = getObserverName(k);
    func::CallOp::create(builder, loc, name, TypeRange{},
                         ValueRange{index, value});

    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(copy->getBody());
    auto observer = func::FuncOp::create(
        builder, loc, name, builder.getFunctionType({i64, type}, {}));
    observer.setPrivate();
    // Only read: bufferization passes the tensor's buffer without a copy.
    observer.setArgAttr(1, bufferization::BufferizationDialect::kBufferAccessAttrName,
                        builder.getStringAttr("read"));
  }
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

namespace {
/// The run in progress on this thread: where the generated code's observer
/// calls go.
struct ActiveRun {
  ArrayRef<int64_t> sizes;
  ObservingModel::Observer observe;
};
thread_local const ActiveRun *activeRun = nullptr;

/// Every `onnxq_observe_<k>` resolves to this function.
void observeTensor(int64_t k, const float *data) {
  activeRun->observe(size_t(k), ArrayRef(data, size_t(activeRun->sizes[k])));
}
} // namespace

ObservingModel::ObservingModel() = default;
ObservingModel::~ObservingModel() = default;

FailureOr<std::unique_ptr<ObservingModel>>
ObservingModel::compile(ModuleOp module, func::FuncOp func,
                        ArrayRef<ObservedTensor> observed, StringRef entry,
                        Location loc) {
  std::unique_ptr<ObservingModel> result(new ObservingModel());
  std::vector<std::pair<std::string, void *>> symbols;
  for (auto [k, tensor] : llvm::enumerate(observed)) {
    result->sizes.push_back(
        cast<RankedTensorType>(tensor.value.getType()).getNumElements());
    symbols.push_back(
        {getObserverName(k), reinterpret_cast<void *>(&observeTensor)});
  }
  FailureOr<std::unique_ptr<JITModel>> model = JITModel::compile(
      instrument(module, func, observed), entry, symbols, loc);
  if (failed(model))
    return failure();
  result->model = std::move(*model);
  result->outputs = allocate(result->getABI().outputs);
  for (std::vector<char> &buffer : result->outputs)
    result->outputPtrs.push_back(buffer.data());
  return result;
}

const ModelABI &ObservingModel::getABI() const { return model->getABI(); }

int ObservingModel::run(ArrayRef<const void *> inputs, Observer observe) {
  ActiveRun run{sizes, observe};
  const ActiveRun *outer = std::exchange(activeRun, &run);
  int status = model->run(inputs, outputPtrs);
  activeRun = outer;
  return status;
}

int ObservingModel::run(ArrayRef<const void *> inputs) {
  kept.resize(sizes.size());
  return run(inputs, [&](size_t k, ArrayRef<float> values) {
    kept[k].assign(values.begin(), values.end());
  });
}

//===----------------------------------------------------------------------===//
// SampleBatches
//===----------------------------------------------------------------------===//

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
