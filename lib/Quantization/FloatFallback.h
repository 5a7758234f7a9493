//===- FloatFallback.h - keep the layers that cost accuracy in float -*- C++ -*-===//
//
// `--onnx-quantize="sqnr-floor=DB max-float-layers=N"`: which quantized
// layers to leave in float so that the model's outputs reach an SQNR floor
// against the float model. Every candidate is measured alone (the graph
// quantized with that one layer in float, lowered as --emit=obj lowers it,
// run on the samples); the layers that raise the output SQNR are then kept
// in float greedily, best first, each re-measured with the ones kept before
// it (the gains do not add up), until the floor or the limit is reached.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_FLOATFALLBACK_H
#define ONNXQUANT_LIB_QUANTIZATION_FLOATFALLBACK_H

#include "onnx-quant/Execution/SampleBatches.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxq {

struct FallbackOptions {
  std::optional<double> sqnrFloor;       ///< dB on the model's outputs
  std::optional<int64_t> maxFloatLayers; ///< at most this many layers
  SampleSpec samples;                    ///< what the models run on
  bool quiet = false;                    ///< no progress on stderr
};

/// One layer kept in float, in the order they were kept.
struct FallbackStep {
  std::string node;
  double aloneSQNR = 0; ///< output SQNR with only this layer in float
  double sqnr = 0;      ///< with it and the layers kept before it
  double ms = 0;        ///< median run time per sample then
};

struct FallbackResult {
  std::optional<double> sqnrFloor;
  std::optional<int64_t> maxFloatLayers;
  std::string data, dataFormat;
  size_t samples = 0;
  size_t candidates = 0;
  double floatMs = 0;             ///< the float model's median run time
  double baseSQNR = 0, baseMs = 0; ///< everything quantized
  std::vector<FallbackStep> kept;
  /// The candidates that raised the SQNR alone but not with the kept ones.
  std::vector<std::string> rejected;

  double getFinalSQNR() const { return kept.empty() ? baseSQNR : kept.back().sqnr; }
  double getFinalMs() const { return kept.empty() ? baseMs : kept.back().ms; }
  bool reachedFloor() const { return !sqnrFloor || getFinalSQNR() >= *sqnrFloor; }
};

/// Quantizes a copy of the float module with `floatNodes` (ONNX node names)
/// left in float; a null module when that quantizes exactly as everything
/// quantized does.
using QuantizeCopy = llvm::function_ref<FailureOr<OwningOpRef<ModuleOp>>(
    const llvm::StringSet<> &floatNodes)>;

/// Searches the layers (`candidates`, ONNX node names) to keep in float.
/// `floatModule` (range-annotated, not modified) is the reference.
FailureOr<FallbackResult> searchFloatFallback(ModuleOp floatModule,
                                              ArrayRef<std::string> candidates,
                                              QuantizeCopy quantize,
                                              const FallbackOptions &options,
                                              Location loc);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_FLOATFALLBACK_H
