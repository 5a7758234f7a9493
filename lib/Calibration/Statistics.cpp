//===- Statistics.cpp - streamed tensor statistics and range choice -------===//

#include "Statistics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::onnxq;

std::optional<RangeMethod> mlir::onnxq::parseRangeMethod(StringRef name) {
  return llvm::StringSwitch<std::optional<RangeMethod>>(name)
      .Case("minmax", RangeMethod::MinMax)
      .Case("entropy", RangeMethod::Entropy)
      .Case("percentile", RangeMethod::Percentile)
      .Case("mse", RangeMethod::MSE)
      .Default(std::nullopt);
}

StringRef mlir::onnxq::getRangeMethodName(RangeMethod method) {
  switch (method) {
  case RangeMethod::MinMax:
    return "minmax";
  case RangeMethod::Entropy:
    return "entropy";
  case RangeMethod::Percentile:
    return "percentile";
  case RangeMethod::MSE:
    return "mse";
  }
  llvm_unreachable("unknown range method");
}

void TensorStatistics::widenTo(float absMax) {
  if (width == 0) {
    // The largest magnitude lands in the last bin. At least the smallest
    // normal float: the bins multiply by float(1 / width), which must stay
    // finite (subnormal samples, 1e-40, made it inf, and 0 * inf a NaN bin
    // index).
    width = std::max(double(absMax) / kBins * (1 + 1e-6),
                     double(std::numeric_limits<float>::min()));
    return;
  }
  while (width * kBins <= absMax) {
    for (int i = 0; i < kBins / 2; ++i)
      histogram[i] = histogram[2 * i] + histogram[2 * i + 1];
    std::fill(histogram.begin() + kBins / 2, histogram.end(), 0);
    width *= 2;
  }
}

namespace {
/// Lanes of the independent accumulators below: enough for the compiler to
/// keep them in vector registers (min/max of floats are not reassociable, so
/// one scalar accumulator would not vectorize).
constexpr size_t kLanes = 16;

struct Extremes {
  float lo, hi;
  bool allFinite;
};

/// min and max of `values`, and whether they are all finite (then min and max
/// are exact; otherwise the caller takes the slow path).
Extremes scan(ArrayRef<float> values) {
  float lo[kLanes], hi[kLanes];
  uint32_t special[kLanes];
  for (size_t j = 0; j < kLanes; ++j) {
    lo[j] = std::numeric_limits<float>::infinity();
    hi[j] = -lo[j];
    special[j] = 0;
  }
  size_t n = values.size(), i = 0;
  const float *v = values.data();
  for (; i + kLanes <= n; i += kLanes)
    for (size_t j = 0; j < kLanes; ++j) {
      float x = v[i + j];
      uint32_t bits;
      std::memcpy(&bits, &x, sizeof(bits));
      special[j] |= (bits & 0x7f800000u) == 0x7f800000u; // Inf or NaN
      lo[j] = x < lo[j] ? x : lo[j];
      hi[j] = x > hi[j] ? x : hi[j];
    }
  Extremes result{lo[0], hi[0], true};
  for (size_t j = 0; j < kLanes; ++j) {
    result.lo = std::min(result.lo, lo[j]);
    result.hi = std::max(result.hi, hi[j]);
    result.allFinite &= !special[j];
  }
  for (; i < n; ++i) {
    result.allFinite &= std::isfinite(v[i]);
    result.lo = std::min(result.lo, v[i]);
    result.hi = std::max(result.hi, v[i]);
  }
  return result;
}
} // namespace

/// The histogram bin of magnitude `a` (bins of width 1 / inverse).
static int32_t binOf(float a, float inverse) {
  return int32_t(std::min(a * inverse, float(TensorStatistics::kBins - 1)));
}

void TensorStatistics::add(ArrayRef<float> values) {
  Extremes extremes = scan(values);
  if (!extremes.allFinite) {
    addWithNonFinite(values);
    return;
  }
  if (values.empty())
    return;
  float lo = extremes.lo, hi = extremes.hi;
  min = count ? std::min(min, lo) : lo;
  max = count ? std::max(max, hi) : hi;
  count += values.size();
  if (!withHistogram)
    return;
  float absMax = std::max(std::fabs(lo), std::fabs(hi));
  if (absMax > 0 && (width == 0 || width * kBins <= absMax))
    widenTo(absMax);
  if (width == 0) { // all zeros so far
    zeros += values.size();
    return;
  }
  // Bin indices in chunks (a loop the compiler vectorizes: a product with
  // the inverse width, in float; only values within rounding of a bin edge
  // can land in the neighbouring bin), then counted round-robin into four
  // histograms: ReLU outputs put runs of values into bin 0, and increments
  // of one counter would wait on each other. Exact zeros land in bin 0 and
  // are moved to `zeros` afterwards.
  constexpr size_t kChunk = 1024, kWays = 4;
  int32_t bins[kChunk];
  std::vector<uint32_t> counts(kWays * kBins, 0);
  int64_t zerosHere = 0;
  const float inverse = float(1 / width);
  const float *v = values.data();
  for (size_t start = 0; start < values.size(); start += kChunk) {
    size_t n = std::min(kChunk, values.size() - start);
    int32_t zerosInChunk = 0; // 32-bit: the loop vectorizes 4 floats wide
    for (size_t i = 0; i < n; ++i) {
      float a = std::fabs(v[start + i]);
      zerosInChunk += a == 0;
      bins[i] = binOf(a, inverse);
    }
    zerosHere += zerosInChunk;
    size_t i = 0;
    for (; i + kWays <= n; i += kWays)
      for (size_t way = 0; way < kWays; ++way)
        ++counts[way * kBins + bins[i + way]];
    for (; i < n; ++i)
      ++counts[bins[i]];
  }
  for (int b = 0; b < kBins; ++b)
    for (size_t way = 0; way < kWays; ++way)
      histogram[b] += counts[way * kBins + b];
  histogram[0] -= zerosHere;
  zeros += zerosHere;
}

void TensorStatistics::addWithNonFinite(ArrayRef<float> values) {
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (float v : values)
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (lo > hi) // nothing finite
    return;
  min = count ? std::min(min, lo) : lo;
  max = count ? std::max(max, hi) : hi;
  float absMax = std::max(std::fabs(lo), std::fabs(hi));
  if (withHistogram && absMax > 0 && (width == 0 || width * kBins <= absMax))
    widenTo(absMax);
  for (float v : values) {
    if (!std::isfinite(v))
      continue;
    ++count;
    if (v == 0) { // exact under any quantization: kept out of the histogram
      ++zeros;
      continue;
    }
    if (withHistogram)
      ++histogram[binOf(std::fabs(v), float(1 / width))];
  }
}

/// KL divergence minimization (the TensorRT calibrator, as ONNX Runtime's
/// entropy method): for each candidate threshold of i bins, the reference
/// distribution P is the histogram clipped at i (outliers added to the last
/// bin) and Q is the same i bins merged into `levels` quantization bins and
/// spread evenly over the non-empty bins of each; an empty Q bin under a
/// non-empty P bin counts as 1e-9 (as ONNX Runtime smooths it).
///
/// Evaluated with prefix sums: Q is constant over the bins of a group, so
///   KL = (1/|P|) sum_b p_b (log p_b - log |P| - log q_b + log |Q|)
/// needs one logarithm per group instead of one per bin (|Q| is the count
/// below the threshold, |P| the total).
float TensorStatistics::entropyThreshold(unsigned levels) const {
  int64_t total = 0;
  for (int64_t h : histogram)
    total += h;
  if (total == 0 || width == 0)
    return 0;
  int lastNonEmpty = kBins - 1;
  while (lastNonEmpty > 0 && histogram[lastNonEmpty] == 0)
    --lastNonEmpty;
  if (lastNonEmpty + 1 <= int(levels))
    return float((lastNonEmpty + 1) * width); // no clipping needed
  // Over bins [0, b): counts, non-empty bins, and sum of h log h.
  std::vector<double> counts(kBins + 1, 0), hLogH(kBins + 1, 0);
  std::vector<int> nonEmpty(kBins + 1, 0);
  for (int b = 0; b < kBins; ++b) {
    double h = double(histogram[b]);
    counts[b + 1] = counts[b] + h;
    nonEmpty[b + 1] = nonEmpty[b] + (histogram[b] != 0);
    hLogH[b + 1] = hLogH[b] + (h > 0 ? h * std::log(h) : 0);
  }
  const double pSum = double(total), logPSum = std::log(pSum);
  const double logSmoothed = std::log(1e-9);
  double best = std::numeric_limits<double>::infinity();
  int bestBins = kBins;
  for (int i = levels; i <= kBins; ++i) {
    double qSum = counts[i];
    if (qSum == 0)
      continue;
    double logQSum = std::log(qSum);
    double last = double(histogram[i - 1]);
    // Bins below i - 1: p_b = h_b.
    double sum = hLogH[i - 1] + counts[i - 1] * (logQSum - logPSum);
    double logQLast = 0;
    for (unsigned j = 0; j < levels; ++j) {
      int start = int(int64_t(j) * i / levels);
      int end = int(int64_t(j + 1) * i / levels);
      int filled = nonEmpty[end] - nonEmpty[start];
      if (filled == 0)
        continue;
      double group = counts[end] - counts[start];
      double logQ = std::log(group / filled);
      // The last group holds bin i - 1, whose P also has the outliers.
      sum -= (j + 1 == levels ? group - last : group) * logQ;
      if (j + 1 == levels)
        logQLast = logQ;
    }
    // Bin i - 1: p = h + outliers; q = its group's mean, or 1e-9 if empty.
    double p = last + (pSum - qSum);
    if (p > 0)
      sum += p * (std::log(p) - logPSum -
                  (last > 0 ? logQLast - logQSum : logSmoothed));
    double kl = sum / pSum;
    if (kl < best) {
      best = kl;
      bestBins = i;
    }
  }
  return float(bestBins * width);
}

float TensorStatistics::percentileThreshold(double percentile) const {
  int64_t total = 0;
  for (int64_t h : histogram)
    total += h;
  total += zeros;
  double target = percentile / 100.0 * double(total);
  int64_t cumulative = zeros;
  if (double(cumulative) >= target)
    return 0;
  for (int b = 0; b < kBins; ++b) {
    cumulative += histogram[b];
    if (double(cumulative) >= target)
      return float((b + 1) * width);
  }
  return float(kBins * width);
}

/// Expected squared error of quantizing the histogram with `levels` steps up
/// to threshold t: rounding noise step^2/12 inside, clipping error outside
/// (bin centers stand for their values).
float TensorStatistics::mseThreshold(unsigned levels) const {
  // Suffix sums of h, h*c and h*c^2 for the clipped part.
  std::vector<double> sh(kBins + 1, 0), shc(kBins + 1, 0), shc2(kBins + 1, 0);
  for (int b = kBins - 1; b >= 0; --b) {
    double c = (b + 0.5) * width, h = double(histogram[b]);
    sh[b] = sh[b + 1] + h;
    shc[b] = shc[b + 1] + h * c;
    shc2[b] = shc2[b + 1] + h * c * c;
  }
  double best = std::numeric_limits<double>::infinity();
  int bestBins = kBins;
  for (int i = 1; i <= kBins; ++i) {
    double t = i * width, step = t / levels;
    double inside = (sh[0] - sh[i]) * step * step / 12;
    double clipped = shc2[i] - 2 * t * shc[i] + t * t * sh[i];
    if (inside + clipped < best) {
      best = inside + clipped;
      bestBins = i;
    }
  }
  return float(bestBins * width);
}

Range TensorStatistics::selectRange(RangeMethod method, double percentile,
                                    unsigned bits, double entropyFloor) const {
  assert((method == RangeMethod::MinMax || withHistogram) &&
         "histogram methods need the histogram");
  if (method == RangeMethod::MinMax || width == 0)
    return {min, max};
  bool nonNegative = min >= 0;
  unsigned levels = nonNegative ? (1u << bits) - 1 : (1u << (bits - 1)) - 1;
  float t = method == RangeMethod::Entropy      ? entropyThreshold(levels)
            : method == RangeMethod::Percentile ? percentileThreshold(percentile)
                                                : mseThreshold(levels);
  // KL alone may clip rare large values that matter (MNIST's first ReLU
  // loses 0.35 points top-1 to it; docs/calibration.md).
  if (method == RangeMethod::Entropy && entropyFloor > 0)
    t = std::max(t, percentileThreshold(entropyFloor));
  t = std::min(t, std::max(std::fabs(min), std::fabs(max)));
  return nonNegative ? Range{0, t} : Range{-t, t};
}
