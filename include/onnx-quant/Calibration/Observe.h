//===- Observe.h - run a graph on samples and read its tensors --*- C++ -*-===//
//
// What `--onnx-calibrate` and the quantization report share: a copy of the
// graph that also returns chosen tensors, JIT-compiled through the
// `--emit=obj` lowering, and samples read from a data directory (the formats
// of docs/calibration.md) packed into that model's input buffers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_CALIBRATION_OBSERVE_H
#define ONNXQUANT_CALIBRATION_OBSERVE_H

#include "onnx-quant/Calibration/Ranges.h"
#include "onnx-quant/Codegen/ABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::onnxq {

class JITModel;
class SampleSource;

/// How images become tensors: resize (shorter side), center crop, channel
/// order, scale, per-channel mean/std, layout.
struct ImagePreprocess {
  int64_t resize = 0;          ///< shorter side after resizing; 0: none
  int64_t cropH = 0, cropW = 0; ///< center crop; 0: none
  bool bgr = false;
  double scale = 1.0;          ///< applied before mean/std
  SmallVector<double, 3> mean{0, 0, 0}, std{1, 1, 1};
  bool nhwc = false;
  std::string spec; ///< the text it was parsed from (for messages)
};

/// Parses "resize=256 crop=224 mean=0.485,0.456,0.406 std=... scale=1/255
/// channels=rgb|bgr layout=nchw|nhwc"; returns an error message on failure.
FailureOr<ImagePreprocess> parseImagePreprocess(StringRef spec,
                                                std::string &error);

/// Registers what the lowering and the JIT need (a pass may not load
/// dialects while it runs, so passes call this from getDependentDialects).
void registerJITDependencies(DialectRegistry &registry);

/// A copy of a module's graph that hands chosen tensors to the host as they
/// are computed, JIT-compiled for the host.
class ObservingModel {
public:
  /// Receives observed tensor `k` of the current run as f32, in place: the
  /// values are valid during the call only.
  using Observer = llvm::function_ref<void(size_t k, ArrayRef<float> values)>;

  /// `observed` are values of `func` in `module`, which is not modified.
  static FailureOr<std::unique_ptr<ObservingModel>>
  compile(ModuleOp module, func::FuncOp func, ArrayRef<ObservedTensor> observed,
          StringRef entry, Location loc);
  ~ObservingModel();

  const ModelABI &getABI() const;

  /// Runs on one buffer per graph input, handing each observed tensor to
  /// `observe` as soon as it is computed; returns NAME_run's status.
  int run(ArrayRef<const void *> inputs, Observer observe);

  /// Runs and keeps a copy of every observed tensor for getObserved().
  int run(ArrayRef<const void *> inputs);

  /// Observed tensor `k` of the last run(inputs); valid until the next run.
  ArrayRef<float> getObserved(size_t k) const { return kept[k]; }

  /// Elements of each observed tensor.
  ArrayRef<int64_t> getObservedSizes() const { return sizes; }

private:
  ObservingModel();

  std::unique_ptr<JITModel> model;
  std::vector<int64_t> sizes; ///< elements of each observed tensor
  std::vector<std::vector<float>> kept;
  std::vector<std::vector<char>> outputs;
  SmallVector<void *> outputPtrs;
};

/// Where samples come from.
struct SampleSpec {
  std::string data;                   ///< the directory
  std::optional<ImagePreprocess> image; ///< images: the preprocessing
  int64_t numSamples = 0;             ///< a seeded subset; 0: all
  /// Warns under this option's name when fewer samples exist ("": never).
  std::string numSamplesOption = "num-samples";
  uint64_t seed = 0;
  bool skipBad = false;               ///< skip samples with NaN/Inf
  /// Appended to the NaN/Inf error (e.g. "; or pass skip-bad=true").
  std::string badSampleHint;
};

/// Samples read in order and packed, `perRun` at a time, into the input
/// buffers of a model whose batch dimension is `perRun`.
class SampleBatches {
public:
  /// Errors (prefixed by `pass`) and warnings are emitted at `loc`.
  static FailureOr<std::unique_ptr<SampleBatches>>
  open(const SampleSpec &spec, const ModelABI &abi, int64_t perRun,
       StringRef pass, Location loc);
  ~SampleBatches();

  /// The samples that will be read (a last batch that is not full is read,
  /// then left out with a warning).
  size_t getTotal() const { return total; }
  StringRef getFormat() const;
  /// Packs the next batch; false once every sample was read.
  FailureOr<bool> next();
  ArrayRef<const void *> getInputs() const { return inputPtrs; }
  /// Samples read so far, used in batches, skipped for NaN/Inf.
  size_t getRead() const { return read; }
  size_t getUsed() const { return used; }
  size_t getSkipped() const { return skipped; }
  /// The file or folder of the last sample read (for messages).
  StringRef getLastLabel() const { return lastLabel; }

private:
  explicit SampleBatches(Location loc);
  struct Prefetch;
  std::unique_ptr<SampleSource> source;
  std::unique_ptr<Prefetch> prefetch; ///< declared after `source`: joins first
  SampleSpec spec;
  std::string pass;
  Location loc;
  std::vector<TensorABI> inputs; ///< of one sample (batch dimension 1)
  int64_t perRun = 1;
  size_t total = 0, read = 0, used = 0, skipped = 0;
  std::string lastLabel;
  std::vector<std::vector<char>> buffers;
  SmallVector<const void *> inputPtrs;
};

} // namespace mlir::onnxq

#endif // ONNXQUANT_CALIBRATION_OBSERVE_H
