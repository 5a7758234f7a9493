//===- PitchedRows.h - results stored into rows with a pitch ---*- C++ -*-===//
//
// A producer writes into the interior of its consumer's zero-padded input
// (onnxq-bufferize), and a contraction kernel then stores its fused result
// at the padded rows' pitch, one part per row that a vector spans
// (onnxq-contraction-kernels). Both passes decide with these bounds.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_PITCHEDROWS_H
#define ONNXQUANT_LIB_CODEGEN_PITCHEDROWS_H

#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace mlir::onnxq {

/// The most rows of `width` positions that a vector of `lanes` spans,
/// starting anywhere in a row.
constexpr int64_t getRowsPerVector(int64_t lanes, int64_t width) {
  return llvm::divideCeil(lanes - 1, width) + 1;
}

/// A vector spanning more rows than this is not stored in parts. Rows of
/// 7 and 14 positions (4 and 3 parts of a 16-lane vector) were measured:
/// the producers' extra stores cost what the depthwise convolutions after
/// them saved (MobileNetV2 int8 1.003x).
constexpr int64_t kMaxRowsPerVector = 2;

/// The lanes of the kernels whose epilogues store such rows: 32-bit
/// accumulators in 512-bit vectors.
constexpr int64_t kMaxEpilogueLanes = 16;

/// The shortest padded rows a producer writes in place; shorter ones keep
/// the copy into the padded buffer.
constexpr int64_t kMinPitchedRow = 16;
static_assert(getRowsPerVector(kMaxEpilogueLanes, kMinPitchedRow) <= kMaxRowsPerVector,
              "rows a producer writes in place must be rows a kernel stores");

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_PITCHEDROWS_H
