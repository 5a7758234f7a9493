//===- QuantizationError.h - measuring what quantization changed -*- C++ -*-===//
//
// What the quantization report (`--onnx-quantize="report=..."`) and
// onnx-quant-debug share: a float graph and a quantized graph of it run
// side by side on the same samples (JIT, as --emit=obj lowers them), and
// chosen tensors of the two are compared. SQNR is ONNX Runtime's
// (onnxruntime.quantization.qdq_loss_debug):
//   SQNR = 20 log10(||x|| / ||x - x_q||) dB
// over all elements (and all samples) together; x == x_q gives +inf.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_QUANTIZATIONERROR_H
#define ONNXQUANT_LIB_QUANTIZATION_QUANTIZATIONERROR_H

#include "ScaleAndZeroPoint.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Execution/SampleBatches.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxq {

/// Accumulates ||x||^2 and ||x - x_q||^2 over any number of tensors.
class SQNR {
public:
  void add(ArrayRef<float> x, ArrayRef<float> xq);
  /// In dB; +inf when x == x_q everywhere.
  double getDecibels() const;

private:
  double signal = 0, noise = 0;
};

/// "inf", "-inf", or the value in dB with two decimals; "-" for none.
std::string formatDecibels(double db);
std::string formatDecibels(const std::optional<double> &db);
/// JSON numbers cannot be infinite: those become the strings "inf"/"-inf";
/// none is null.
llvm::json::Value decibelsToJSON(const std::optional<double> &db);

/// A quantized layer as the reports name it: its node, and the Relu/Clip
/// folded into its output range: "conv1 (+relu1)".
std::string formatLayer(StringRef node, StringRef folded);

/// The smallest and largest value of an integer type.
std::pair<int64_t, int64_t> getIntegerBounds(IntegerType type);

/// Integers `x` to dequantize with `scale` and the optional `zeroPoint`,
/// per tensor or per index along `axis`: a DequantizeLinear's operands, or
/// a QOperator op's weight and its parameters.
struct QuantizedTensor {
  Value x, scale, zeroPoint;
  int64_t axis = 1;
  /// > 0: a scale per this many elements along `axis` (opset 21's blocks).
  int64_t blockSize = 0;

  static QuantizedTensor of(DequantizeLinearOp dq) {
    return {dq.getX(), dq.getXScale(), dq.getXZeroPoint(), dq.getAxis(),
            dq.getBlockSize()};
  }
};

/// The constant parameters of a QuantizedTensor: one scale and zero point
/// per tensor, per index along its axis, or per block along it.
struct DequantizeParameters {
  SmallVector<float> scales;
  SmallVector<int64_t> zeroPoints;
  int64_t qmin = 0, qmax = 0; ///< of the quantized type
  AxisLayout layout;          ///< one channel: per tensor

  static std::optional<DequantizeParameters> get(const QuantizedTensor &tensor);
  /// The parameters' index of `element`.
  size_t getChannel(size_t element) const {
    return layout.getParameterIndex(int64_t(element));
  }
};

/// The float value of a QuantizedTensor of constants, as DequantizeLinear
/// computes it, or nullopt.
std::optional<SmallVector<float>>
dequantizeConstant(const QuantizedTensor &tensor);

/// A Relu or Clip (with constant bounds) as the clamp [lo, hi].
std::pair<float, float> getClampBounds(Operation *activation);

/// A float tensor's values around the range its quantization can represent:
/// equal-width bins over the range widened by half its width on each side,
/// with what falls outside that window counted apart.
class RangeHistogram {
public:
  static constexpr int kBins = 64;
  RangeHistogram(float rangeLo, float rangeHi);

  void add(ArrayRef<float> values);

  float getRangeLo() const { return rangeLo; }
  float getRangeHi() const { return rangeHi; }
  float getWindowLo() const { return windowLo; }
  float getWindowHi() const { return windowHi; }
  ArrayRef<uint64_t> getBins() const { return bins; }
  uint64_t getBelowWindow() const { return below; }
  uint64_t getAboveWindow() const { return above; }
  uint64_t getTotal() const { return total; }
  /// Values outside [rangeLo, rangeHi]: clipped by the quantization.
  uint64_t getClipped() const { return clipped; }
  double getClippedFraction() const {
    return total ? double(clipped) / double(total) : 0.0;
  }

private:
  float rangeLo, rangeHi, windowLo, windowHi;
  std::vector<uint64_t> bins;
  uint64_t below = 0, above = 0, clipped = 0, total = 0;
};

/// One quantized tensor to measure.
struct MeasuredTensor {
  MeasuredTensor(std::string name, Value floatValue, Value dequantized,
                 Value quantizerInput = nullptr)
      : name(std::move(name)), floatValue(floatValue),
        dequantized(dequantized), quantizerInput(quantizerInput) {}

  std::string name;
  /// In the float graph: the tensor the quantized one stands for.
  Value floatValue;
  /// In the quantized graph: its dequantized value (a DequantizeLinear).
  Value dequantized;
  /// In the quantized graph: the float tensor its QuantizeLinear reads, for
  /// the local error; null when there is none (a QOperator output).
  Value quantizerInput;
  /// A Relu/Clip folded into the quantization range: the local error
  /// compares DQ(Q(x)) with clamp(x, lo, hi), not with x, so that the
  /// clipping the activation does anyway is not counted as error.
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
  /// The range the quantized tensor can represent: when given, the float
  /// tensor's values are histogrammed around it.
  std::optional<std::pair<float, float>> range;
  /// Record, per sample, where the float and the dequantized tensor have
  /// their largest element (a classifier's top-1; one tensor at most).
  bool compareArgMax = false;
};

struct MeasuredErrors {
  size_t samples = 0; ///< samples run (0: none was usable)
  std::string format; ///< of the data directory
  /// Per tensor, the dequantized tensor against the float graph's ("xmodel"
  /// in qdq_loss_debug: errors accumulate along the graph).
  std::vector<double> activation;
  /// Per tensor with a quantizerInput, DQ(Q(x)) against x ("qdq_err": the
  /// tensor's own quantization error).
  std::vector<std::optional<double>> local;
  /// Per tensor with a range, the float tensor's histogram around it.
  std::vector<std::optional<RangeHistogram>> histograms;
  /// Per sample, for the tensor with compareArgMax.
  struct ArgMax {
    std::string sample; ///< its file or folder
    int64_t floatArgMax, quantizedArgMax;
  };
  std::vector<ArgMax> argMaxes;
};

/// The range a QuantizeLinear's integers represent, dequantized: [(qmin -
/// zp) * scale, (qmax - zp) * scale] for a per-tensor scale and zero point;
/// nullopt when they are not constants.
std::optional<std::pair<float, float>>
getRepresentableRange(QuantizeLinearOp quantize);

/// Runs `floatFunc` and `quantizedFunc` on the samples of `spec` and measures
/// `tensors`. The quantized graph runs twice: lowered as --emit=obj lowers it
/// (QDQ islands fused into integer kernels) for the activation error, and
/// with its Q/DQ in float (observing a QuantizeLinear's input keeps
/// --onnx-fuse-qdq from fusing it) for the local one. Errors are prefixed
/// by `user`.
FailureOr<MeasuredErrors>
measureQuantizationErrors(ModuleOp floatModule, func::FuncOp floatFunc,
                          ModuleOp quantizedModule, func::FuncOp quantizedFunc,
                          ArrayRef<MeasuredTensor> tensors,
                          const SampleSpec &spec, StringRef user, Location loc);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_QUANTIZATIONERROR_H
