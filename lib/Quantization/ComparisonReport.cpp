//===- ComparisonReport.cpp - onnx-quant-debug's table and JSON -----------===//

#include "onnx-quant/Quantization/ModelComparison.h"

#include "QuantizationError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

std::vector<std::string>
ModelComparison::suggestExclusions(size_t count) const {
  // The own error, not the accumulated one: the last layers of a model
  // inherit every error before them. Tensors computed in float have none;
  // QOperator outputs have only the accumulated one.
  std::vector<const ComparedActivation *> ranked;
  for (const ComparedActivation &entry : activations)
    if (!entry.node.empty() && entry.kind != kFloatKind)
      ranked.push_back(&entry);
  auto key = [](const ComparedActivation *entry) {
    std::optional<double> db =
        entry->localSQNR ? entry->localSQNR : entry->activationSQNR;
    return db ? *db : std::numeric_limits<double>::infinity();
  };
  // Ties in the order of the table.
  llvm::sort(ranked, [&](auto *a, auto *b) {
    return key(a) != key(b) ? key(a) < key(b) : a < b;
  });
  std::vector<std::string> nodes;
  llvm::StringSet<> seen;
  for (const ComparedActivation *entry : ranked)
    if (nodes.size() < count && seen.insert(entry->node).second)
      nodes.push_back(entry->node);
  return nodes;
}

static std::string describeLayer(const ComparedActivation &entry) {
  if (entry.node.empty())
    return "(graph input)";
  return formatLayer(entry.node, entry.folded);
}

void ModelComparison::printTable(raw_ostream &os, size_t suggest) const {
  os << "# onnx-quant-debug: '" << floatModel << "' (float) vs '"
     << quantizedModel << "' (" << format << ")\n"
     << "# SQNR = 20 log10(|x| / |x - x_q|) dB (as ONNX Runtime's "
        "qdq_loss_debug), worst first\n"
     << "# activation: the quantized model's dequantized tensor vs the float "
        "model's (xmodel_err: errors accumulate), on "
     << samples << " samples of '" << data << "' (" << dataFormat << ")\n"
     << "# local: the tensor's own Q/DQ, DQ(Q(x)) vs x in the quantized model "
        "(qdq_err; x through a folded Relu/Clip)\n"
     << "# quantized as: QDQ, QOperator, dynamic (DynamicQuantizeLinear), "
        "or float (computed in float by both models)\n"
     << "# weight: the layer's float weight vs its stored integers "
        "dequantized\n";
  os << llvm::format("%-36s %-36s %-16s %11s %8s %8s  %s\n", "tensor",
                     "layer (for exclude=)", "op", "activation", "local",
                     "weight", "quantized as");
  for (const ComparedActivation &entry : activations)
    os << llvm::format("%-36s %-36s %-16s %11s %8s %8s  %s\n",
                       entry.tensor.c_str(), describeLayer(entry).c_str(),
                       entry.opType.c_str(),
                       formatDecibels(entry.activationSQNR).c_str(),
                       formatDecibels(entry.localSQNR).c_str(),
                       formatDecibels(entry.weightSQNR).c_str(),
                       entry.kind.c_str());
  os << "\n# weights: " << weights.size() << " quantized initializers\n";
  os << llvm::format("%-48s %-36s %-12s %8s\n", "weight", "read by", "",
                     "SQNR");
  for (const ComparedWeight &weight : weights)
    os << llvm::format("%-48s %-36s %-12s %8s\n", weight.tensor.c_str(),
                       weight.node.c_str(), weight.granularity.c_str(),
                       formatDecibels(weight.sqnr).c_str());
  if (!unmatched.empty())
    os << "\n# no float counterpart (not measured): "
       << llvm::join(unmatched, ", ") << "\n";
  std::vector<std::string> nodes = suggestExclusions(suggest);
  if (!nodes.empty())
    os << "\n# the layers with the worst own error; to try them in float:\n"
       << "#   --onnx-quantize=\"exclude=" << llvm::join(nodes, ",")
       << "\"  (or sqnr-floor=DB to choose by measuring)\n";
}

void ModelComparison::printJSON(raw_ostream &os, size_t suggest) const {
  llvm::json::Array activationArray;
  for (const ComparedActivation &entry : activations) {
    llvm::json::Object object{
        {"kind", entry.kind},
        {"tensor", entry.tensor},
        {"node", entry.node},
        {"op", entry.opType},
        {"activation_sqnr", decibelsToJSON(entry.activationSQNR)},
        {"local_sqnr", decibelsToJSON(entry.localSQNR)}};
    if (!entry.folded.empty())
      object["folded"] = entry.folded;
    if (!entry.weight.empty()) {
      object["weight"] = entry.weight;
      object["weight_sqnr"] = decibelsToJSON(entry.weightSQNR);
    }
    activationArray.push_back(std::move(object));
  }
  llvm::json::Array weightArray;
  for (const ComparedWeight &weight : weights)
    weightArray.push_back(llvm::json::Object{
        {"tensor", weight.tensor},
        {"node", weight.node},
        {"granularity", weight.granularity},
        {"sqnr", decibelsToJSON(weight.sqnr)}});
  llvm::json::Object root{
      {"format", "onnx-quant debug report 1"},
      {"float_model", floatModel},
      {"quantized_model", quantizedModel},
      {"quantized_format", format},
      {"data", data},
      {"data_format", dataFormat},
      {"samples", int64_t(samples)},
      {"activations", std::move(activationArray)},
      {"weights", std::move(weightArray)},
      {"unmatched", llvm::json::Array(unmatched)},
      {"suggested_exclude", llvm::json::Array(suggestExclusions(suggest))}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

void ModelComparison::printSummary(raw_ostream &os) const {
  os << "onnx-quant-debug: " << activations.size() << " activations and "
     << weights.size() << " weights matched";
  if (!activations.empty() && activations.front().activationSQNR)
    os << "; worst activation SQNR "
       << formatDecibels(activations.front().activationSQNR) << " dB ('"
       << activations.front().tensor << "')";
  if (!weights.empty())
    os << ", worst weight SQNR " << formatDecibels(weights.front().sqnr)
       << " dB ('" << weights.front().tensor << "')";
  os << "; " << samples << " samples";
  if (!unmatched.empty())
    os << "; " << unmatched.size() << " quantized tensors without a float "
       << "counterpart";
  os << "\n";
}
