//===- ModelComparison.h - a float model against a quantized one -*- C++ -*-===//
//
// What onnx-quant-debug does: given a float model and a quantized model of
// it (QDQ, QOperator or dynamic, made by onnx-quant or by ONNX Runtime),
// match their weights and activations and measure the quantization error of
// each, with
// ONNX Runtime qdq_loss_debug's definitions:
//   weights      float initializer W against DequantizeLinear(W_quantized)
//   activation   ("xmodel_err") the float model's tensor X against the
//                quantized model's dequantized X: errors accumulate
//   local        ("qdq_err") in the quantized model, the tensor a
//                QuantizeLinear reads against its DequantizeLinear: X's own
//                quantization error
// Tensors match by name (ORT's suffixes _quantized, _QuantizeLinear_Input,
// _DequantizeLinear_Output), else through the node that computes them (the
// node names onnx-quant's exports keep). Both models run natively (JIT, as
// --emit=obj compiles them).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_QUANTIZATION_MODELCOMPARISON_H
#define ONNXQUANT_QUANTIZATION_MODELCOMPARISON_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxq {

struct ComparisonOptions {
  std::string data;       ///< sample directory (the formats of --onnx-calibrate)
  std::string preprocess; ///< image preprocessing, as --onnx-calibrate's
  int64_t samples = 0;    ///< a seeded subset of the data; 0: all
};

/// How the quantized model quantizes a tensor (ComparedActivation::kind):
/// a QuantizeLinear -> DequantizeLinear pair, a QOperator op's output, a
/// DynamicQuantizeLinear, or not at all (a float tensor both models compute:
/// no local error).
constexpr llvm::StringLiteral kQDQKind = "QDQ", kQOperatorKind = "QOperator",
                              kDynamicKind = "dynamic", kFloatKind = "float";

/// One quantized activation of the quantized model.
struct ComparedActivation {
  std::string kind; ///< one of the k...Kind strings

  std::string tensor; ///< its name in the float model ("" if none)
  /// The float model's node that computes it ("" for a graph input): the
  /// layer to name in --onnx-quantize's exclude=.
  std::string node, opType;
  /// The float model's Relu/Clip after `node` that the quantized model
  /// folded into the tensor's range ("" if none).
  std::string folded;
  std::string weight; ///< the float weight of `node` that was quantized
  std::optional<double> weightSQNR;
  std::optional<double> activationSQNR; ///< once measured
  std::optional<double> localSQNR;      ///< QDQ only
};

/// One quantized weight (or bias) of the quantized model.
struct ComparedWeight {
  std::string tensor; ///< the float model's initializer
  std::string node;   ///< the float model's node that reads it
  std::string granularity; ///< "per-channel" or "per-tensor"
  double sqnr = 0;
};

struct ModelComparison {
  std::string floatModel, quantizedModel; ///< paths, for the report
  std::string format; ///< "QDQ", "QOperator", "dynamic", joined by " and "
  std::string data, dataFormat;
  size_t samples = 0;
  std::vector<ComparedActivation> activations; ///< worst first
  std::vector<ComparedWeight> weights;         ///< worst first
  /// Quantized tensors of the quantized model with no float counterpart.
  std::vector<std::string> unmatched;

  /// The `count` layers with the worst own (local, else activation) error,
  /// each once.
  std::vector<std::string> suggestExclusions(size_t count) const;
  void printTable(raw_ostream &os, size_t suggest) const;
  void printJSON(raw_ostream &os, size_t suggest) const;
  /// One line for stderr.
  void printSummary(raw_ostream &os) const;
};

/// Matches and measures. `floatTensors` / `quantizedTensors` map the ONNX
/// tensor names of each model to their values (ImportOptions::tensorValues).
/// The quantized module may be changed (dequantized copies of QOperator
/// outputs are added to observe them).
FailureOr<ModelComparison>
compareModels(ModuleOp floatModule, const llvm::StringMap<Value> &floatTensors,
              ModuleOp quantizedModule,
              const llvm::StringMap<Value> &quantizedTensors,
              const ComparisonOptions &options);

} // namespace mlir::onnxq

#endif // ONNXQUANT_QUANTIZATION_MODELCOMPARISON_H
