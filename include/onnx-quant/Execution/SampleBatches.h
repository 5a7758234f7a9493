//===- SampleBatches.h - samples from a directory, in batches ---*- C++ -*-===//
//
// Samples read from a data directory (the formats of docs/calibration.md)
// and packed into a model's input buffers, for calibration and the
// quantization report.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_EXECUTION_SAMPLEBATCHES_H
#define ONNXQUANT_EXECUTION_SAMPLEBATCHES_H

#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxq {

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

/// `numSamples` samples of `data` (a seeded subset; 0: all), images
/// preprocessed as `preprocess` says ("": none); fails with `error` saying
/// why `preprocess` does not parse. The other fields keep their defaults.
FailureOr<SampleSpec> makeSampleSpec(StringRef data, StringRef preprocess,
                                     int64_t numSamples, std::string &error);

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
  /// Packs each batch in turn and calls `body` on it (getInputs()); stops at
  /// the first failure, of reading or of `body`.
  LogicalResult forEach(llvm::function_ref<LogicalResult()> body);
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

#endif // ONNXQUANT_EXECUTION_SAMPLEBATCHES_H
