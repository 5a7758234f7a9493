//===- Utils.cpp - helpers shared by the onnx to linalg patterns ----------===//

#include "Utils.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

RankedTensorType mlir::onnxq::getStaticType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape() ? ranked : nullptr;
}

Value mlir::onnxq::createConstant(OpBuilder &b, Location loc,
                                  RankedTensorType type, ArrayRef<float> data) {
  return arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(createFloatElements(type, data)));
}

Value mlir::onnxq::createConstant(OpBuilder &b, Location loc,
                                  RankedTensorType type,
                                  ArrayRef<int64_t> data) {
  return arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(createIntegerElements(type, data)));
}

TypedAttr mlir::onnxq::getScalarAttr(Type elementType, double value) {
  if (isa<FloatType>(elementType))
    return FloatAttr::get(elementType, value);
  return IntegerAttr::get(elementType, static_cast<int64_t>(value));
}

Value mlir::onnxq::createScalar(OpBuilder &b, Location loc, Type elementType,
                                double value) {
  return arith::ConstantOp::create(b, loc, getScalarAttr(elementType, value));
}

Value mlir::onnxq::createEmpty(OpBuilder &b, Location loc,
                               RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value mlir::onnxq::createFilled(OpBuilder &b, Location loc,
                                RankedTensorType type, double value) {
  return createFilled(b, loc, type, getScalarAttr(type.getElementType(), value));
}

Value mlir::onnxq::createFilled(OpBuilder &b, Location loc,
                                RankedTensorType type, TypedAttr value) {
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, createEmpty(b, loc, type))
      .getResult(0);
}

bool mlir::onnxq::ordersUnsigned(Type type) {
  return type.isUnsignedInteger() || type.isInteger(1);
}

TypedAttr mlir::onnxq::getIdentity(Type type, Combine combine, bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    double inf = std::numeric_limits<double>::infinity();
    double v = combine == Combine::Sum    ? 0.0
               : combine == Combine::Prod ? 1.0
               : combine == Combine::Max  ? -inf
                                          : inf;
    return FloatAttr::get(floatType, v);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt v;
  switch (combine) {
  case Combine::Sum:
    v = APInt(width, 0);
    break;
  case Combine::Prod:
    v = APInt(width, 1);
    break;
  case Combine::Max:
    v = isUnsigned ? APInt::getMinValue(width) : APInt::getSignedMinValue(width);
    break;
  case Combine::Min:
    v = isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
    break;
  }
  return IntegerAttr::get(type, v);
}

Value mlir::onnxq::combineScalars(OpBuilder &b, Location loc, Combine combine,
                     bool isUnsigned, Value x, Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (combine) {
  case Combine::Sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, x, y))
                   : Value(arith::AddIOp::create(b, loc, x, y));
  case Combine::Prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc, x, y))
                   : Value(arith::MulIOp::create(b, loc, x, y));
  case Combine::Max:
    return isFloat      ? Value(arith::MaximumFOp::create(b, loc, x, y))
           : isUnsigned ? Value(arith::MaxUIOp::create(b, loc, x, y))
                        : Value(arith::MaxSIOp::create(b, loc, x, y));
  case Combine::Min:
    return isFloat      ? Value(arith::MinimumFOp::create(b, loc, x, y))
           : isUnsigned ? Value(arith::MinUIOp::create(b, loc, x, y))
                        : Value(arith::MinSIOp::create(b, loc, x, y));
  }
  llvm_unreachable("unknown combine");
}

/// The reduction itself writes a tensor without the reduced dims (a projected
/// permutation, which vectorizes); a reshape restores the unit dims.
Value mlir::onnxq::reduceKeepDims(OpBuilder &b, Location loc, Value input,
                                  ArrayRef<int64_t> axes, TypedAttr init,
                                  Combiner combine, int64_t lanes) {
  auto type = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  int64_t rowLength = 1;
  for (int64_t d : axes)
    rowLength *= type.getDimSize(d);
  bool trailing = !axes.empty() && llvm::equal(axes, llvm::seq<int64_t>(
                                                         rank - axes.size(), rank));
  if (lanes > 1 && trailing && rowLength >= lanes) {
    SmallVector<int64_t> shape(type.getShape());
    for (int64_t d : axes)
      shape[d] = 1;
    int64_t rows = type.getNumElements() / rowLength;
    Value reduced = reduceRowsInLanes(
        b, loc,
        reshapeTo(b, loc, input,
                  RankedTensorType::get({rows, rowLength}, type.getElementType())),
        init, combine, combine, lanes);
    return reshapeTo(b, loc, reduced,
                     RankedTensorType::get(shape, type.getElementType()));
  }
  SmallVector<int64_t> keptShape, shape(type.getShape());
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      shape[d] = 1;
      continue;
    }
    keptShape.push_back(type.getDimSize(d));
    outExprs.push_back(getAffineDimExpr(d, ctx));
  }
  auto outType = RankedTensorType::get(keptShape, type.getElementType());
  Value filled = createFilled(b, loc, outType, init);
  Value reduced =
      linalg::GenericOp::create(
          b, loc, TypeRange{outType}, ValueRange{input}, ValueRange{filled},
          SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, outExprs, ctx)},
          getIteratorTypes(rank, axes),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, combine(nb, l, args[1], args[0]));
          })
          .getResult(0);
  return reshapeTo(b, loc, reduced,
                   RankedTensorType::get(shape, type.getElementType()));
}

SmallVector<utils::IteratorType>
mlir::onnxq::getIteratorTypes(int64_t rank, ArrayRef<int64_t> reduced) {
  SmallVector<utils::IteratorType> types(rank, utils::IteratorType::parallel);
  for (int64_t d : reduced)
    types[d] = utils::IteratorType::reduction;
  return types;
}

/// Reads `input` (rank <= the result's) broadcast into `resultShape`: the
/// size-1 dimensions that broadcast are dropped from the value, so the map
/// is a projected permutation (what linalg's vectorizer handles).
static std::pair<Value, AffineMap>
getBroadcastOperand(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> resultShape) {
  auto type = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank(), resultRank = resultShape.size();
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t resultDim = resultRank - rank + d;
    if (type.getDimSize(d) == 1 && resultShape[resultDim] != 1)
      continue;
    exprs.push_back(getAffineDimExpr(resultDim, ctx));
    kept.push_back(type.getDimSize(d));
  }
  if (int64_t(kept.size()) != rank)
    input = reshapeTo(b, loc, input,
                      RankedTensorType::get(kept, type.getElementType()));
  return {input, AffineMap::get(resultRank, 0, exprs, ctx)};
}

Value mlir::onnxq::createElementwise(OpBuilder &b, Location loc,
                                     RankedTensorType resultType,
                                     ValueRange inputs, ScalarBody body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps;
  SmallVector<Value> operands;
  for (Value input : inputs) {
    auto [operand, map] = getBroadcastOperand(b, loc, input, resultType.getShape());
    operands.push_back(operand);
    maps.push_back(map);
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, operands,
      ValueRange{createEmpty(b, loc, resultType)}, maps,
      getIteratorTypes(rank),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value mlir::onnxq::reshapeTo(OpBuilder &b, Location loc, Value value,
                             RankedTensorType target) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source.getShape() == target.getShape())
    return value;
  auto flatType = RankedTensorType::get({source.getNumElements()},
                                        source.getElementType());
  Value flat = value;
  if (source.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < source.getRank(); ++d)
      all.push_back(d);
    flat = source.getRank() == 0
               ? tensor::ExpandShapeOp::create(b, loc, flatType, value,
                                               ArrayRef<ReassociationIndices>{},
                                               ArrayRef<OpFoldResult>{b.getIndexAttr(1)})
                     .getResult()
               : tensor::CollapseShapeOp::create(b, loc, flatType, value,
                                                 ArrayRef<ReassociationIndices>{all})
                     .getResult();
  }
  auto targetType =
      RankedTensorType::get(target.getShape(), source.getElementType());
  if (target.getRank() == 1)
    return flat;
  if (target.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, targetType, flat,
                                           ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < target.getRank(); ++d) {
    all.push_back(d);
    sizes.push_back(b.getIndexAttr(target.getDimSize(d)));
  }
  return tensor::ExpandShapeOp::create(b, loc, targetType, flat,
                                       ArrayRef<ReassociationIndices>{all}, sizes);
}

void SlidingWindowMaps::appendSpatial(const WindowGeometry &g,
                                      int64_t firstOutputLoop,
                                      int64_t firstTapLoop, MLIRContext *ctx,
                                      std::optional<int64_t> outputDims) {
  int64_t spatial = g.kernel.size();
  for (int64_t d = 0; d < spatial; ++d) {
    AffineExpr k = getAffineDimExpr(firstTapLoop + d, ctx);
    window.push_back(k);
    reduced.push_back(firstTapLoop + d);
    if (d >= outputDims.value_or(spatial))
      continue;
    AffineExpr o = getAffineDimExpr(firstOutputLoop + d, ctx);
    input.push_back(o * g.strides[d] + k * g.dilations[d]);
    output.push_back(o);
  }
}

Value mlir::onnxq::reduceRowsInLanes(OpBuilder &b, Location loc, Value input,
                                     TypedAttr init, Combiner combine,
                                     Combiner combineAccumulators,
                                     int64_t lanes) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rows = type.getDimSize(0), length = type.getDimSize(1);
  Type elementType = type.getElementType(), accType = init.getType();
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
             d2 = getAffineDimExpr(2, ctx);
  auto sliceColumns = [&](int64_t first, int64_t count) {
    return tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({rows, count}, elementType), input,
        getAsIndexOpFoldResult(ctx, {0, first}),
        getAsIndexOpFoldResult(ctx, {rows, count}),
        getAsIndexOpFoldResult(ctx, {1, 1}));
  };
  // Combines the columns of the 2-D `part` into `acc` (R) with `fn`.
  auto reduceInto = [&](Value part, Value acc, Combiner fn) {
    return linalg::GenericOp::create(
               b, loc, TypeRange{acc.getType()}, ValueRange{part},
               ValueRange{acc},
               SmallVector<AffineMap>{AffineMap::get(2, 0, {d0, d1}, ctx),
                                      AffineMap::get(2, 0, {d0}, ctx)},
               getIteratorTypes(2, {1}),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 linalg::YieldOp::create(nb, l, fn(nb, l, args[1], args[0]));
               })
        .getResult(0);
  };
  Value result =
      createFilled(b, loc, RankedTensorType::get({rows}, accType), init);
  int64_t full = lanes > 1 ? length - length % lanes : 0;
  if (full > 0) {
    // (R, J, lanes) -> (R, lanes) over loops (r, l, j): l is contiguous in
    // the input and the output, j steps `lanes` apart.
    Value blocks = reshapeTo(
        b, loc, full == length ? input : Value(sliceColumns(0, full)),
        RankedTensorType::get({rows, full / lanes, lanes}, elementType));
    auto partialType = RankedTensorType::get({rows, lanes}, accType);
    Value partial =
        linalg::GenericOp::create(
            b, loc, TypeRange{partialType}, ValueRange{blocks},
            ValueRange{createFilled(b, loc, partialType, init)},
            SmallVector<AffineMap>{AffineMap::get(3, 0, {d0, d2, d1}, ctx),
                                   AffineMap::get(3, 0, {d0, d1}, ctx)},
            getIteratorTypes(3, {2}),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              linalg::YieldOp::create(nb, l, combine(nb, l, args[1], args[0]));
            })
            .getResult(0);
    // The partial results are accumulators already: combine them as such.
    result = reduceInto(partial, result, combineAccumulators);
  }
  if (full < length)
    result = reduceInto(full == 0 ? input : Value(sliceColumns(full, length - full)),
                        result, combine);
  return result;
}

SmallVector<AffineMap> SlidingWindowMaps::getMaps(int64_t loops,
                                                  MLIRContext *ctx) const {
  return {AffineMap::get(loops, 0, input, ctx),
          AffineMap::get(loops, 0, window, ctx),
          AffineMap::get(loops, 0, output, ctx)};
}

Value mlir::onnxq::padSpatial(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                              TypedAttr value) {
  bool none = llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
              llvm::all_of(high, [](int64_t p) { return p == 0; });
  return none ? input
              : padSpatial(b, loc, input, low, high,
                           Value(arith::ConstantOp::create(b, loc, value)));
}

Value mlir::onnxq::padSpatial(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                              Value padValue) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> lowAll(2, 0), highAll(2, 0), shape(type.getShape());
  lowAll.append(low.begin(), low.end());
  highAll.append(high.begin(), high.end());
  for (size_t i = 0; i < low.size(); ++i)
    shape[i + 2] += low[i] + high[i];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  return tensor::PadOp::create(b, loc, paddedType, input,
                               getAsIndexOpFoldResult(b.getContext(), lowAll),
                               getAsIndexOpFoldResult(b.getContext(), highAll),
                               padValue);
}

void mlir::onnxq::forEachKernelPosition(
    ArrayRef<int64_t> shape, function_ref<void(ArrayRef<int64_t>)> fn) {
  int64_t count = 1;
  for (int64_t k : shape)
    count *= k;
  SmallVector<int64_t> position(shape.size(), 0);
  for (int64_t t = 0; t < count; ++t) {
    for (int64_t d = shape.size() - 1, rest = t; d >= 0; --d) {
      position[d] = rest % shape[d];
      rest /= shape[d];
    }
    fn(position);
  }
}

Value mlir::onnxq::createBroadcast(OpBuilder &b, Location loc,
                                   RankedTensorType resultType, Value input) {
  return createElementwise(b, loc, resultType, input,
                           [](OpBuilder &, Location, ValueRange args) {
                             return args[0];
                           });
}

Value mlir::onnxq::createFromIndices(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    function_ref<Value(OpBuilder &b, Location loc)> element) {
  int64_t rank = resultType.getRank();
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{},
             ValueRange{createEmpty(b, loc, resultType)},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             getIteratorTypes(rank),
             [&](OpBuilder &nb, Location l, ValueRange) {
               linalg::YieldOp::create(nb, l, element(nb, l));
             })
      .getResult(0);
}

std::pair<Value, Value> mlir::onnxq::wrapIndex(OpBuilder &b, Location loc,
                                               Value index, int64_t size) {
  index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value sizeValue = arith::ConstantIndexOp::create(b, loc, size);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  index = arith::SelectOp::create(
      b, loc, negative, arith::AddIOp::create(b, loc, index, sizeValue), index);
  Value inside = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, sizeValue));
  return {index, inside};
}

Value mlir::onnxq::clampIndex(OpBuilder &b, Location loc, Value v, int64_t lo,
                              int64_t hi) {
  v = arith::MaxSIOp::create(b, loc, v, arith::ConstantIndexOp::create(b, loc, lo));
  return arith::MinSIOp::create(b, loc, v, arith::ConstantIndexOp::create(b, loc, hi));
}

Value mlir::onnxq::getReadIndex(OpBuilder &b, Location loc, Value index,
                                int64_t size) {
  return clampIndex(b, loc, wrapIndex(b, loc, index, size).first, 0, size - 1);
}
