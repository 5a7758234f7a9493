//===- SampleSource.h - samples from a directory ----------------*- C++ -*-===//
//
// A directory holds one sample per entry, in one of the formats of
// docs/calibration.md: `*.npy` files, `INPUTNAME/*.npy` folders (several
// inputs), ONNX `test_data_set_*/input_*.pb` folders, or images with a
// preprocessing spec. Entries are taken in sorted order, so results do not
// depend on the file system.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_EXECUTION_SAMPLESOURCE_H
#define ONNXQUANT_LIB_EXECUTION_SAMPLESOURCE_H

#include "onnx-quant/Execution/SampleBatches.h"

#include "mlir/IR/Location.h"
#include "llvm/Support/MemoryBuffer.h"

#include <string>
#include <vector>

namespace mlir::onnxq {

/// One sample: the bytes of every model input, in the input's element type.
struct Sample {
  std::string label; ///< the file or folder it came from
  std::vector<std::vector<char>> inputs;
};

class SampleSource {
public:
  /// Finds the samples for a model with `inputs` in `dir`; errors at `loc`.
  static FailureOr<SampleSource> open(StringRef dir,
                                      ArrayRef<TensorABI> inputs,
                                      const ImagePreprocess *preprocess,
                                      Location loc);

  size_t size() const { return entries.size(); }
  StringRef getFormat() const { return format; }

  /// Keeps `count` entries chosen with `seed` (in sorted order).
  void selectSubset(size_t count, uint64_t seed);

  /// Reads entry `i`; false and a message naming the file in `error` on
  /// failure. Emits no diagnostics: safe on any thread.
  bool load(size_t i, Sample &sample, std::string &error) const;

private:
  std::string format; ///< "npy", "npy-per-input", "onnx-pb", "image"
  /// Per entry, one path per input.
  std::vector<std::vector<std::string>> entries;
  std::vector<TensorABI> inputs;
  ImagePreprocess preprocess;
};

/// A sample's shape matches an input's when equal, or equal once leading 1s
/// are dropped from both (a sample saved without its batch dimension of 1).
bool sampleShapeMatches(ArrayRef<int64_t> given, ArrayRef<int64_t> expected);

/// "float32", "uint8", ... for an ONNX data type ("ONNX data type N" for
/// the others), for messages.
std::string describeONNXType(int64_t dtype);

/// The contents of a sample file, or null with a message in `error`.
std::unique_ptr<llvm::MemoryBuffer> readSampleFile(StringRef path,
                                                   std::string &error);

/// Readers of one file into the bytes of `input` (shape and type checked).
LogicalResult readNpy(StringRef path, const TensorABI &input,
                      std::vector<char> &bytes, std::string &error);
LogicalResult readTensorProto(StringRef path, const TensorABI &input,
                              std::vector<char> &bytes, std::string &error);
LogicalResult readImage(StringRef path, const TensorABI &input,
                        const ImagePreprocess &preprocess,
                        std::vector<char> &bytes, std::string &error);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_EXECUTION_SAMPLESOURCE_H
