//===- Reduction.cpp - Reduce*, ArgMax/ArgMin, TopK, LogSoftmax, Hardmax --===//
//
// Every reduction is a keep-dims `linalg.generic` with reduction iterators,
// wrapped by element-wise maps before (|x|, x^2, ...) and after (sqrt, log);
// the result is then reshaped to the op's type, which drops the reduced dims
// when keepdims = 0.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Reduces `input` over `axes` with `combine`, keeping them as size-1 dims.
Value reduce(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
             Combine combine, bool isUnsigned) {
  Type type = getElementTypeOrSelf(input.getType());
  return reduceKeepDims(b, loc, input, axes,
                        getIdentity(type, combine, isUnsigned), [&](OpBuilder &nb, Location l, Value acc, Value x) {
                          return combineScalars(nb, l, combine, isUnsigned, acc, x);
                        });
}

/// An element-wise map of a static tensor to a tensor of the same type.
Value map(OpBuilder &b, Location loc, Value input,
          function_ref<Value(OpBuilder &, Location, Value)> fn) {
  return createElementwise(b, loc, cast<RankedTensorType>(input.getType()),
                           input, [&](OpBuilder &nb, Location l, ValueRange args) {
                             return fn(nb, l, args[0]);
                           });
}

/// The axes of an `axes` attribute, normalized; all of them when absent.
SmallVector<int64_t> getReduceAxes(std::optional<ArrayAttr> attr,
                                   int64_t rank) {
  SmallVector<int64_t> axes;
  if (attr && !attr->empty()) {
    for (int64_t a : getIntsOr(*attr, 0, 0))
      axes.push_back(normalizeAxis(a, rank));
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  return axes;
}

/// How one Reduce* op computes: an element-wise map before the reduction,
/// the reduction, and a map after it.
struct ReduceRecipe {
  Combine combine;
  Value (*before)(OpBuilder &, Location, Value) = nullptr;
  Value (*after)(OpBuilder &, Location, Value) = nullptr;
  bool floatOnly = false;
};

Value absF(OpBuilder &b, Location l, Value x) { return math::AbsFOp::create(b, l, x); }
Value square(OpBuilder &b, Location l, Value x) {
  return isa<FloatType>(x.getType()) ? Value(arith::MulFOp::create(b, l, x, x))
                                     : Value(arith::MulIOp::create(b, l, x, x));
}
Value sqrtF(OpBuilder &b, Location l, Value x) { return math::SqrtOp::create(b, l, x); }
Value logF(OpBuilder &b, Location l, Value x) { return math::LogOp::create(b, l, x); }

ReduceRecipe getRecipe(ReduceMaxOp) { return {Combine::Max}; }
ReduceRecipe getRecipe(ReduceMinOp) { return {Combine::Min}; }
ReduceRecipe getRecipe(ReduceProdOp) { return {Combine::Prod}; }
ReduceRecipe getRecipe(ReduceSumSquareOp) { return {Combine::Sum, square}; }
ReduceRecipe getRecipe(ReduceL1Op) { return {Combine::Sum, absF, nullptr, true}; }
ReduceRecipe getRecipe(ReduceL2Op) { return {Combine::Sum, square, sqrtF, true}; }
ReduceRecipe getRecipe(ReduceLogSumOp) {
  return {Combine::Sum, nullptr, logF, true};
}

/// Reduce* ops with an `axes` attribute (ReduceLogSumExp is below).
template <typename OpTy>
struct ReducePattern : StaticShapePattern<OpTy> {
  using StaticShapePattern<OpTy>::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getReduced());
    ReduceRecipe recipe = getRecipe(op);
    bool isFloat = isa<FloatType>(inType.getElementType());
    if (recipe.floatOnly && !isFloat)
      return rewriter.notifyMatchFailure(op, "needs a float input");
    bool isUnsigned = ordersUnsigned(inType.getElementType());
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    if (recipe.before)
      x = map(rewriter, loc, x, recipe.before);
    Value r = reduce(rewriter, loc, x, getReduceAxes(op.getAxes(), inType.getRank()),
                     recipe.combine, isUnsigned);
    if (recipe.after)
      r = map(rewriter, loc, r, recipe.after);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, r,
                                     this->convertTensorType(outType)));
    return success();
  }
};

/// log(sum(exp(x))) computed as max + log(sum(exp(x - max))), which does not
/// overflow.
struct ReduceLogSumExpPattern : StaticShapePattern<ReduceLogSumExpOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ReduceLogSumExpOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getReduced());
    if (!isa<FloatType>(inType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float input only");
    Location loc = op.getLoc();
    SmallVector<int64_t> axes = getReduceAxes(op.getAxes(), inType.getRank());
    Value x = adaptor.getData();
    Value max = reduce(rewriter, loc, x, axes, Combine::Max, false);
    // An all -inf slice has max -inf: shift by 0 there, not by -inf (NaN).
    Value shift = map(rewriter, loc, max, [](OpBuilder &b, Location l, Value m) {
      Value finite = arith::CmpFOp::create(
          b, l, arith::CmpFPredicate::ONE, math::AbsFOp::create(b, l, m),
          createScalar(b, l, m.getType(), std::numeric_limits<double>::infinity()));
      return arith::SelectOp::create(b, l, finite, m, createScalar(b, l, m.getType(), 0.0));
    });
    Value e = createElementwise(rewriter, loc, inType, {x, shift},
                                [](OpBuilder &b, Location l, ValueRange args) {
                                  return math::ExpOp::create(
                                      b, l, arith::SubFOp::create(b, l, args[0], args[1]));
                                });
    Value sum = reduce(rewriter, loc, e, axes, Combine::Sum, false);
    Value y = createElementwise(
        rewriter, loc, cast<RankedTensorType>(sum.getType()), {sum, shift},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::AddFOp::create(b, l, math::LogOp::create(b, l, args[0]), args[1]);
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, outType));
    return success();
  }
};

/// The reduced axes of ReduceSum when `axes` is a runtime input: with
/// keepdims they are exactly the dims the result shape shrinks to 1 (a
/// reduction over a size-1 dim is the identity).
std::optional<SmallVector<int64_t>> getAxesFromShapes(RankedTensorType in,
                                                      RankedTensorType out,
                                                      bool keepdims) {
  if (!keepdims || in.getRank() != out.getRank())
    return std::nullopt;
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (in.getDimSize(d) == out.getDimSize(d))
      continue;
    if (out.getDimSize(d) != 1)
      return std::nullopt;
    axes.push_back(d);
  }
  return axes;
}

/// The axes sets of ReduceSum with runtime `axes` and keepdims = 0 that the
/// static shapes allow: every choice of in.rank - out.rank dims whose removal
/// leaves the output shape (one choice unless removed dims are ambiguous,
/// like the two size-2 dims of 3x2x2 -> 3x2).
SmallVector<SmallVector<int64_t>> getDroppedAxesCandidates(RankedTensorType in,
                                                           RankedTensorType out) {
  int64_t rank = in.getRank(), dropped = rank - out.getRank();
  SmallVector<SmallVector<int64_t>> candidates;
  if (dropped <= 0 || rank > 16)
    return candidates;
  for (unsigned mask = 0; mask < (1u << rank); ++mask) {
    if (llvm::popcount(mask) != dropped)
      continue;
    SmallVector<int64_t> axes, kept;
    for (int64_t d = 0; d < rank; ++d) {
      if (mask & (1u << d))
        axes.push_back(d);
      else
        kept.push_back(in.getDimSize(d));
    }
    if (ArrayRef<int64_t>(kept) == out.getShape())
      candidates.push_back(axes);
  }
  return candidates;
}

/// i1: every runtime axis of the 1-D `axesTensor` (negative counts from the
/// end) is one of `axes`.
Value matchesAxes(OpBuilder &b, Location loc, Value axesTensor,
                  ArrayRef<int64_t> axes, int64_t rank) {
  auto type = cast<RankedTensorType>(axesTensor.getType());
  Type intType = type.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, 0));
  Value all = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value index = arith::ConstantIndexOp::create(b, loc, i);
    Value axis = tensor::ExtractOp::create(b, loc, axesTensor, index);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, axis, zero);
    Value wrapped = arith::AddIOp::create(
        b, loc, axis, arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, rank)));
    axis = arith::SelectOp::create(b, loc, negative, wrapped, axis);
    Value any = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    for (int64_t a : axes) {
      Value equal = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, axis,
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, a)));
      any = arith::OrIOp::create(b, loc, any, equal);
    }
    all = arith::AndIOp::create(b, loc, all, any);
  }
  return all;
}

struct ReduceSumPattern : StaticShapePattern<ReduceSumOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ReduceSumOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getReduced());
    int64_t rank = inType.getRank();
    bool isUnsigned = ordersUnsigned(inType.getElementType());
    auto resultType = convertTensorType(outType);
    Location loc = op.getLoc();
    auto sumOver = [&](ArrayRef<int64_t> axes) {
      // No axes with noop_with_empty_axes: the identity.
      Value r = axes.empty() ? adaptor.getData()
                             : reduce(rewriter, loc, adaptor.getData(), axes,
                                      Combine::Sum, isUnsigned);
      return reshapeTo(rewriter, loc, r, resultType);
    };
    SmallVector<int64_t> axes;
    if (!op.getAxes()) {
      if (!op.getNoopWithEmptyAxes())
        axes = getReduceAxes(std::nullopt, rank);
    } else if (std::optional<SmallVector<int64_t>> values =
                   getConstantIntegers(op.getAxes())) {
      for (int64_t a : *values)
        axes.push_back(normalizeAxis(a, rank));
      if (axes.empty() && !op.getNoopWithEmptyAxes())
        axes = getReduceAxes(std::nullopt, rank);
    } else if (std::optional<SmallVector<int64_t>> derived =
                   getAxesFromShapes(inType, outType, op.getKeepdims())) {
      axes = *derived;
    } else {
      // Runtime axes without keepdims: the shapes leave a few candidate axes
      // sets of the right size; each is summed and the one the axes name is
      // selected at run time.
      auto axesType = getStaticType(adaptor.getAxes());
      SmallVector<SmallVector<int64_t>> candidates =
          getDroppedAxesCandidates(inType, outType);
      if (op.getKeepdims() || !axesType || candidates.empty() ||
          axesType.getDimSize(0) != int64_t(candidates.front().size()))
        return rewriter.notifyMatchFailure(
            op, "runtime axes that the shapes do not determine");
      Value result = sumOver(candidates.front());
      for (ArrayRef<int64_t> candidate : ArrayRef(candidates).drop_front())
        result = arith::SelectOp::create(
            rewriter, loc,
            matchesAxes(rewriter, loc, adaptor.getAxes(), candidate, rank),
            sumOver(candidate), result);
      rewriter.replaceOp(op, result);
      return success();
    }
    rewriter.replaceOp(op, sumOver(axes));
    return success();
  }
};

/// Index (int64) of the first (or last) maximum (or minimum) of `input`
/// along `axis`, with that axis kept as size 1.
Value argReduceKeepDims(OpBuilder &b, Location loc, Value input, int64_t axis,
                        bool isMax, bool last, bool isUnsigned) {
  auto type = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  Type elementType = type.getElementType();
  SmallVector<int64_t> keptShape, shape(type.getShape());
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == axis)
      continue;
    keptShape.push_back(type.getDimSize(d));
    outExprs.push_back(getAffineDimExpr(d, ctx));
  }
  shape[axis] = 1;
  auto valueType = RankedTensorType::get(keptShape, elementType);
  auto indexType = RankedTensorType::get(keptShape, b.getI64Type());
  Combine combine = isMax ? Combine::Max : Combine::Min;
  Value values = createFilled(b, loc, valueType,
                              getIdentity(elementType, combine, isUnsigned));
  Value indices = createFilled(b, loc, indexType, 0);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  bool isFloat = isa<FloatType>(elementType);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valueType, indexType}, ValueRange{input},
      ValueRange{values, indices},
      SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank), outMap, outMap},
      getIteratorTypes(rank, {axis}),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = args[0], best = args[1], bestIndex = args[2];
        // Strictly better keeps the first extremum; ties move to the last.
        Value better;
        if (isFloat) {
          auto pred = isMax ? (last ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT)
                            : (last ? arith::CmpFPredicate::OLE : arith::CmpFPredicate::OLT);
          better = arith::CmpFOp::create(nb, l, pred, x, best);
        } else {
          arith::CmpIPredicate pred;
          if (isMax)
            pred = isUnsigned ? (last ? arith::CmpIPredicate::uge : arith::CmpIPredicate::ugt)
                              : (last ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sgt);
          else
            pred = isUnsigned ? (last ? arith::CmpIPredicate::ule : arith::CmpIPredicate::ult)
                              : (last ? arith::CmpIPredicate::sle : arith::CmpIPredicate::slt);
          better = arith::CmpIOp::create(nb, l, pred, x, best);
        }
        Value index = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, better, x, best),
                       arith::SelectOp::create(nb, l, better, index, bestIndex)});
      });
  return reshapeTo(b, loc, generic.getResult(1),
                   RankedTensorType::get(shape, b.getI64Type()));
}

template <typename OpTy>
struct ArgReducePattern : StaticShapePattern<OpTy> {
  using StaticShapePattern<OpTy>::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getReduced());
    if (inType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "needs an axis");
    int64_t axis = normalizeAxis(op.getAxis(), inType.getRank());
    Value indices = argReduceKeepDims(
        rewriter, op.getLoc(), adaptor.getData(), axis,
        std::is_same_v<OpTy, ArgMaxOp>, op.getSelectLastIndex(),
        ordersUnsigned(inType.getElementType()));
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), indices, outType));
    return success();
  }
};

/// Whether `x` comes before `y` in TopK's order: strictly larger (or
/// smaller). Elements arrive in index order, so a tie keeps the earlier one
/// first, as ONNX requires.
Value precedes(OpBuilder &b, Location loc, Value x, Value y, bool largest,
               bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::CmpFOp::create(b, loc,
                                 largest ? arith::CmpFPredicate::OGT
                                         : arith::CmpFPredicate::OLT,
                                 x, y);
  arith::CmpIPredicate pred =
      largest ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
              : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
  return arith::CmpIOp::create(b, loc, pred, x, y);
}

/// The K first elements along the axis, best first, kept in the outputs
/// themselves: each row is scanned once, and an element that beats the
/// row's current K-th is carried down the K slots, swapping with each slot
/// it beats (an insertion into a sorted list). Index -1 marks a slot not yet
/// filled. Scalar loops: O(N) per row, plus O(K) per element that enters,
/// few after the first K unless the row is sorted the wrong way round.
struct TopKPattern : StaticShapePattern<TopKOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(TopKOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getX());
    auto valuesType = convertTensorType(op.getValues().getType());
    auto indicesType = convertTensorType(op.getIndices().getType());
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t size = inType.getDimSize(axis), k = valuesType.getDimSize(axis);
    bool largest = op.getLargest() != 0;
    bool isUnsigned = ordersUnsigned(inType.getElementType());
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    // Filled, though only read once written: no undefined value is compared.
    Value values = createFilled(rewriter, loc, valuesType, 0);
    Value indices = createFilled(rewriter, loc, indicesType, -1);
    if (k == 0) {
      rewriter.replaceOp(op, {values, indices});
      return success();
    }
    auto cst = [&](OpBuilder &b, Location l, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    // One loop per dim but the axis: the rows.
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      lbs.push_back(cst(rewriter, loc, 0));
      ubs.push_back(cst(rewriter, loc, inType.getDimSize(d)));
      steps.push_back(cst(rewriter, loc, 1));
    }
    scf::LoopNest rows = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{values, indices},
        [&](OpBuilder &b, Location l, ValueRange rowIvs, ValueRange row) {
          auto at = [&](Value position) {
            SmallVector<Value> coords(rowIvs);
            coords.insert(coords.begin() + axis, position);
            return coords;
          };
          Value last = cst(b, l, k - 1), minusOne = createScalar(b, l, b.getI64Type(), -1);
          auto scan = scf::ForOp::create(
              b, l, cst(b, l, 0), cst(b, l, size), cst(b, l, 1), row,
              [&](OpBuilder &b, Location l, Value i, ValueRange slots) {
                Value v = tensor::ExtractOp::create(b, l, x, at(i));
                Value index = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
                auto beats = [&](OpBuilder &b, Location l, Value v, Value slotValue,
                                 Value slotIndex) -> Value {
                  Value empty = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                      slotIndex, minusOne);
                  return arith::OrIOp::create(
                      b, l, empty, precedes(b, l, v, slotValue, largest, isUnsigned));
                };
                Value enters = beats(
                    b, l, v, tensor::ExtractOp::create(b, l, slots[0], at(last)),
                    tensor::ExtractOp::create(b, l, slots[1], at(last)));
                auto insert = scf::IfOp::create(
                    b, l, enters,
                    [&](OpBuilder &b, Location l) {
                      auto carry = scf::ForOp::create(
                          b, l, cst(b, l, 0), cst(b, l, k), cst(b, l, 1),
                          ValueRange{slots[0], slots[1], v, index},
                          [&](OpBuilder &b, Location l, Value j, ValueRange state) {
                            Value slotValue = tensor::ExtractOp::create(b, l, state[0], at(j));
                            Value slotIndex = tensor::ExtractOp::create(b, l, state[1], at(j));
                            Value swap = beats(b, l, state[2], slotValue, slotIndex);
                            auto pick = [&](Value ifSwap, Value otherwise) -> Value {
                              return arith::SelectOp::create(b, l, swap, ifSwap, otherwise);
                            };
                            Value newValues = tensor::InsertOp::create(
                                b, l, pick(state[2], slotValue), state[0], at(j));
                            Value newIndices = tensor::InsertOp::create(
                                b, l, pick(state[3], slotIndex), state[1], at(j));
                            scf::YieldOp::create(
                                b, l, ValueRange{newValues, newIndices,
                                                 pick(slotValue, state[2]),
                                                 pick(slotIndex, state[3])});
                          });
                      scf::YieldOp::create(b, l, carry.getResults().take_front(2));
                    },
                    [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, slots); });
                scf::YieldOp::create(b, l, insert.getResults());
              });
          return scf::ValueVector(scan.getResults().begin(), scan.getResults().end());
        });
    rewriter.replaceOp(op, rows.results);
    return success();
  }
};

/// 1 where the index along the axis is that of the first maximum.
struct HardmaxPattern : StaticShapePattern<HardmaxOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(HardmaxOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getOutput());
    if (type.getRank() == 0 || !isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "float input with an axis only");
    Location loc = op.getLoc();
    int64_t axis = normalizeAxis(op.getAxis(), type.getRank());
    Value argmax = argReduceKeepDims(rewriter, loc, adaptor.getInput(), axis,
                                     /*isMax=*/true, /*last=*/false, false);
    Value y = createElementwise(
        rewriter, loc, type, argmax, [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = arith::IndexCastOp::create(b, l, b.getI64Type(),
                                                   linalg::IndexOp::create(b, l, axis));
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, index, args[0]);
          return arith::SelectOp::create(b, l, hit,
                                         createScalar(b, l, type.getElementType(), 1.0),
                                         createScalar(b, l, type.getElementType(), 0.0));
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateReductionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReducePattern<ReduceMaxOp>, ReducePattern<ReduceMinOp>,
               ReducePattern<ReduceProdOp>, ReducePattern<ReduceSumSquareOp>,
               ReducePattern<ReduceL1Op>, ReducePattern<ReduceL2Op>,
               ReducePattern<ReduceLogSumOp>, ReduceLogSumExpPattern,
               ReduceSumPattern, ArgReducePattern<ArgMaxOp>,
               ArgReducePattern<ArgMinOp>, TopKPattern, HardmaxPattern>(
      converter, patterns.getContext());
}
