//===- Ranges.h - activation ranges on the IR and in JSON -------*- C++ -*-===//
//
// How calibration results are stored (docs/calibration.md):
// - every observed op result: the op's `onnxq.ranges` attribute, an array with
//   one `array<f32: min, max>` per result (an empty array for a result that is
//   not observed);
// - every observed graph input: the argument attribute
//   `onnxq.range = array<f32: min, max>`;
// - the module: `onnxq.calibration = {data = "DIR", method = "...",
//   samples = N}` (DIR absolute; `preprocess = "..."` when given).
// Tensors are named by their ONNX node ("node", or "node:i" for result i of
// a node with several results) and graph inputs by their ONNX name.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_CALIBRATION_RANGES_H
#define ONNXQUANT_CALIBRATION_RANGES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxq {

constexpr llvm::StringLiteral kRangesAttrName = "onnxq.ranges";
constexpr llvm::StringLiteral kArgRangeAttrName = "onnxq.range";
constexpr llvm::StringLiteral kCalibrationAttrName = "onnxq.calibration";

/// A float activation the quantizer needs a range for, and its name.
struct ObservedTensor {
  Value value;
  std::string name;
};

/// Graph inputs and every op result that is a float tensor (constants and
/// results computed from constants only excluded), in program order, with
/// unique names.
std::vector<ObservedTensor> collectObservedTensors(func::FuncOp func);

struct TensorRange {
  float min = 0, max = 0;
  std::string method;
  int64_t samples = 0;
};

/// The range stored on the IR for `value`, if any.
std::optional<std::pair<float, float>> getAnnotatedRange(Value value);

/// Stores `range` on the IR for `value`.
void setAnnotatedRange(Value value, float min, float max);

/// The range table as JSON, and back (errors name the file).
void writeRangesJSON(llvm::raw_ostream &os,
                     ArrayRef<std::pair<std::string, TensorRange>> table);
FailureOr<std::vector<std::pair<std::string, TensorRange>>>
readRangesJSON(StringRef path, Location loc);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CALIBRATION_RANGES_H
