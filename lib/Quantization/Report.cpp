//===- Report.cpp - per-layer quantization error report -------------------===//

#include "Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The key layers are sorted by: lower is worse.
double sortKey(const LayerReport &layer) {
  if (layer.activationSQNR)
    return *layer.activationSQNR;
  if (layer.weightSQNR)
    return *layer.weightSQNR;
  return std::numeric_limits<double>::infinity();
}

std::string formatMs(double ms) { return llvm::formatv("{0:F3}", ms).str(); }

std::string describeStopping(const FallbackResult &result) {
  std::string text;
  if (result.sqnrFloor)
    text += "floor " + formatDecibels(*result.sqnrFloor) + " dB " +
            (result.reachedFloor() ? "reached" : "NOT reached");
  if (result.maxFloatLayers)
    text += (text.empty() ? "" : ", ") + std::string("at most ") +
            std::to_string(*result.maxFloatLayers) + " layers";
  return text;
}

void printFallbackTable(const FallbackResult &result, raw_ostream &os) {
  os << "\n# accuracy fallback (" << describeStopping(result)
     << "): model output SQNR against the float model on " << result.samples
     << " samples of '" << result.data << "' (" << result.dataFormat << "), "
     << result.candidates << " layers measured in float one at a time\n"
     << "# run time: median per sample, JIT-compiled as --emit=obj, one "
        "thread; float model "
     << formatMs(result.floatMs) << " ms\n";
  os << llvm::format("%-40s %14s %14s %12s\n", "kept in float", "alone (dB)",
                     "output (dB)", "run (ms)");
  os << llvm::format("%-40s %14s %14s %12s\n", "(none: all quantized)", "-",
                     formatDecibels(result.baseSQNR).c_str(),
                     formatMs(result.baseMs).c_str());
  for (const FallbackStep &step : result.kept)
    os << llvm::format("%-40s %14s %14s %12s\n", ("+ " + step.node).c_str(),
                       formatDecibels(step.aloneSQNR).c_str(),
                       formatDecibels(step.sqnr).c_str(),
                       formatMs(step.ms).c_str());
  if (!result.rejected.empty())
    os << "# helped alone, not with the layers above (left quantized): "
       << llvm::join(result.rejected, ", ") << "\n";
}

} // namespace

std::string mlir::onnxq::formatTop1(size_t correct, size_t total) {
  return llvm::formatv("{0} of {1} ({2:F2} %)", correct, total,
                       100.0 * double(correct) / double(total))
      .str();
}

void mlir::onnxq::printFallbackSummary(const FallbackResult &result,
                                       raw_ostream &os) {
  os << "onnx-quantize: accuracy fallback kept " << result.kept.size()
     << " layer" << (result.kept.size() == 1 ? "" : "s") << " in float";
  if (!result.kept.empty())
    os << " ("
       << llvm::join(llvm::map_range(result.kept,
                                     [](const FallbackStep &s) { return s.node; }),
                     ", ")
       << ")";
  os << ": model output SQNR " << formatDecibels(result.baseSQNR) << " -> "
     << formatDecibels(result.getFinalSQNR()) << " dB, run time "
     << formatMs(result.baseMs) << " -> " << formatMs(result.getFinalMs())
     << " ms per sample (float " << formatMs(result.floatMs) << " ms), on "
     << result.samples << " samples";
  if (result.sqnrFloor && !result.reachedFloor())
    os << "; the floor of " << formatDecibels(*result.sqnrFloor)
       << " dB was NOT reached";
  os << "\n";
}

void QuantizationReport::sort() {
  // Ties (e.g. several +inf) in node order, whatever the sort's stability.
  llvm::sort(layers, [](const LayerReport &a, const LayerReport &b) {
    double ka = sortKey(a), kb = sortKey(b);
    return ka != kb ? ka < kb : a.node < b.node;
  });
}

void QuantizationReport::printTable(raw_ostream &os) const {
  os << "# onnx-quantize report (" << settings << ")\n"
     << "# SQNR = 20 log10(|x| / |x - x_q|) dB (as ONNX Runtime's "
        "qdq_loss_debug), worst first\n"
     << "# weight: float weights vs their stored integers dequantized\n";
  if (activationsMeasured)
    os << "# activation: the layer's output, quantized graph vs float graph "
          "(errors accumulate), on "
       << samples << " samples of '" << data << "' (" << dataFormat << ")\n"
       << "# local: the error of the layer's output Q/DQ alone\n";
  else
    os << "# activation, local: not measured (" << activationNote << ")\n";
  os << llvm::format("%-40s %-18s %12s %-12s %12s %10s\n", "layer", "op",
                     "weight SQNR", "", "activation", "local");
  for (const LayerReport &layer : layers)
    os << llvm::format("%-40s %-18s %12s %-12s %12s %10s\n",
                       formatLayer(layer.node, layer.folded).c_str(), layer.opType.c_str(),
                       formatDecibels(layer.weightSQNR).c_str(),
                       layer.weightGranularity.c_str(),
                       formatDecibels(layer.activationSQNR).c_str(),
                       formatDecibels(layer.localSQNR).c_str());
  auto printEndpoints = [&](StringRef what, ArrayRef<EndpointSQNR> endpoints) {
    os << "# " << what << ":";
    for (const EndpointSQNR &endpoint : endpoints)
      os << " " << endpoint.name << " " << formatDecibels(endpoint.sqnr)
         << " dB";
  };
  if (!inputs.empty()) {
    printEndpoints("model inputs, their own Q/DQ", inputs);
    os << "\n";
  }
  if (!outputs.empty()) {
    printEndpoints("model outputs, against the float model", outputs);
    if (top1Agreement)
      os << "; top-1 agrees on " << *top1Agreement << " of " << samples
         << " samples";
    os << "\n";
  }
  if (!labelsFile.empty()) {
    os << "# top-1 on the " << labeledSamples << " samples labeled in '"
       << labelsFile << "'";
    if (labeledSamples)
      os << ": float " << formatTop1(floatTop1, labeledSamples) << ", int8 "
         << formatTop1(quantizedTop1, labeledSamples);
    os << "\n";
  }
  if (!passThrough.empty()) {
    os << "\n# keep their input's scale (no error of their own): "
       << passThrough.size() << " ops\n";
    for (const FloatOpReport &op : passThrough)
      os << llvm::format("%-40s %s\n", op.node.c_str(), op.opType.c_str());
  }
  if (fallback)
    printFallbackTable(*fallback, os);
  os << "\n# stayed float: " << floatOps.size() << " ops\n";
  if (floatOps.empty())
    return;
  os << llvm::format("%-40s %-18s %s\n", "node", "op", "reason");
  for (const FloatOpReport &op : floatOps)
    os << llvm::format("%-40s %-18s %s\n", op.node.c_str(), op.opType.c_str(),
                       op.reason.c_str());
}

void QuantizationReport::printJSON(raw_ostream &os) const {
  llvm::json::Array layerArray;
  for (const LayerReport &layer : layers) {
    llvm::json::Object object{{"node", layer.node},
                              {"op", layer.opType},
                              {"weight_sqnr", decibelsToJSON(layer.weightSQNR)},
                              {"activation_sqnr", decibelsToJSON(layer.activationSQNR)},
                              {"local_sqnr", decibelsToJSON(layer.localSQNR)}};
    if (!layer.weightGranularity.empty())
      object["weight_granularity"] = layer.weightGranularity;
    if (!layer.folded.empty())
      object["folded"] = layer.folded;
    layerArray.push_back(std::move(object));
  }
  llvm::json::Array floatArray;
  for (const FloatOpReport &op : floatOps)
    floatArray.push_back(llvm::json::Object{
        {"node", op.node}, {"op", op.opType}, {"reason", op.reason}});
  llvm::json::Array passThroughArray;
  for (const FloatOpReport &op : passThrough)
    passThroughArray.push_back(
        llvm::json::Object{{"node", op.node}, {"op", op.opType}});
  llvm::json::Object activations{{"measured", activationsMeasured}};
  if (activationsMeasured) {
    activations["data"] = data;
    activations["format"] = dataFormat;
    activations["samples"] = int64_t(samples);
    auto toArray = [](ArrayRef<EndpointSQNR> endpoints) {
      llvm::json::Array array;
      for (const EndpointSQNR &endpoint : endpoints)
        array.push_back(llvm::json::Object{
            {"name", endpoint.name}, {"sqnr", decibelsToJSON(endpoint.sqnr)}});
      return array;
    };
    activations["inputs"] = toArray(inputs);
    activations["outputs"] = toArray(outputs);
    if (top1Agreement)
      activations["top1_agreement"] = int64_t(*top1Agreement);
    if (!labelsFile.empty())
      activations["top1"] = llvm::json::Object{
          {"labels", labelsFile},
          {"labeled_samples", int64_t(labeledSamples)},
          {"float_correct", int64_t(floatTop1)},
          {"quantized_correct", int64_t(quantizedTop1)}};
  } else {
    activations["note"] = activationNote;
  }
  llvm::json::Object root{{"format", "onnx-quant quantization report 1"},
                          {"settings", settings},
                          {"activations", std::move(activations)},
                          {"layers", std::move(layerArray)},
                          {"pass_through", std::move(passThroughArray)},
                          {"float_ops", std::move(floatArray)}};
  if (fallback) {
    llvm::json::Array kept;
    for (const FallbackStep &step : fallback->kept)
      kept.push_back(llvm::json::Object{{"node", step.node},
                                        {"alone_sqnr", decibelsToJSON(step.aloneSQNR)},
                                        {"output_sqnr", decibelsToJSON(step.sqnr)},
                                        {"run_ms", step.ms}});
    llvm::json::Object object{
        {"data", fallback->data},
        {"format", fallback->dataFormat},
        {"samples", int64_t(fallback->samples)},
        {"candidates", int64_t(fallback->candidates)},
        {"float_run_ms", fallback->floatMs},
        {"quantized_output_sqnr", decibelsToJSON(fallback->baseSQNR)},
        {"quantized_run_ms", fallback->baseMs},
        {"kept", std::move(kept)},
        {"rejected", llvm::json::Array(fallback->rejected)},
        {"output_sqnr", decibelsToJSON(fallback->getFinalSQNR())},
        {"run_ms", fallback->getFinalMs()},
        {"floor_reached", fallback->reachedFloor()}};
    if (fallback->sqnrFloor)
      object["sqnr_floor"] = *fallback->sqnrFloor;
    if (fallback->maxFloatLayers)
      object["max_float_layers"] = *fallback->maxFloatLayers;
    root["fallback"] = std::move(object);
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

void QuantizationReport::printSummary(raw_ostream &os, StringRef file) const {
  os << "onnx-quantize: " << layers.size() << " layers quantized, "
     << floatOps.size() << " ops float";
  const LayerReport *worstWeight = nullptr;
  for (const LayerReport &layer : layers)
    if (layer.weightSQNR &&
        (!worstWeight || *layer.weightSQNR < *worstWeight->weightSQNR))
      worstWeight = &layer;
  if (worstWeight)
    os << "; worst weight SQNR " << formatDecibels(*worstWeight->weightSQNR)
       << " dB ('" << worstWeight->node << "')";
  if (activationsMeasured && !layers.empty() && layers.front().activationSQNR)
    os << ", worst activation SQNR "
       << formatDecibels(*layers.front().activationSQNR) << " dB ('"
       << layers.front().node << "', " << samples << " samples)";
  else
    os << "; activations not measured";
  os << "; report in " << file << "\n";
}
