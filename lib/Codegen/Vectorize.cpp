//===- Vectorize.cpp - tile the innermost loop and vectorize --------------===//

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_VECTORIZEPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {

/// Elements of the op's output that fit one vector register.
int64_t getVectorLength(linalg::LinalgOp op, unsigned vectorBits) {
  unsigned bits = 0;
  for (OpOperand &init : op.getDpsInitsMutable())
    bits = std::max(bits, getElementTypeOrSelf(init.get().getType())
                              .getIntOrFloatBitWidth());
  return bits ? std::max<int64_t>(1, vectorBits / bits) : 1;
}

/// The linalg vectorizer turns reads of other tensors in a body
/// (tensor.extract: table lookups, gathers) into vector.gather or vector
/// loads, but on buffers those reads are memref.load, which it does not
/// take. They are given to it as reads of a tensor view of the buffer, and
/// the vector code it makes reads the buffer again (`restoreBufferReads`).
SmallVector<bufferization::ToTensorOp> readBuffersAsTensors(RewriterBase &rewriter,
                                                            linalg::LinalgOp op) {
  SmallVector<bufferization::ToTensorOp> views;
  SmallVector<memref::LoadOp> loads;
  op->walk([&](memref::LoadOp load) {
    if (!op->isAncestor(load.getMemRef().getParentBlock()->getParentOp()))
      loads.push_back(load);
  });
  for (memref::LoadOp load : loads) {
    rewriter.setInsertionPoint(op);
    auto memrefType = load.getMemRefType();
    auto view = bufferization::ToTensorOp::create(
        rewriter, load.getLoc(),
        RankedTensorType::get(memrefType.getShape(), memrefType.getElementType()),
        load.getMemRef(), /*restrict=*/true);
    views.push_back(view);
    rewriter.setInsertionPoint(load);
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(load, view, load.getIndices());
  }
  return views;
}

/// Makes the users of each tensor view read its buffer again.
void restoreBufferReads(RewriterBase &rewriter,
                        ArrayRef<bufferization::ToTensorOp> views) {
  for (bufferization::ToTensorOp view : views) {
    Value buffer = view.getBuffer();
    for (OpOperand &use : llvm::make_early_inc_range(view->getUses())) {
      Operation *user = use.getOwner();
      rewriter.setInsertionPoint(user);
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        rewriter.replaceOpWithNewOp<memref::LoadOp>(extract, buffer,
                                                    extract.getIndices());
      } else if (auto dim = dyn_cast<tensor::DimOp>(user)) {
        rewriter.replaceOpWithNewOp<memref::DimOp>(dim, buffer, dim.getIndex());
      } else if (isa<vector::GatherOp, vector::TransferReadOp>(user)) {
        // They take either.
        rewriter.modifyOpInPlace(user, [&] { use.set(buffer); });
      }
    }
    // Any other use keeps the view, and the LLVM lowering reports it.
    if (view->use_empty())
      rewriter.eraseOp(view);
  }
}

/// Tiles `op` to [1, ..., 1, V] and vectorizes the tile (masked at the
/// boundary). Leaves the op scalar when it is not worth it or not possible.
void vectorize(IRRewriter &rewriter, linalg::LinalgOp op, unsigned vectorBits) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || !op.hasPureBufferSemantics() ||
      llvm::any_of(ranges, ShapedType::isDynamic) ||
      op.getIteratorTypesArray().back() != utils::IteratorType::parallel)
    return;
  // vector<Nxi1> is bit-packed in memory, memref<Nxi1> holds a byte per
  // element (ONNX bool): ops on bool buffers stay scalar.
  if (llvm::any_of(op->getOperandTypes(), [](Type type) {
        return getElementTypeOrSelf(type).isInteger(1);
      }))
    return;
  int64_t length = getVectorLength(op, vectorBits);
  if (ranges.back() < 2 || length < 2)
    return;
  int64_t width = std::min(length, ranges.back());
  // Gathers at addresses computed from the loop indices (Resize's index
  // tables) take no remainder mask: MLIR 22's vectorizer gives a table read
  // that broadcasts over the tile's unit dims the tile's n-D mask, which its
  // verifier rejects ("'vector.mask' op expects a 'vector<16xi1>' mask": a
  // Resize whose output rows are 18 wide). Their vectors divide the row
  // instead (18: 9 lanes). Table lookups index by value and keep the mask.
  Block *body = op.getBlock();
  bool indexedGathers = !body->getOps<linalg::IndexOp>().empty() &&
                        (!body->getOps<tensor::ExtractOp>().empty() ||
                         !body->getOps<memref::LoadOp>().empty());
  if (indexedGathers)
    while (ranges.back() % width != 0)
      --width;
  if (width < 2)
    return;
  SmallVector<int64_t> tileSizes(ranges.size(), 1);
  tileSizes.back() = width;
  rewriter.setInsertionPoint(op);
  // Parallel dims tile as scf.parallel: onnxq-parallelize may split them.
  FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(
      rewriter, op,
      linalg::LinalgTilingOptions().setTileSizes(tileSizes).setLoopType(
          linalg::LinalgTilingLoopType::ParallelLoops));
  if (failed(tiled))
    return;
  rewriter.eraseOp(op);
  linalg::LinalgOp tile = tiled->op;
  SmallVector<int64_t> vectorSizes = tileSizes;
  // The tile's other loops all have extent 1: drop them (reductions of one
  // element vanish), leaving a 1-D element-wise op over the vector lane.
  auto generic = dyn_cast<linalg::GenericOp>(tile.getOperation());
  if (!generic && tile.getNumLoops() > 1) {
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, tile);
    if (succeeded(generalized)) {
      generic = *generalized;
      tile = generic;
    }
  }
  if (generic && generic.getNumLoops() > 1) {
    linalg::ControlDropUnitDims control;
    control.rankReductionStrategy =
        linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
    rewriter.setInsertionPoint(generic);
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rewriter, generic, control);
    if (succeeded(dropped)) {
      rewriter.replaceOp(generic, dropped->replacements);
      tile = cast<linalg::LinalgOp>(dropped->resultOp.getOperation());
      vectorSizes.assign(tile.getNumLoops(), width);
    }
  }
  // Reductions that did not reduce to an element-wise op stay scalar: the
  // vectorizer's n-D multi-reductions do not lower cleanly yet.
  if (tile.getNumReductionLoops() != 0 || tile.getNumLoops() != vectorSizes.size())
    return;
  SmallVector<bufferization::ToTensorOp> views = readBuffersAsTensors(rewriter, tile);
  rewriter.setInsertionPoint(tile);
  SmallVector<bool> scalable(vectorSizes.size(), false);
  if (succeeded(linalg::vectorize(rewriter, tile, vectorSizes, scalable,
                                  /*vectorizeNDExtract=*/true)))
    rewriter.eraseOp(tile);
  restoreBufferReads(rewriter, views);
}

struct VectorizePass
    : onnxq::impl::VectorizePassBase<VectorizePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops)
      vectorize(rewriter, op, vectorBits);

    // Leave 1-D vectors with plain masks (compare against a lane index), the
    // form the LLVM lowering turns into masked loads/stores.
    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateScalarVectorTransferLoweringPatterns(
        patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
