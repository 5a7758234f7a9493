//===- Progress.h - calibration progress and summary on stderr --*- C++ -*-===//

#ifndef ONNXQUANT_LIB_CALIBRATION_PROGRESS_H
#define ONNXQUANT_LIB_CALIBRATION_PROGRESS_H

#include "onnx-quant/Calibration/Ranges.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace mlir::onnxq {

/// A progress bar (samples done/total, samples per second, ETA) redrawn in
/// place when stderr is a terminal; otherwise one line per 10 %.
class Progress {
public:
  Progress(StringRef what, size_t total, bool quiet);
  void update(size_t done);
  void finish();

private:
  std::string what;
  size_t total, lastDecile = 0;
  bool quiet, terminal;
  std::chrono::steady_clock::time_point start, lastDraw;
};

/// The closing summary: samples, time, tensors annotated, widest and
/// narrowest ranges.
void printSummary(llvm::raw_ostream &os,
                  ArrayRef<std::pair<std::string, TensorRange>> table,
                  size_t used, size_t skipped, double compileSeconds,
                  double runSeconds, StringRef format);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CALIBRATION_PROGRESS_H
