//===- PruneReport.h - per-layer pruning statistics -------------*- C++ -*-===//

#ifndef ONNXQUANT_LIB_TRANSFORMS_PRUNEREPORT_H
#define ONNXQUANT_LIB_TRANSFORMS_PRUNEREPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::onnxq {

/// One pruned (or considered) weight tensor.
struct PruneLayerStats {
  std::string node, opType, shape, shapeAfter;
  int64_t elements = 0, zerosBefore = 0, zerosAfter = 0;
  /// Structured pruning only: output channels and multiply-accumulates per
  /// inference, before and after.
  int64_t channelsBefore = 0, channelsAfter = 0, macsBefore = 0, macsAfter = 0;
  /// Structured pruning, a layer whose output channels were pruned: the
  /// indices (into the original channels) of those it keeps, ascending.
  std::vector<int64_t> channelsKept;
  /// Why the layer was left alone, empty when it was pruned.
  std::string skipped;
};

struct PruneReport {
  std::string settings; // the pass options, for the report's header
  bool structured = false;
  SmallVector<PruneLayerStats> layers;

  /// The summary lines for stderr.
  void printSummary(raw_ostream &os) const;
  /// A fixed-width table (or JSON) of every layer and the model total.
  void printTable(raw_ostream &os) const;
  void printJSON(raw_ostream &os) const;
};

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_TRANSFORMS_PRUNEREPORT_H
