//===- Scatter.cpp - ScatterND and ScatterElements -------------------------===//
//
// A scatter writes where run-time indices say, which no linalg op expresses:
// a scalar loop over the updates carries the output tensor (a copy of
// `data`), each step inserting one update (a slice for ScatterND, an element
// for ScatterElements), combined with what is there when `reduction` asks.
// Updates apply in index order, so duplicate indices give ONNX Runtime's
// result (the last one wins, or all combine). An index outside the data is
// skipped: nothing is written outside the buffer.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// How a reduction combines what is there with the update; none replaces.
std::optional<Combine> getCombine(StringRef reduction) {
  return llvm::StringSwitch<std::optional<Combine>>(reduction)
      .Case("add", Combine::Sum)
      .Case("mul", Combine::Prod)
      .Case("max", Combine::Max)
      .Case("min", Combine::Min)
      .Default(std::nullopt);
}

/// `scf.if inside { yield then() } else { yield current }`.
Value insertIf(OpBuilder &b, Location loc, Value inside, Value current,
               function_ref<Value(OpBuilder &, Location)> then) {
  auto ifOp = scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &nb, Location l) { scf::YieldOp::create(nb, l, then(nb, l)); },
      [&](OpBuilder &nb, Location l) { scf::YieldOp::create(nb, l, current); });
  return ifOp.getResult(0);
}

SmallVector<OpFoldResult> getIndexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
    return b.getIndexAttr(v);
  });
}

/// ScatterND: indices (..., k) name the leading k coordinates of a slice of
/// data's trailing dims; updates (..., slice) hold one slice per tuple.
struct ScatterNDPattern : StaticShapePattern<ScatterNDOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ScatterNDOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto dataType = convertTensorType(op.getData().getType());
    RankedTensorType indicesType = getTensorType(op.getIndices());
    int64_t rank = dataType.getRank(), tuple = indicesType.getShape().back();
    int64_t count = indicesType.getNumElements() / std::max<int64_t>(tuple, 1);
    if (tuple == 0)
      return rewriter.notifyMatchFailure(op, "empty index tuples");
    Location loc = op.getLoc();
    Type elementType = dataType.getElementType();
    ArrayRef<int64_t> sliceShape = dataType.getShape().drop_front(tuple);
    auto sliceType = RankedTensorType::get(sliceShape, elementType);
    // (count, tuple) indices and (count, slice...) updates.
    Value indices = reshapeTo(
        rewriter, loc, adaptor.getIndices(),
        RankedTensorType::get({count, tuple}, indicesType.getElementType()));
    SmallVector<int64_t> updatesShape{count};
    llvm::append_range(updatesShape, sliceShape);
    Value updates = reshapeTo(rewriter, loc, adaptor.getUpdates(),
                              RankedTensorType::get(updatesShape, elementType));
    std::optional<Combine> combine = getCombine(op.getReduction());
    bool isUnsigned = ordersUnsigned(getTensorType(op.getData()).getElementType());

    SmallVector<int64_t> ones(tuple, 1);
    SmallVector<int64_t> sliceSizes(ones);
    llvm::append_range(sliceSizes, sliceShape);
    SmallVector<int64_t> updateSizes{1};
    llvm::append_range(updateSizes, sliceShape);
    auto loop = scf::ForOp::create(
        rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
        arith::ConstantIndexOp::create(rewriter, loc, count),
        arith::ConstantIndexOp::create(rewriter, loc, 1),
        ValueRange{adaptor.getData()},
        [&](OpBuilder &b, Location l, Value u, ValueRange carried) {
          Value output = carried[0];
          SmallVector<OpFoldResult> offsets;
          Value inside = arith::ConstantIntOp::create(b, l, 1, 1);
          for (int64_t d = 0; d < tuple; ++d) {
            Value raw = tensor::ExtractOp::create(
                b, l, indices, ValueRange{u, arith::ConstantIndexOp::create(b, l, d)});
            auto [index, ok] = wrapIndex(b, l, raw, dataType.getDimSize(d));
            offsets.push_back(index);
            inside = arith::AndIOp::create(b, l, inside, ok);
          }
          offsets.append(rank - tuple, b.getIndexAttr(0));
          SmallVector<OpFoldResult> strides = getIndexAttrs(b, SmallVector<int64_t>(rank, 1));
          Value next = insertIf(b, l, inside, output, [&](OpBuilder &b, Location l) {
            SmallVector<OpFoldResult> updateOffsets{u};
            updateOffsets.append(sliceShape.size(), b.getIndexAttr(0));
            Value slice = tensor::ExtractSliceOp::create(
                b, l, sliceType, updates, updateOffsets, getIndexAttrs(b, updateSizes),
                getIndexAttrs(b, SmallVector<int64_t>(updateSizes.size(), 1)));
            if (combine) {
              // Combined in place, into the output's own slice.
              Value current = tensor::ExtractSliceOp::create(
                  b, l, sliceType, output, offsets, getIndexAttrs(b, sliceSizes), strides);
              int64_t sliceRank = sliceType.getRank();
              slice = linalg::GenericOp::create(
                          b, l, TypeRange{sliceType}, ValueRange{slice}, ValueRange{current},
                          SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(sliceRank)),
                          getIteratorTypes(sliceRank),
                          [&](OpBuilder &nb, Location nl, ValueRange args) {
                            linalg::YieldOp::create(
                                nb, nl, combineScalars(nb, nl, *combine, isUnsigned,
                                                       args[1], args[0]));
                          })
                          .getResult(0);
            }
            return tensor::InsertSliceOp::create(b, l, slice, output, offsets,
                                                 getIndexAttrs(b, sliceSizes), strides)
                .getResult();
          });
          scf::YieldOp::create(b, l, next);
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// ScatterElements: updates[p] goes to data at p with p[axis] replaced by
/// indices[p].
struct ScatterElementsPattern : StaticShapePattern<ScatterElementsOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ScatterElementsOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto dataType = convertTensorType(op.getData().getType());
    RankedTensorType indicesType = getTensorType(op.getIndices());
    int64_t rank = dataType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Location loc = op.getLoc();
    std::optional<Combine> combine = getCombine(op.getReduction());
    bool isUnsigned = ordersUnsigned(getTensorType(op.getData()).getElementType());
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t size : indicesType.getShape()) {
      lbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));
      steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
    }
    Value indices = adaptor.getIndices(), updates = adaptor.getUpdates();
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{adaptor.getData()},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange carried) {
          Value raw = tensor::ExtractOp::create(b, l, indices, ivs);
          auto [index, inside] = wrapIndex(b, l, raw, dataType.getDimSize(axis));
          SmallVector<Value> coords(ivs);
          coords[axis] = index;
          Value output = carried[0];
          return scf::ValueVector{insertIf(b, l, inside, output, [&](OpBuilder &b, Location l) {
            Value v = tensor::ExtractOp::create(b, l, updates, ivs);
            if (combine)
              v = combineScalars(b, l, *combine, isUnsigned,
                                 tensor::ExtractOp::create(b, l, output, coords), v);
            return tensor::InsertOp::create(b, l, v, output, coords).getResult();
          })};
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateScatterToLinalgPatterns(const TypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<ScatterNDPattern, ScatterElementsPattern>(converter,
                                                         patterns.getContext());
}
