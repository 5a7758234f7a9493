//===- Statistics.h - streamed tensor statistics and range choice -*- C++ -*-===//
//
// Per observed tensor: exact min and max, and a histogram of |x| over
// [0, width * kBins) whose bin width doubles (merging bin pairs) whenever a
// sample exceeds it. Memory is constant per tensor, whatever the number of
// samples; one pass over the data suffices.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CALIBRATION_STATISTICS_H
#define ONNXQUANT_LIB_CALIBRATION_STATISTICS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>

namespace mlir::onnxq {

enum class RangeMethod { MinMax, Entropy, Percentile, MSE };

std::optional<RangeMethod> parseRangeMethod(StringRef name);
StringRef getRangeMethodName(RangeMethod method);

struct Range {
  float min = 0, max = 0;
};

class TensorStatistics {
public:
  static constexpr int kBins = 2048;

  /// Without the histogram only min and max are kept (enough for minmax).
  explicit TensorStatistics(bool withHistogram = true)
      : withHistogram(withHistogram) {}

  /// Adds the elements of one sample; non-finite values are not counted
  /// (the caller reports them).
  void add(ArrayRef<float> values);

  bool empty() const { return count == 0; }
  int64_t getCount() const { return count; }
  float getMin() const { return min; }
  float getMax() const { return max; }

  /// The range to quantize with. Non-negative tensors get [0, t]; signed ones
  /// the symmetric [-t, t] for the histogram methods. `bits` sets the number
  /// of levels the entropy and MSE methods optimize for; the entropy
  /// threshold is at least the `entropyFloor` percentile of |x| (0: none).
  Range selectRange(RangeMethod method, double percentile, unsigned bits,
                    double entropyFloor = 0) const;

private:
  void widenTo(float absMax);
  /// add() for a sample with Inf or NaN values (rare: element by element).
  void addWithNonFinite(ArrayRef<float> values);
  double binWidth() const { return width; }
  float entropyThreshold(unsigned levels) const;
  float percentileThreshold(double percentile) const;
  float mseThreshold(unsigned levels) const;

  bool withHistogram;
  int64_t count = 0;
  /// Exact zeros (ReLU outputs are half zeros): every quantization represents
  /// them exactly, so they stay out of the histogram the entropy and MSE
  /// methods fit, but count for percentiles.
  int64_t zeros = 0;
  float min = 0, max = 0;
  double width = 0; // bin width; 0 until a non-zero magnitude is seen
  std::array<int64_t, kBins> histogram{};
};

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CALIBRATION_STATISTICS_H
