//===- LowerTableLookups.cpp - byte table lookups as permutes -------------===//
//
// A 256-byte table fits in four 512-bit registers (or sixteen 128-bit
// ones): looking bytes up in it is a permute of registers, not a load per
// lane. LLVM scalarizes a gather of bytes (x86 gathers 32-bit elements at
// the narrowest), so the lookups the table pass creates are lowered here.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_LOWERTABLELOOKUPSPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {

enum class PermuteISA { VBMI, TBL };

/// The target's lookup: `lanes` lanes at a time from `table` at `indices`
/// (both i8 vectors of that many lanes).
class ByteLookup {
public:
  ByteLookup(PermuteISA isa) : isa(isa) {}

  int64_t lanes() const { return isa == PermuteISA::VBMI ? 64 : 16; }

  /// The table's 256 bytes as 256 / lanes() vectors.
  SmallVector<Value> loadTable(OpBuilder &b, Location loc, Value table) const {
    auto type = VectorType::get({lanes()}, b.getI8Type());
    SmallVector<Value> parts;
    for (int64_t offset = 0; offset < 256; offset += lanes())
      parts.push_back(vector::LoadOp::create(
          b, loc, type, table,
          ValueRange{arith::ConstantIndexOp::create(b, loc, offset)}));
    return parts;
  }

  Value lookup(OpBuilder &b, Location loc, ArrayRef<Value> table,
               Value indices) const {
    Type type = indices.getType();
    auto call = [&](StringRef name, ValueRange args) {
      return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name),
                                           args)
          .getResult(0);
    };
    if (isa == PermuteISA::VBMI) {
      // vpermi2b picks from 128 bytes by the index's low 7 bits; the top
      // bit picks the half of the table.
      Value low = call("llvm.x86.avx512.vpermi2var.qi.512",
                       {table[0], indices, table[1]});
      Value high = call("llvm.x86.avx512.vpermi2var.qi.512",
                        {table[2], indices, table[3]});
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
      Value isHigh = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           indices, zero);
      return arith::SelectOp::create(b, loc, isHigh, high, low);
    }
    // tbl reads 64 bytes and gives 0 past them; tbx keeps the lane there.
    // Quarter q is looked up with index - 64q (mod 256), out of range for
    // the other quarters.
    Value result = call("llvm.aarch64.neon.tbl4.v16i8",
                        {table[0], table[1], table[2], table[3], indices});
    for (int64_t quarter = 1; quarter < 4; ++quarter) {
      Value offset = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(cast<ShapedType>(type),
                                         b.getI8IntegerAttr(int8_t(-64 * quarter))));
      Value shifted = arith::AddIOp::create(b, loc, indices, offset);
      ArrayRef<Value> part = table.slice(4 * quarter, 4);
      result = call("llvm.aarch64.neon.tbx4.v16i8",
                    {result, part[0], part[1], part[2], part[3], shifted});
    }
    return result;
  }

private:
  PermuteISA isa;
};

/// Whether `type` is a contiguous 1-D memref of 256 bytes.
bool isByteTable(MemRefType type) {
  return type.getRank() == 1 && type.getDimSize(0) == 256 &&
         type.getElementType().isInteger(8) && type.isLastDimUnitStride();
}

/// vector.gather of bytes from a 256-byte table at offset 0 -> permutes of
/// the table in registers, `lanes()` indices at a time.
struct LowerByteGather : OpRewritePattern<vector::GatherOp> {
  LowerByteGather(MLIRContext *ctx, ByteLookup lookup)
      : OpRewritePattern(ctx), lookup(lookup) {}

  LogicalResult matchAndRewrite(vector::GatherOp gather,
                                PatternRewriter &rewriter) const override {
    auto tableType = dyn_cast<MemRefType>(gather.getBase().getType());
    VectorType resultType = gather.getVectorType();
    if (!tableType || !isByteTable(tableType) || resultType.isScalable() ||
        !llvm::all_of(gather.getOffsets(), [](Value offset) {
          return getConstantIntValue(offset) == 0;
        }))
      return rewriter.notifyMatchFailure(gather, "not a 256-byte table lookup");
    Location loc = gather.getLoc();
    int64_t count = resultType.getNumElements(), lanes = lookup.lanes();
    auto byteType = VectorType::get({count}, rewriter.getI8Type());
    // Lanes in a row (the vectorizer leaves leading unit dimensions).
    auto flatten = [&](Value vector) -> Value {
      auto type = cast<VectorType>(vector.getType());
      if (type.getRank() == 1)
        return vector;
      return vector::ShapeCastOp::create(
          rewriter, loc, VectorType::get({count}, type.getElementType()), vector);
    };
    // Indices in [0, 256) keep their value in a byte. Masked-off lanes may
    // be poison (the vectorizer's masked reads pad with it): frozen, they
    // look up some byte that the final select discards.
    Value indices = flatten(gather.getIndices());
    if (getElementTypeOrSelf(indices.getType()).isIndex())
      indices = arith::IndexCastOp::create(rewriter, loc, byteType, indices);
    else
      indices = arith::TruncIOp::create(rewriter, loc, byteType, indices);
    indices = LLVM::FreezeOp::create(rewriter, loc, indices);
    SmallVector<Value> table = lookup.loadTable(rewriter, loc, gather.getBase());
    auto chunkType = VectorType::get({lanes}, rewriter.getI8Type());
    Value zeros = arith::ConstantOp::create(rewriter, loc,
                                            rewriter.getZeroAttr(chunkType));
    Value result = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getZeroAttr(byteType));
    for (int64_t first = 0; first < count; first += lanes) {
      int64_t width = std::min(lanes, count - first);
      Value chunk = indices;
      if (width != count)
        chunk = vector::ExtractStridedSliceOp::create(rewriter, loc, indices, first,
                                                      width, 1);
      if (width != lanes)
        chunk = vector::InsertStridedSliceOp::create(rewriter, loc, chunk, zeros, 0, 1);
      Value looked = lookup.lookup(rewriter, loc, table, chunk);
      if (width != lanes)
        looked = vector::ExtractStridedSliceOp::create(rewriter, loc, looked, 0,
                                                       width, 1);
      result = width == count
                   ? looked
                   : vector::InsertStridedSliceOp::create(rewriter, loc, looked,
                                                          result, first, 1)
                         .getResult();
    }
    result = arith::SelectOp::create(rewriter, loc, flatten(gather.getMask()),
                                     result, flatten(gather.getPassThru()));
    if (resultType.getRank() != 1)
      result = vector::ShapeCastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(gather, result);
    return success();
  }

  ByteLookup lookup;
};

struct LowerTableLookupsPass
    : onnxq::impl::LowerTableLookupsPassBase<LowerTableLookupsPass> {
  using Base::Base;
  void runOnOperation() override {
    std::optional<PermuteISA> permutes =
        llvm::StringSwitch<std::optional<PermuteISA>>(isa)
            .Case("vbmi", PermuteISA::VBMI)
            .Case("tbl", PermuteISA::TBL)
            .Default(std::nullopt);
    if (isa != "none" && !permutes) {
      emitError(getOperation()->getLoc())
          << "onnxq-lower-table-lookups: unknown isa '" << isa
          << "' (none, vbmi or tbl)";
      return signalPassFailure();
    }
    if (!permutes)
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerByteGather>(&getContext(), ByteLookup(*permutes));
    // A masked gather is a vector.mask region first: its mask becomes the
    // gather's operand.
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
