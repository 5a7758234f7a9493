//===- PaddingFills.cpp - fills of padded buffers that writers shrink -----===//

#include "PaddingFills.h"

#include "BufferUses.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

bool isStatic(ArrayRef<int64_t> values) {
  return !llvm::any_of(values, ShapedType::isDynamic);
}

/// Fills `buffer` with `padding` in the box of `offsets` and `sizes`.
void fillBox(OpBuilder &b, Location loc, Value padding, Value buffer,
             ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes) {
  if (llvm::any_of(sizes, [](int64_t size) { return size <= 0; }))
    return;
  SmallVector<OpFoldResult> boxSizes = getAsIndexOpFoldResult(b.getContext(), sizes);
  SmallVector<OpFoldResult> ones(offsets.size(), b.getIndexAttr(1));
  Value box = memref::SubViewOp::create(b, loc, buffer, offsets, boxSizes, ones);
  linalg::FillOp::create(b, loc, padding, ValueRange{box});
}

/// A box of the padding around an interior: along `dim` (before or after
/// the interior there, inside it along the dims before, whole along the
/// dims after), or, with `dim` the last, the padding before its first row.
struct PaddingBox {
  int64_t dim;
  SmallVector<int64_t> offsets, sizes;
};

/// The boxes around `interior` but the padding between its rows.
SmallVector<PaddingBox> getBoxesAroundRows(memref::SubViewOp interior) {
  ArrayRef<int64_t> shape = interior.getSourceType().getShape();
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  ArrayRef<int64_t> sizes = interior.getStaticSizes();
  int64_t rank = shape.size();
  SmallVector<PaddingBox> boxes;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    SmallVector<int64_t> boxOffsets(offsets.take_front(d)), boxSizes(sizes.take_front(d));
    boxOffsets.append(rank - d, 0);
    boxSizes.append(shape.drop_front(d).begin(), shape.end());
    boxSizes[d] = offsets[d];
    boxes.push_back({d, boxOffsets, boxSizes});
    boxOffsets[d] = offsets[d] + sizes[d];
    boxSizes[d] = shape[d] - boxOffsets[d];
    boxes.push_back({d, boxOffsets, boxSizes});
  }
  // Along the last dim, only the padding before the first row: the writer
  // stores the padding after each row.
  SmallVector<int64_t> boxOffsets(offsets), boxSizes(sizes);
  boxOffsets[rank - 1] = 0;
  boxSizes[rank - 2] = 1;
  boxSizes[rank - 1] = offsets[rank - 1];
  boxes.push_back({rank - 1, boxOffsets, boxSizes});
  return boxes;
}

} // namespace

linalg::FillOp mlir::onnxq::findInteriorFill(memref::SubViewOp interior,
                                             Operation *writer) {
  Value buffer = interior.getSource();
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!buffer.getDefiningOp<memref::AllocOp>() || !type || !type.hasStaticShape() ||
      interior.getType().getRank() != type.getRank() || !interior.hasUnitStride() ||
      !isStatic(interior.getStaticOffsets()) || !isStatic(interior.getStaticSizes()))
    return nullptr;
  Block *block = writer->getBlock();
  SmallVector<Operation *> accesses;
  collectBufferUses(buffer, accesses);
  linalg::FillOp fill;
  int64_t writes = 0;
  for (Operation *access : accesses) {
    auto candidate = dyn_cast<linalg::FillOp>(access);
    if (candidate && candidate.hasPureBufferSemantics() &&
        candidate.getOutputs()[0] == buffer && candidate->getBlock() == block &&
        candidate->isBeforeInBlock(writer) &&
        (!fill || fill->isBeforeInBlock(candidate)))
      fill = candidate;
    writes += access == writer;
  }
  if (!fill || writes != 1)
    return nullptr;
  for (Operation *access : accesses) {
    Operation *ancestor = block->findAncestorOpInBlock(*access);
    if (!ancestor)
      return nullptr;
    if (ancestor != fill && ancestor != writer && fill->isBeforeInBlock(ancestor) &&
        ancestor->isBeforeInBlock(writer))
      return nullptr;
  }
  return fill;
}

bool mlir::onnxq::hasRowBelow(memref::SubViewOp interior) {
  int64_t rank = interior.getType().getRank();
  ArrayRef<int64_t> shape = interior.getSourceType().getShape();
  return rank >= 2 &&
         interior.getStaticOffsets()[rank - 2] + interior.getStaticSizes()[rank - 2] <
             shape[rank - 2];
}

void mlir::onnxq::fillAroundRows(RewriterBase &rewriter, linalg::FillOp fill,
                                 memref::SubViewOp interior,
                                 std::optional<int64_t> planeDim) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(fill);
  MLIRContext *context = rewriter.getContext();
  for (const PaddingBox &box : getBoxesAroundRows(interior))
    if (!planeDim || box.dim <= *planeDim)
      fillBox(rewriter, fill.getLoc(), fill.getInputs()[0], interior.getSource(),
              getAsIndexOpFoldResult(context, box.offsets), box.sizes);
  rewriter.eraseOp(fill);
}

void mlir::onnxq::fillPlaneBorders(OpBuilder &b, Location loc, Value padding,
                                   memref::SubViewOp interior, int64_t planeDim,
                                   OpFoldResult first, int64_t count) {
  MLIRContext *context = b.getContext();
  OpFoldResult start = affine::makeComposedFoldedAffineApply(
      b, loc, getAffineDimExpr(0, context) + interior.getStaticOffsets()[planeDim],
      {first});
  for (PaddingBox &box : getBoxesAroundRows(interior)) {
    if (box.dim <= planeDim)
      continue;
    SmallVector<OpFoldResult> offsets = getAsIndexOpFoldResult(context, box.offsets);
    offsets[planeDim] = start;
    box.sizes[planeDim] = count;
    fillBox(b, loc, padding, interior.getSource(), offsets, box.sizes);
  }
}
