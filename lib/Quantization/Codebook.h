//===- Codebook.h - equal-population weight codebooks -----------*- C++ -*-===//
//
// EWQ: each group of weights (a tensor, or one output channel) gets 2^bits
// levels that each stand for the same number of its weights: the weights
// sorted, cut into 2^bits runs of equal length, each run's level its mean.
// A weight is stored as the index of its run's level. FastEWQ finds the same
// cuts approximately from a histogram of the group (no sort), then takes
// each level as the mean of the weights between its cuts.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_CODEBOOK_H
#define ONNXQUANT_LIB_QUANTIZATION_CODEBOOK_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::onnxq {

enum class CodebookMethod { EWQ, FastEWQ };

struct CodebookWeights {
  /// The level of each weight, in its group's table (the weight's shape,
  /// row-major).
  SmallVector<int64_t> indices;
  /// 2^bits levels per group, group after group.
  SmallVector<float> levels;
};

/// `weights` of `shape` as indices into 2^`bits` levels per slice along
/// `channelAxis` (nullopt: one table for the tensor).
CodebookWeights computeCodebook(ArrayRef<float> weights, ArrayRef<int64_t> shape,
                                std::optional<int64_t> channelAxis, unsigned bits,
                                CodebookMethod method);

/// The weights a codebook stands for.
SmallVector<float> decodeCodebook(const CodebookWeights &codebook,
                                  ArrayRef<int64_t> shape,
                                  std::optional<int64_t> channelAxis, unsigned bits);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_CODEBOOK_H
