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

/// A vector spanning more rows than this is not stored in parts.
constexpr int64_t kMaxRowsPerVector = 4;

/// The lanes of the kernels whose epilogues store such rows: 32-bit
/// accumulators in 512-bit vectors.
constexpr int64_t kMaxEpilogueLanes = 16;

/// The shortest padded rows a producer writes in place, by element width;
/// shorter ones keep the copy into the padded buffer. Rows of 7 and 14
/// positions (4 and 3 parts of a 16-lane vector) were measured: before the
/// kernels stored the padding between rows, the producers' extra stores
/// cost what the depthwise convolutions after them saved (MobileNetV2 int8
/// 1.003x); with it, no fill and no copy are left, and 8-bit rows gain (the
/// zoo's MobileNetV2-int8 0.974x, MobileNetV2 int8 0.989x, EfficientNet-B0
/// int8 0.985x, one thread), while 32-bit ones do not (MobileNetV2 fp32
/// 1.014x): four bytes a lane, four times the masked stores' bytes.
constexpr int64_t getMinPitchedRow(unsigned elementBits) {
  return elementBits <= 8 ? 7 : 16;
}
static_assert(getRowsPerVector(kMaxEpilogueLanes, getMinPitchedRow(8)) <= kMaxRowsPerVector &&
                  getRowsPerVector(kMaxEpilogueLanes, getMinPitchedRow(32)) <=
                      kMaxRowsPerVector,
              "rows a producer writes in place must be rows a kernel stores");

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_PITCHEDROWS_H
