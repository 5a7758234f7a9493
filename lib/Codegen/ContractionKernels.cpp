//===- ContractionKernels.cpp - register-blocked vector contractions ------===//
//
// A contraction on buffers, `out += lhs * rhs` (Gemm, MatMul, and the 1x1
// contraction of each kernel tap of a convolution), becomes a register-blocked
// kernel. The output is cut into tiles of `rows` x `vectors` target vectors:
// the vectors run along the output's contiguous dimension N, the rows along a
// parallel dimension M chosen so that the operand walking N is reused by every
// row (the filters of a convolution, the rows of a matrix product). A tile's
// accumulators are loaded once, carried through the reduction loops in
// registers (scf.for iter_args), updated with one vector.fma per row and
// vector at each step (the operand that does not walk N is broadcast), and
// stored once. Shapes are static, so remainders are too: a last block of
// fewer rows, and a last group of fewer vectors whose last one is masked.
//
// Operands are addressed as flat unit-stride buffers with the strides of
// their layout, so strided convolution windows need no copy (their vectors
// are gathers).
//
//===----------------------------------------------------------------------===//

#include "PassDetail.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_CONTRACTIONKERNELSPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {

struct RegisterBlock {
  int64_t lanes;   // elements of one target vector
  int64_t rows;    // M extent of a tile
  int64_t vectors; // vectors along N in a tile
};

/// The loops of a contraction, sorted by their role in the kernel.
struct KernelPlan {
  SmallVector<int64_t> ranges;
  unsigned n;                       // output's contiguous dim: vector lanes
  std::optional<unsigned> m;        // register rows
  SmallVector<unsigned> outer;      // the other parallel loops
  SmallVector<unsigned> reductions;
};

bool hasStaticLayout(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

FailureOr<KernelPlan> planKernel(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || !linalg::isaContractionOpInterface(op))
    return failure();
  Type elementType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!isa<FloatType>(elementType) ||
      llvm::any_of(op->getOperands(), [&](Value v) {
        return getElementTypeOrSelf(v.getType()) != elementType ||
               !hasStaticLayout(v);
      }))
    return failure();
  KernelPlan plan;
  plan.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(plan.ranges, [](int64_t r) { return r <= 0; }))
    return failure();

  // The output indexes every parallel loop; its innermost dimension must be
  // contiguous to hold whole vectors.
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (outMap.getNumResults() != op.getNumParallelLoops() ||
      cast<MemRefType>(init->get().getType()).getStridesAndOffset().first.back() != 1)
    return failure();
  plan.n = outMap.getDimPosition(outMap.getNumResults() - 1);
  if (plan.ranges[plan.n] < 2)
    return failure();

  // Rows: prefer a loop the N-walking operands do not use (they are then
  // loaded once for all rows), then the longest.
  auto usedByVectorOperands = [&](unsigned dim) {
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      AffineMap map = op.getMatchingIndexingMap(input);
      return map.isFunctionOfDim(plan.n) && map.isFunctionOfDim(dim);
    });
  };
  auto score = [&](unsigned dim) {
    return std::make_pair(!usedByVectorOperands(dim), plan.ranges[dim]);
  };
  for (unsigned i = 0; i < outMap.getNumResults(); ++i) {
    unsigned dim = outMap.getDimPosition(i);
    if (dim != plan.n && plan.ranges[dim] > 1 &&
        (!plan.m || score(dim) > score(*plan.m)))
      plan.m = dim;
  }
  for (unsigned i = 0; i < outMap.getNumResults(); ++i) {
    unsigned dim = outMap.getDimPosition(i);
    if (dim != plan.n && dim != plan.m)
      plan.outer.push_back(dim);
  }
  for (auto [dim, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      plan.reductions.push_back(dim);
  return plan;
}

/// An operand as a flat unit-stride buffer: the element at a loop point is
/// at `sum(loopStrides[d] * iv[d])`.
struct FlatOperand {
  Value buffer;
  SmallVector<int64_t> loopStrides;
};

FlatOperand flatten(OpBuilder &b, Location loc, Value value, AffineMap map) {
  auto type = cast<MemRefType>(value.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  int64_t extent = 1;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    extent += (size - 1) * stride;
  auto flatType = MemRefType::get(
      {extent}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), offset, {1}), type.getMemorySpace());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, value);
  FlatOperand flat;
  flat.buffer = memref::ReinterpretCastOp::create(
      b, loc, flatType, metadata.getBaseBuffer(), offset, {extent}, {1});
  flat.loopStrides.assign(map.getNumDims(), 0);
  for (unsigned i = 0; i < map.getNumResults(); ++i)
    flat.loopStrides[map.getDimPosition(i)] += strides[i];
  return flat;
}

/// Emits the kernel of one contraction at the builder's insertion point.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, linalg::LinalgOp op, const KernelPlan &plan,
                const RegisterBlock &block)
      : b(b), loc(op.getLoc()), plan(plan), block(block),
        elementType(getElementTypeOrSelf(op.getDpsInits()[0].getType())),
        vectorType(VectorType::get({block.lanes}, elementType)),
        iv(plan.ranges.size(), b.getIndexAttr(0)) {
    for (OpOperand &operand : op->getOpOperands())
      operands.push_back(flatten(b, loc, operand.get(),
                                 op.getMatchingIndexingMap(&operand)));
  }

  void emit() { emitOuterLoops(0); }

private:
  /// Leaves the builder inside a new `for i in [0, ub) step` loop whose
  /// induction variable becomes the value of loop `dim`.
  void beginLoop(unsigned dim, int64_t ub, int64_t step) {
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    auto loop = scf::ForOp::create(b, loc, index(0), index(ub), index(step));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    iv[dim] = loop.getInductionVar();
  }

  void emitOuterLoops(unsigned depth) {
    if (depth == plan.outer.size())
      return emitRowBlocks();
    OpBuilder::InsertionGuard guard(b);
    unsigned dim = plan.outer[depth];
    if (plan.ranges[dim] > 1)
      beginLoop(dim, plan.ranges[dim], 1);
    emitOuterLoops(depth + 1);
  }

  void emitRowBlocks() {
    if (!plan.m)
      return emitColumnBlocks(1);
    int64_t range = plan.ranges[*plan.m];
    int64_t full = range - range % block.rows;
    if (full > 0) {
      OpBuilder::InsertionGuard guard(b);
      beginLoop(*plan.m, full, block.rows);
      emitColumnBlocks(block.rows);
    }
    if (full < range) {
      iv[*plan.m] = b.getIndexAttr(full);
      emitColumnBlocks(range - full);
    }
  }

  void emitColumnBlocks(int64_t rows) {
    int64_t range = plan.ranges[plan.n];
    int64_t width = block.lanes * block.vectors;
    int64_t full = range - range % width;
    if (full > 0) {
      OpBuilder::InsertionGuard guard(b);
      beginLoop(plan.n, full, width);
      emitTile(rows, block.vectors, block.lanes);
    }
    if (int64_t rest = range - full) {
      iv[plan.n] = b.getIndexAttr(full);
      int64_t vectors = llvm::divideCeil(rest, block.lanes);
      emitTile(rows, vectors, rest - (vectors - 1) * block.lanes);
    }
  }

  /// One register tile: `rows` x `vectors` accumulators, the last vector of
  /// each row holding `lastLanes` elements.
  void emitTile(int64_t rows, int64_t vectors, int64_t lastLanes) {
    tileRows = rows;
    tileVectors = vectors;
    tileLastLanes = lastLanes;
    FlatOperand &out = operands.back();
    SmallVector<Value> accs;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j)
        accs.push_back(loadVector(b, out, i, j));
    accs = emitReductionLoops(b, 0, accs);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j)
        storeVector(b, accs[i * vectors + j], out, i, j);
  }

  /// The reduction loops, carrying the accumulators; returns their values
  /// after the last iteration.
  SmallVector<Value> emitReductionLoops(OpBuilder &builder, unsigned depth,
                                        ValueRange accs) {
    if (depth == plan.reductions.size())
      return emitStep(builder, accs);
    unsigned dim = plan.reductions[depth];
    if (plan.ranges[dim] == 1) {
      iv[dim] = builder.getIndexAttr(0);
      return emitReductionLoops(builder, depth + 1, accs);
    }
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto loop = scf::ForOp::create(
        builder, loc, index(0), index(plan.ranges[dim]), index(1), accs,
        [&](OpBuilder &body, Location, Value i, ValueRange args) {
          iv[dim] = i;
          scf::YieldOp::create(body, loc,
                               emitReductionLoops(body, depth + 1, args));
        });
    return loop.getResults();
  }

  /// acc[i][j] += lhs[i][j] * rhs[i][j] for the current reduction point.
  SmallVector<Value> emitStep(OpBuilder &builder, ValueRange accs) {
    SmallVector<Value> result;
    std::array<DenseMap<std::pair<int64_t, int64_t>, Value>, 2> cache;
    auto operandAt = [&](unsigned k, int64_t i, int64_t j) {
      const FlatOperand &operand = operands[k];
      bool walksN = operand.loopStrides[plan.n] != 0;
      bool walksM = plan.m && operand.loopStrides[*plan.m] != 0;
      std::pair<int64_t, int64_t> key(walksM ? i : 0, walksN ? j : 0);
      Value &value = cache[k][key];
      if (!value)
        value = walksN ? loadVector(builder, operand, key.first, key.second)
                       : vector::BroadcastOp::create(
                             builder, loc, vectorType,
                             memref::LoadOp::create(
                                 builder, loc, operand.buffer,
                                 indexAt(builder, operand, key.first, 0)));
      return value;
    };
    for (int64_t i = 0; i < tileRows; ++i)
      for (int64_t j = 0; j < tileVectors; ++j)
        result.push_back(vector::FMAOp::create(builder, loc, operandAt(0, i, j),
                                               operandAt(1, i, j),
                                               accs[i * tileVectors + j]));
    return result;
  }

  /// The flat index of row `i`, vector `j` of the tile in `operand`.
  Value indexAt(OpBuilder &builder, const FlatOperand &operand, int64_t i,
                int64_t j) {
    MLIRContext *context = builder.getContext();
    AffineExpr expr = getAffineConstantExpr(
        j * block.lanes * operand.loopStrides[plan.n] +
            (plan.m ? i * operand.loopStrides[*plan.m] : 0),
        context);
    SmallVector<OpFoldResult> ivs;
    for (auto [d, stride] : llvm::enumerate(operand.loopStrides)) {
      if (stride == 0)
        continue;
      expr = expr + stride * getAffineDimExpr(ivs.size(), context);
      ivs.push_back(iv[d]);
    }
    return getValueOrCreateConstantIndexOp(
        builder, loc, affine::makeComposedFoldedAffineApply(builder, loc, expr, ivs));
  }

  /// Lanes of vector `j` in the current tile, and its mask when partial.
  Value maskOf(OpBuilder &builder, int64_t j) {
    if (j + 1 < tileVectors || tileLastLanes == block.lanes)
      return {};
    SmallVector<bool> bits(block.lanes, false);
    std::fill_n(bits.begin(), tileLastLanes, true);
    auto maskType = VectorType::get({block.lanes}, builder.getI1Type());
    return arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(maskType, ArrayRef<bool>(bits)));
  }

  Value loadVector(OpBuilder &builder, const FlatOperand &operand, int64_t i,
                   int64_t j) {
    Value index = indexAt(builder, operand, i, j);
    Value mask = maskOf(builder, j);
    int64_t stride = operand.loopStrides[plan.n];
    if (stride == 1 && !mask)
      return vector::LoadOp::create(builder, loc, vectorType, operand.buffer,
                                    index);
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getZeroAttr(vectorType));
    if (!mask)
      mask = arith::ConstantOp::create(
          builder, loc,
          DenseElementsAttr::get(VectorType::get({block.lanes}, builder.getI1Type()),
                                 true));
    if (stride == 1)
      return vector::MaskedLoadOp::create(builder, loc, vectorType,
                                          operand.buffer, index, mask, zero);
    // A strided window (convolution stride > 1): gather its lanes.
    SmallVector<int32_t> offsets;
    for (int64_t lane = 0; lane < block.lanes; ++lane)
      offsets.push_back(lane * stride);
    Value offsetVector = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(VectorType::get({block.lanes}, builder.getI32Type()),
                               ArrayRef<int32_t>(offsets)));
    return vector::GatherOp::create(builder, loc, vectorType, operand.buffer,
                                    index, offsetVector, mask, zero);
  }

  void storeVector(OpBuilder &builder, Value value, const FlatOperand &operand,
                   int64_t i, int64_t j) {
    Value index = indexAt(builder, operand, i, j);
    if (Value mask = maskOf(builder, j))
      vector::MaskedStoreOp::create(builder, loc, operand.buffer, index, mask,
                                    value);
    else
      vector::StoreOp::create(builder, loc, value, operand.buffer, index);
  }

  OpBuilder &b;
  Location loc;
  const KernelPlan &plan;
  RegisterBlock block;
  Type elementType;
  VectorType vectorType;
  SmallVector<FlatOperand, 3> operands; // lhs, rhs, out
  SmallVector<OpFoldResult> iv;         // current value of each loop
  int64_t tileRows = 0, tileVectors = 0, tileLastLanes = 0;
};

struct ContractionToKernel : OpInterfaceRewritePattern<linalg::LinalgOp> {
  ContractionToKernel(MLIRContext *context, unsigned vectorBits, int64_t rows,
                      int64_t vectors)
      : OpInterfaceRewritePattern(context), vectorBits(vectorBits), rows(rows),
        vectors(vectors) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<KernelPlan> plan = planKernel(op);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "not a static float contraction");
    unsigned bits =
        getElementTypeOrSelf(op.getDpsInits()[0].getType()).getIntOrFloatBitWidth();
    RegisterBlock block{std::max<int64_t>(1, vectorBits / bits), rows, vectors};
    // A tile no wider than the output: short rows use fewer vectors.
    block.vectors = std::min<int64_t>(
        block.vectors, llvm::divideCeil(plan->ranges[plan->n], block.lanes));
    rewriter.setInsertionPoint(op);
    KernelEmitter(rewriter, op, *plan, block).emit();
    rewriter.eraseOp(op);
    return success();
  }

  unsigned vectorBits;
  int64_t rows, vectors;
};

struct ContractionKernelsPass
    : onnxq::impl::ContractionKernelsPassBase<ContractionKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ContractionToKernel>(&getContext(), vectorBits, rows, vectors);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
