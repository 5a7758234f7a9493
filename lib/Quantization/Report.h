//===- Report.h - per-layer quantization error report -----------*- C++ -*-===//
//
// `--onnx-quantize="report=FILE"`: for every quantized layer, the
// signal-to-quantization-noise ratio of its weights and of its output
// activation, and why the other ops stayed float. SQNR is ONNX Runtime's
// (onnxruntime.quantization.qdq_loss_debug):
//   SQNR = 20 log10(||x|| / ||x - x_q||) dB
// over all elements (and all samples) together; x == x_q gives +inf.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_REPORT_H
#define ONNXQUANT_LIB_QUANTIZATION_REPORT_H

#include "FloatFallback.h"
#include "QuantizationError.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxq {
class OutputFile;

/// A layer's float weights per channel (one entry when per tensor) and the
/// range their integers represent there.
struct WeightRanges {
  std::vector<float> min, max;
  std::vector<float> rangeLo, rangeHi;
};

/// One quantized layer (a compute op that got Q/DQ on its output).
struct LayerReport {
  std::string node, opType;
  std::string folded; ///< the Relu/Clip folded into its output range, if any
  std::optional<double> weightSQNR; ///< layers with constant weights
  std::string weightGranularity;    ///< "per-channel" or "per-tensor"
  std::optional<WeightRanges> weightRanges;
  std::optional<double> activationSQNR; ///< when samples were run
  /// The error this layer's output Q/DQ adds by itself: its input x in the
  /// quantized graph (through the folded Relu/Clip) against DQ(Q(x)).
  std::optional<double> localSQNR;
  /// The float output's values around its quantization range.
  std::optional<RangeHistogram> histogram;
};

/// A graph input or output and its SQNR: an input's own Q/DQ, an output
/// against the float model's.
struct EndpointSQNR {
  std::string name;
  double sqnr = 0;
};

/// An op that stayed float, and why.
struct FloatOpReport {
  std::string node, opType, reason;
};

struct QuantizationReport {
  std::string settings; ///< the pass and its options
  /// How activations were measured ("data", samples, format), or why not.
  bool activationsMeasured = false;
  std::string data, dataFormat, activationNote;
  size_t samples = 0;
  std::vector<LayerReport> layers; ///< worst first once sorted
  std::vector<EndpointSQNR> inputs, outputs; ///< when samples were run
  /// Samples whose float and quantized outputs have the same arg max (a
  /// model with one output of shape [1, classes]).
  std::optional<size_t> top1Agreement;
  /// report-labels=: the samples run that have a label, and how many of them
  /// the float and the quantized model classify right.
  std::string labelsFile;
  size_t labeledSamples = 0, floatTop1 = 0, quantizedTop1 = 0;
  std::vector<FloatOpReport> floatOps;
  /// Quantized data-movement ops (MaxPool, Reshape, ...): they keep their
  /// input's scale, so they add no error of their own.
  std::vector<FloatOpReport> passThrough;
  /// sqnr-floor= / max-float-layers=: what the accuracy fallback measured.
  std::optional<FallbackResult> fallback;

  /// Worst first: by activation SQNR when measured, else by weight SQNR.
  void sort();
  void printTable(raw_ostream &os) const;
  void printJSON(raw_ostream &os) const;
  /// One self-contained page: inline SVG charts, no script, no network.
  void printHTML(raw_ostream &os) const;
  /// One line for stderr.
  void printSummary(raw_ostream &os, StringRef file) const;
};

/// "7 of 8 (87.50 %)".
std::string formatTop1(size_t correct, size_t total);

/// What the accuracy fallback did, in a few lines.
void printFallbackSummary(const FallbackResult &result, raw_ostream &os);

/// The samples the quantization error is measured on: `data` (with
/// `preprocess`), else the data --onnx-calibrate recorded on the module;
/// `data` empty and `note` saying why when there are none.
struct MeasurementData {
  std::string data, preprocess, note;

  /// `samples` of `data` (a seeded subset; fewer is fine), with the image
  /// preprocessing parsed; errors are prefixed by `user`.
  FailureOr<SampleSpec> getSampleSpec(int64_t samples, StringRef user,
                                      Location loc) const;
};
MeasurementData chooseMeasurementData(ModuleOp module, StringRef data,
                                      StringRef preprocess);

/// Collects the report while `--onnx-quantize` runs: a copy of the float
/// graph is kept from the start, so that weights and activations can be
/// compared with their quantized form once the pass is done.
class ReportBuilder {
public:
  struct Options {
    std::string file;       ///< report=
    std::string data;       ///< report-data= (else the calibration's)
    std::string preprocess; ///< report-preprocess=
    int64_t samples = 8;    ///< report-samples=
    std::string labels;     ///< report-labels=
    bool quiet = false;
    std::string settings;
  };

  /// Checks the options and opens the file (so a bad path fails before
  /// any work; nothing is left behind on failure).
  static FailureOr<std::unique_ptr<ReportBuilder>>
  create(ModuleOp module, func::FuncOp func, Options options);
  ~ReportBuilder();

  /// Before the rewrite: the quantized layers, the Relu/Clip ops folded into
  /// them, and `floatReason` (empty: candidate) for every other op.
  void recordDecisions(func::FuncOp func, ArrayRef<Operation *> layers,
                       ArrayRef<Operation *> folded,
                       const DenseSet<Operation *> &quantized,
                       function_ref<StringRef(Operation *)> floatReason);

  void setFallback(FallbackResult result) { report.fallback = std::move(result); }

  /// After the rewrite: measures the SQNRs and writes the report.
  LogicalResult finish(ModuleOp module, func::FuncOp func);

private:
  ReportBuilder(Options options, Location loc);
  LogicalResult measureActivations(ModuleOp module, func::FuncOp func);
  /// The data directory and preprocessing to use, if any.
  void chooseData(ModuleOp module);
  /// Reads report-labels= into `labels`.
  LogicalResult readLabels(Location loc);

  Options options;
  Location loc;
  llvm::StringMap<int64_t> labels; ///< report-labels=, by sample file name
  std::unique_ptr<OutputFile> file;
  OwningOpRef<ModuleOp> floatModule;
  func::FuncOp floatFunc;
  IRMapping toFloat; ///< original values and ops -> the float copy
  struct Layer {
    Operation *op;       ///< in the quantized graph
    Operation *floatOp;  ///< its copy in the float graph
    Value floatActivation; ///< the float tensor its output stands for
    /// The folded Relu/Clip as a clamp of the layer's output.
    float lo = -std::numeric_limits<float>::infinity();
    float hi = std::numeric_limits<float>::infinity();
  };
  std::vector<Layer> layers;
  QuantizationReport report;
  MeasurementData measurementData; ///< chosen by chooseData

};

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_REPORT_H
