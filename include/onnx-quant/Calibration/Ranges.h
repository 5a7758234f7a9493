//===- Ranges.h - the range table in JSON -----------------------*- C++ -*-===//
//
// `--onnx-calibrate="save=FILE"` writes the ranges it chose as JSON, keyed by
// tensor name (collectObservedTensors' names), and `--onnx-annotate-ranges`
// reads them back (docs/calibration.md). On the IR, ranges are the
// `onnx.range`/`onnx.ranges` attributes (Dialect/ONNX/IR/ONNXGraph.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_CALIBRATION_RANGES_H
#define ONNXQUANT_CALIBRATION_RANGES_H

#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::onnxq {

struct TensorRange {
  float min = 0, max = 0;
  std::string method;
  int64_t samples = 0;
};

/// The range table as JSON, and back (errors name the file).
void writeRangesJSON(llvm::raw_ostream &os,
                     ArrayRef<std::pair<std::string, TensorRange>> table);
FailureOr<std::vector<std::pair<std::string, TensorRange>>>
readRangesJSON(StringRef path, Location loc);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CALIBRATION_RANGES_H
