//===- PaddingFills.h - fills of padded buffers that writers shrink -*- C++ -*-===//
//
// A padded input is a buffer filled with its padding value whose interior
// its producer then writes (onnxq-bufferize). A contraction kernel whose
// epilogue is that producer also stores the padding between the rows it
// writes (onnxq-contraction-kernels), and the fill keeps only the rest: the
// interior's fill, most of the buffer, wrote memory that the producer
// writes again, and with two threads often memory the other core wrote
// last.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_PADDINGFILLS_H
#define ONNXQUANT_LIB_CODEGEN_PADDINGFILLS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::onnxq {

/// The fill of the whole buffer that `interior` views, when `writer` writes
/// that interior next: `interior` is a static unit-stride subview (all dims)
/// of a static allocation that a `linalg.fill` before `writer`, in its
/// block, fills whole; nothing accesses the allocation in between, and
/// `writer` accesses it through `interior` alone. Null otherwise.
linalg::FillOp findInteriorFill(memref::SubViewOp interior, Operation *writer);

/// Replaces `fill` by fills of what lies around `interior` but the padding
/// between its rows (its last two dims), which its writer stores: after the
/// last element of each row, the rest of that row and the start of the next
/// (the bottom padding, for the last row). The buffer needs a row of bottom
/// padding for that: `hasRowBelow`. With `planeDim`, the padding around
/// each of the interior's planes along it (the rows above and below and the
/// first row's start) is left to the writer too (fillPlaneBorders).
void fillAroundRows(RewriterBase &rewriter, linalg::FillOp fill,
                    memref::SubViewOp interior,
                    std::optional<int64_t> planeDim = std::nullopt);

/// Fills, at the builder's point, the padding around planes [first, first +
/// count) of `interior` along `planeDim` that fillAroundRows left out: a
/// writer that writes those planes whole, on the thread that writes them.
void fillPlaneBorders(OpBuilder &b, Location loc, Value padding,
                      memref::SubViewOp interior, int64_t planeDim,
                      OpFoldResult first, int64_t count);
bool hasRowBelow(memref::SubViewOp interior);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_PADDINGFILLS_H
