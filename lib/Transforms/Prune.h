//===- Prune.h - shared by magnitude and structured pruning -----*- C++ -*-===//

#ifndef ONNXQUANT_LIB_TRANSFORMS_PRUNE_H
#define ONNXQUANT_LIB_TRANSFORMS_PRUNE_H

#include "PruneReport.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::onnxq {

/// Which weights may be pruned (the options every mode shares).
struct PruneScope {
  ArrayRef<std::string> exclude;
  int64_t minElements = 0;
};

/// The constant weight operand of a Conv, ConvTranspose, Gemm or MatMul.
struct PrunableWeight {
  OpOperand *operand;
  /// The report row; `skipped` is set when the scope excludes it.
  PruneLayerStats stats;
};

/// Every float weight operand under `root`, in program order, with its
/// statistics before pruning.
SmallVector<PrunableWeight> collectPrunableWeights(Operation *root,
                                                   const PruneScope &scope);

/// Replaces the weight operand's constant with `values` (same type); the old
/// constant is erased once unused.
void replaceWeights(OpOperand &operand, ArrayRef<float> values);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_TRANSFORMS_PRUNE_H
