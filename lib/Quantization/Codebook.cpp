//===- Codebook.cpp - equal-population weight codebooks -------------------===//

#include "Codebook.h"
#include "ScaleAndZeroPoint.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The positions of the weights of each group (a slice along the channel
/// axis, or all of them), in order.
SmallVector<SmallVector<int64_t>> getGroups(size_t count, ArrayRef<int64_t> shape,
                                            std::optional<int64_t> channelAxis) {
  AxisLayout layout = AxisLayout::get(shape, channelAxis);
  SmallVector<SmallVector<int64_t>> groups(layout.size);
  for (int64_t i = 0; i < int64_t(count); ++i)
    groups[layout.getChannel(i)].push_back(i);
  return groups;
}

/// Which of `levels` runs each weight of the group falls in: by rank (EWQ):
/// weight r of n in value order goes to run r * levels / n.
SmallVector<int64_t> assignByRank(ArrayRef<float> values, int64_t levels) {
  SmallVector<int64_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  // Ties in position order (a stable sort without libstdc++'s deprecated
  // temporary buffer).
  llvm::sort(order, [&](int64_t a, int64_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  SmallVector<int64_t> run(values.size());
  for (auto [rank, i] : llvm::enumerate(order))
    run[i] = int64_t(rank) * levels / int64_t(values.size());
  return run;
}

/// The same runs from a histogram over the group's range (FastEWQ): a bin
/// goes to the run of the count of weights below its middle; a weight goes
/// to the run of its bin. Bins: 64 per level, at most one per 4 weights (at
/// least 4 per level), so that the histogram stays cheaper than a sort.
SmallVector<int64_t> assignByHistogram(ArrayRef<float> values, int64_t levels) {
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  float low = *lo, span = *hi - *lo;
  int64_t bins = std::clamp<int64_t>(int64_t(values.size()) / 4, 4 * levels, 64 * levels);
  auto binOf = [&](float v) {
    if (!(span > 0))
      return int64_t(0);
    return std::min(bins - 1, int64_t(double(v - low) / double(span) * double(bins)));
  };
  SmallVector<int64_t> counts(bins, 0);
  for (float v : values)
    ++counts[binOf(v)];
  SmallVector<int64_t> runOfBin(bins);
  int64_t seen = 0, n = int64_t(values.size());
  for (int64_t b = 0; b < bins; ++b) {
    int64_t middle = seen + counts[b] / 2;
    runOfBin[b] = std::min(levels - 1, middle * levels / std::max<int64_t>(n, 1));
    seen += counts[b];
  }
  return llvm::map_to_vector(values, [&](float v) { return runOfBin[binOf(v)]; });
}

} // namespace

CodebookWeights mlir::onnxq::computeCodebook(ArrayRef<float> weights,
                                             ArrayRef<int64_t> shape,
                                             std::optional<int64_t> channelAxis,
                                             unsigned bits, CodebookMethod method) {
  int64_t levels = int64_t(1) << bits;
  CodebookWeights result;
  result.indices.resize(weights.size());
  for (ArrayRef<int64_t> group : getGroups(weights.size(), shape, channelAxis)) {
    SmallVector<float> values =
        llvm::map_to_vector(group, [&](int64_t i) { return weights[i]; });
    SmallVector<int64_t> runs = method == CodebookMethod::EWQ
                                    ? assignByRank(values, levels)
                                    : assignByHistogram(values, levels);
    // Each level: the mean of its run (an empty run, possible with FastEWQ
    // or fewer weights than levels, takes its neighbour below, or 0).
    SmallVector<double> sums(levels, 0.0);
    SmallVector<int64_t> counts(levels, 0);
    for (auto [v, run] : llvm::zip(values, runs)) {
      sums[run] += v;
      ++counts[run];
    }
    float previous = 0.0f;
    for (int64_t l = 0; l < levels; ++l) {
      float level = counts[l] ? float(sums[l] / double(counts[l])) : previous;
      result.levels.push_back(level);
      previous = level;
    }
    for (auto [i, run] : llvm::zip(group, runs))
      result.indices[i] = run;
  }
  return result;
}

SmallVector<float> mlir::onnxq::decodeCodebook(const CodebookWeights &codebook,
                                               ArrayRef<int64_t> shape,
                                               std::optional<int64_t> channelAxis,
                                               unsigned bits) {
  int64_t levels = int64_t(1) << bits;
  SmallVector<float> weights(codebook.indices.size());
  for (auto [g, group] :
       llvm::enumerate(getGroups(codebook.indices.size(), shape, channelAxis)))
    for (int64_t i : group)
      weights[i] = codebook.levels[g * levels + codebook.indices[i]];
  return weights;
}
