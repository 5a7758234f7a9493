//===- Vectorize.cpp - tile the innermost loop and vectorize --------------===//

#include "FlatBuffer.h"

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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
using mlir::onnxq::flattenBuffer;

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

/// Tiles `op` by `tileSizes` and erases it; returns the tile. Parallel dims
/// tile as scf.parallel: onnxq-parallelize may split them.
FailureOr<linalg::LinalgOp> tileInParallelLoops(IRRewriter &rewriter, linalg::LinalgOp op,
                                                ArrayRef<int64_t> tileSizes) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(
      rewriter, op,
      linalg::LinalgTilingOptions().setTileSizes(tileSizes).setLoopType(
          linalg::LinalgTilingLoopType::ParallelLoops));
  if (failed(tiled))
    return failure();
  rewriter.eraseOp(op);
  return tiled->op;
}

/// Side of the tiles a transposing copy moves: 16 rows of 16 elements, which
/// the vector lowering transposes in registers with shuffles.
constexpr int64_t kTransposeTile = 16;

/// A copy that moves its input's innermost dim (linalg.transpose with the
/// last dim permuted: attention's K^T) becomes 16 x 16 tiles: 16 contiguous
/// row reads, a vector.transpose (shuffles), 16 contiguous row writes.
/// Vectorized along the output's rows alone, each lane would be a scalar
/// load from another input row: 16 loads per vector, from rows a power of
/// two apart that share a few cache sets (128 x 256 floats: 1 KB apart, 4
/// of the 64 sets): 38 us for a 128 x 4 x 64 transpose on the AMD host, 16
/// us in tiles. 32-bit elements with 512-bit vectors only (a row is one
/// register); other targets keep the row vectors. `ranges`: the op's static
/// loop ranges.
LogicalResult vectorizeTranspose(IRRewriter &rewriter, linalg::LinalgOp op,
                                 ArrayRef<int64_t> ranges, unsigned vectorBits) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0)
    return failure();
  Block *body = op.getBlock();
  if (body->getOperations().size() != 1 ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return failure(); // not a plain copy
  OpOperand *input = op.getDpsInputOperand(0), *init = op.getDpsInitOperand(0);
  AffineMap inputMap = op.getMatchingIndexingMap(input);
  if (!inputMap.isPermutation() || !op.getMatchingIndexingMap(init).isIdentity())
    return failure();
  auto inputType = dyn_cast<MemRefType>(input->get().getType());
  auto initType = dyn_cast<MemRefType>(init->get().getType());
  if (!inputType || !initType || !inputType.isLastDimUnitStride() ||
      !initType.isLastDimUnitStride() || !inputType.getElementType().isIntOrFloat() ||
      inputType.getElementTypeBitWidth() != 32 ||
      vectorBits < kTransposeTile * 32)
    return failure();
  unsigned rank = inputMap.getNumDims();
  unsigned outerDim = rank - 1;                            // the output's rows
  unsigned innerDim = inputMap.getDimPosition(rank - 1);  // the input's rows
  if (innerDim == outerDim || ranges[innerDim] % kTransposeTile != 0 ||
      ranges[outerDim] % kTransposeTile != 0)
    return failure();

  SmallVector<int64_t> tileSizes(rank, 1);
  tileSizes[innerDim] = tileSizes[outerDim] = kTransposeTile;
  FailureOr<linalg::LinalgOp> tiled = tileInParallelLoops(rewriter, op, tileSizes);
  if (failed(tiled))
    return failure();
  linalg::LinalgOp tile = *tiled;
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  Value from = tile.getDpsInputOperand(0)->get(), to = tile.getDpsInitOperand(0)->get();
  Type element = inputType.getElementType();
  auto rowType = VectorType::get({kTransposeTile}, element);
  auto matrixType = VectorType::get({kTransposeTile, kTransposeTile}, element);
  // Input row r of the tile is output column r.
  unsigned inputRowDim = *inputMap.getResultPosition(rewriter.getAffineDimExpr(outerDim));
  auto at = [&](unsigned dim, int64_t position) {
    SmallVector<Value> indices(rank, arith::ConstantIndexOp::create(rewriter, loc, 0));
    indices[dim] = arith::ConstantIndexOp::create(rewriter, loc, position);
    return indices;
  };
  Value matrix = arith::ConstantOp::create(
      rewriter, loc, matrixType, cast<TypedAttr>(rewriter.getZeroAttr(matrixType)));
  for (int64_t r = 0; r < kTransposeTile; ++r) {
    Value row = vector::TransferReadOp::create(rewriter, loc, rowType, from,
                                               at(inputRowDim, r), std::nullopt,
                                               ArrayRef<bool>{true});
    matrix = vector::InsertOp::create(rewriter, loc, row, matrix, r);
  }
  Value transposed =
      vector::TransposeOp::create(rewriter, loc, matrix, ArrayRef<int64_t>{1, 0});
  for (int64_t c = 0; c < kTransposeTile; ++c) {
    Value row = vector::ExtractOp::create(rewriter, loc, transposed, c);
    vector::TransferWriteOp::create(rewriter, loc, row, to, at(innerDim, c),
                                    ArrayRef<bool>{true});
  }
  rewriter.eraseOp(tile);
  return success();
}

/// Tiles `op` to [1, ..., 1, V] and vectorizes the tile (masked at the
/// boundary). Leaves the op scalar when it is not worth it or not possible.
void vectorize(IRRewriter &rewriter, linalg::LinalgOp op, unsigned vectorBits) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || !op.hasPureBufferSemantics() ||
      llvm::any_of(ranges, ShapedType::isDynamic) ||
      op.getIteratorTypesArray().back() != utils::IteratorType::parallel)
    return;
  if (succeeded(vectorizeTranspose(rewriter, op, ranges, vectorBits)))
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
  FailureOr<linalg::LinalgOp> tiled = tileInParallelLoops(rewriter, op, tileSizes);
  if (failed(tiled))
    return;
  linalg::LinalgOp tile = *tiled;
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

/// Largest stride of a strided read made contiguous.
constexpr int64_t kMaxShuffledStride = 4;

/// The lanes `mask` enables, when it is a create_mask (broadcast or not) of
/// its last dim alone: its count along that dim; else null.
OpFoldResult getMaskedLanes(Value mask) {
  if (auto broadcast = mask.getDefiningOp<vector::BroadcastOp>())
    mask = broadcast.getSource();
  auto create = mask.getDefiningOp<vector::CreateMaskOp>();
  if (!create)
    return {};
  for (Value leading : create.getOperands().drop_back()) {
    std::optional<int64_t> count = getConstantIntValue(leading);
    if (!count || *count < 1)
      return {};
  }
  return create.getOperands().back();
}

/// A read of every s-th element (the innermost dim of a strided view: a
/// phase of a strided convolution's input) lowers to one scalar load per
/// lane. `read` (under `mask`, or none) becomes one contiguous read of the
/// s * lanes elements from its first, masked past the last one it reads
/// (the elements in between are within the view's span), and a shuffle
/// keeping every s-th; `replaced` (the read, or its vector.mask) takes the
/// result.
LogicalResult rewriteStridedRead(PatternRewriter &rewriter, vector::TransferReadOp read,
                                 Value mask, Operation *replaced) {
  VectorType type = read.getVectorType();
  auto memref = dyn_cast<MemRefType>(read.getBase().getType());
  if (!memref || type.isScalable() || !read.getPermutationMap().isMinorIdentity() ||
      llvm::any_of(type.getShape().drop_back(), [](int64_t d) { return d != 1; }))
    return rewriter.notifyMatchFailure(read, "not a row of a buffer");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return rewriter.notifyMatchFailure(read, "dynamic strides");
  int64_t stride = strides.back();
  if (stride < 2 || stride > kMaxShuffledStride)
    return rewriter.notifyMatchFailure(read, "unit or large stride");
  // Every dim in bounds: the contiguous read spans the view's elements only.
  if (!llvm::all_of(read.getInBoundsValues(), [](bool inBounds) { return inBounds; }))
    return rewriter.notifyMatchFailure(read, "may read out of bounds");
  int64_t lanes = type.getShape().back();
  OpFoldResult count = mask ? getMaskedLanes(mask) : rewriter.getIndexAttr(lanes);
  if (!count)
    return rewriter.notifyMatchFailure(read, "mask of unknown lanes");

  Location loc = read.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(replaced);
  Value flat = flattenBuffer(rewriter, loc, read.getBase());
  AffineExpr linear = getAffineConstantExpr(0, ctx);
  for (auto [d, stride] : llvm::enumerate(strides))
    linear = linear + getAffineDimExpr(d, ctx) * stride;
  Value first = getValueOrCreateConstantIndexOp(
      rewriter, loc,
      affine::makeComposedFoldedAffineApply(rewriter, loc,
                                            AffineMap::get(strides.size(), 0, linear),
                                            getAsOpFoldResult(read.getIndices())));
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  Value wideCount = getValueOrCreateConstantIndexOp(
      rewriter, loc,
      affine::makeComposedFoldedAffineApply(rewriter, loc, d0 * stride - (stride - 1),
                                            {count}));
  auto wideType = VectorType::get({stride * lanes}, type.getElementType());
  Value wideMask = vector::CreateMaskOp::create(
      rewriter, loc, VectorType::get({stride * lanes}, rewriter.getI1Type()),
      ValueRange{wideCount});
  Value wide = vector::TransferReadOp::create(
      rewriter, loc, wideType, flat, ValueRange{first},
      AffineMapAttr::get(AffineMap::getMinorIdentityMap(1, 1, ctx)), read.getPadding(),
      wideMask, rewriter.getBoolArrayAttr({true}));
  SmallVector<int64_t> every(lanes);
  for (int64_t i = 0; i < lanes; ++i)
    every[i] = i * stride;
  Value row = vector::ShuffleOp::create(rewriter, loc, wide, wide, every);
  if (type.getRank() > 1)
    row = vector::ShapeCastOp::create(rewriter, loc, type, row);
  rewriter.replaceOp(replaced, row);
  return success();
}

struct StridedReadAsShuffle : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (isa<vector::MaskOp>(read->getParentOp()))
      return rewriter.notifyMatchFailure(read, "under vector.mask");
    return rewriteStridedRead(rewriter, read, read.getMask(), read);
  }
};

struct MaskedStridedReadAsShuffle : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    auto read = dyn_cast_or_null<vector::TransferReadOp>(mask.getMaskableOp());
    if (!read || mask.hasPassthru() || read.getMask())
      return rewriter.notifyMatchFailure(mask, "not a plain masked read");
    return rewriteStridedRead(rewriter, read, mask.getMask(), mask);
  }
};

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
    patterns.add<StridedReadAsShuffle, MaskedStridedReadAsShuffle>(&getContext());
    // vectorizeTranspose's 16 x 16 tiles: 64 shuffles, not 256 extracts.
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
