//===- ONNXGraph.h - conventions of a graph in the onnx dialect -*- C++ -*-===//
//
// What every pass may assume about a module that holds an ONNX graph, and
// the attributes passes hand to each other. All of them are discardable
// attributes of the `onnx` dialect, so ONNXDialect verifies them
// (verifyGraphAttribute below):
//
//   onnx.name         graph argument/result: its ONNX tensor name (string)
//   onnx.range        graph argument: calibrated `array<f32: min, max>`
//   onnx.ranges       op: one `array<f32: min, max>` per result (`array<f32>`
//                     for a result that is not observed)
//   onnx.calibration  module: where the ranges came from: {method, samples,
//                     and data/preprocess (onnx-calibrate) or file
//                     (onnx-annotate-ranges)}
//   onnx.quantization module: {activations, weights, per_channel} of
//                     onnx-quantize
//   onnx.abi          module: the C ABI record (ModelABI.h)
//
// Ops carry `NameLoc(<ONNX node name>)` around the model file's location.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXGRAPH_H
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXGRAPH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::onnxq {

/// The ai.onnx opset whose semantics the dialect's ops have; the importer
/// rewrites older and newer forms into it and the exporter writes it.
constexpr int64_t kDialectOpset = 17;

constexpr llvm::StringLiteral kTensorNameAttrName = "onnx.name";
constexpr llvm::StringLiteral kArgRangeAttrName = "onnx.range";
constexpr llvm::StringLiteral kRangesAttrName = "onnx.ranges";
constexpr llvm::StringLiteral kCalibrationAttrName = "onnx.calibration";
constexpr llvm::StringLiteral kQuantizationAttrName = "onnx.quantization";
constexpr llvm::StringLiteral kABIAttrName = "onnx.abi";

/// The graph function: the one function defined in `module` (declarations
/// are functions it calls). Emits an error, prefixed with `user` when given,
/// unless there is exactly one.
FailureOr<func::FuncOp> getGraphFunction(ModuleOp module, StringRef user = "");

/// The ONNX node name of a location `NameLoc(node, ...)` (as the importer
/// sets it), or "".
StringRef getNodeName(Location loc);
inline StringRef getNodeName(Operation *op) { return getNodeName(op->getLoc()); }

/// The first node name anywhere in `loc`: lowering fuses the locations of
/// ops it merges.
std::optional<StringRef> findNodeName(Location loc);

/// The ONNX tensor name of graph argument / result `index`, or "".
StringRef getInputName(func::FuncOp graph, unsigned index);
StringRef getOutputName(func::FuncOp graph, unsigned index);

/// Fails with an error on `root` naming `option` when one of `names` is not
/// the name of a node under `root` (constants, which carry initializer names,
/// do not count), listing near matches.
LogicalResult checkNodeNamesExist(Operation *root, ArrayRef<std::string> names,
                                  StringRef option);

/// The calibrated range of `value` (a graph argument or an op result), if
/// annotated.
std::optional<std::pair<float, float>> getAnnotatedRange(Value value);
/// Annotates `value` with the range [min, max].
void setAnnotatedRange(Value value, float min, float max);
/// Whether any op or argument of `graph` carries a range.
bool hasAnnotatedRanges(func::FuncOp graph);

/// Where a module's ranges came from (`onnx.calibration`).
struct CalibrationInfo {
  std::string method;
  int64_t samples = 0;
  std::string data;       ///< onnx-calibrate: the data directory (absolute)
  std::string preprocess; ///< onnx-calibrate: the image preprocessing
  std::string file;       ///< onnx-annotate-ranges: the ranges file
};
void setCalibrationInfo(ModuleOp module, const CalibrationInfo &info);
std::optional<CalibrationInfo> getCalibrationInfo(ModuleOp module);

/// Verifies the `onnx.*` attribute `attr` on `op` (where `argIndex` /
/// `resultIndex` say it is an argument or result attribute of a region of
/// `op`): the hook behind ONNXDialect's attribute verifiers.
LogicalResult verifyGraphAttribute(Operation *op, NamedAttribute attr,
                                   std::optional<unsigned> argIndex,
                                   std::optional<unsigned> resultIndex);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXGRAPH_H
