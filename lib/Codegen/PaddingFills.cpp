//===- PaddingFills.cpp - fills of padded buffers that writers shrink -----===//

#include "PaddingFills.h"

#include "BufferUses.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

bool isStatic(ArrayRef<int64_t> values) {
  return !llvm::any_of(values, ShapedType::isDynamic);
}

/// Fills `buffer` in the box of `offsets` and `sizes` with `fill`'s value.
void fillBox(RewriterBase &rewriter, linalg::FillOp fill, Value buffer,
             ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  if (llvm::any_of(sizes, [](int64_t size) { return size <= 0; }))
    return;
  auto attrs = [&](ArrayRef<int64_t> values) {
    return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
      return rewriter.getIndexAttr(v);
    });
  };
  SmallVector<int64_t> ones(offsets.size(), 1);
  Value box = memref::SubViewOp::create(rewriter, fill.getLoc(), buffer, attrs(offsets),
                                        attrs(sizes), attrs(ones));
  linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs(), ValueRange{box});
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
                                 memref::SubViewOp interior) {
  Value buffer = interior.getSource();
  ArrayRef<int64_t> shape = interior.getSourceType().getShape();
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  ArrayRef<int64_t> sizes = interior.getStaticSizes();
  int64_t rank = shape.size();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(fill);
  // The slabs before and after the interior along each dim but the last,
  // inside it along the dims before, whole along the dims after.
  for (int64_t d = 0; d + 1 < rank; ++d) {
    SmallVector<int64_t> boxOffsets(offsets.take_front(d)), boxSizes(sizes.take_front(d));
    boxOffsets.append(rank - d, 0);
    boxSizes.append(shape.drop_front(d).begin(), shape.end());
    boxSizes[d] = offsets[d];
    fillBox(rewriter, fill, buffer, boxOffsets, boxSizes);
    boxOffsets[d] = offsets[d] + sizes[d];
    boxSizes[d] = shape[d] - boxOffsets[d];
    fillBox(rewriter, fill, buffer, boxOffsets, boxSizes);
  }
  // Along the last dim, only the padding before the first row: the writer
  // stores the padding after each row.
  SmallVector<int64_t> boxOffsets(offsets), boxSizes(sizes);
  boxOffsets[rank - 1] = 0;
  boxSizes[rank - 2] = 1;
  boxSizes[rank - 1] = offsets[rank - 1];
  fillBox(rewriter, fill, buffer, boxOffsets, boxSizes);
  rewriter.eraseOp(fill);
}
