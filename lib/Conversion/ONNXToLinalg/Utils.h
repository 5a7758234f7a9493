//===- Utils.h - helpers shared by the onnx to linalg patterns --*- C++ -*-===//

#ifndef ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_UTILS_H
#define ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_UTILS_H

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/WindowGeometry.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include <optional>

namespace mlir::onnxq {

/// `type` when it is a ranked tensor of static shape, else null.
RankedTensorType getStaticType(Type type);
inline RankedTensorType getStaticType(Value value) {
  return getStaticType(value.getType());
}

/// The type of `value`, a ranked tensor of static shape (as
/// StaticShapePattern guarantees for the tensors of its op).
inline RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// A conversion pattern for an op whose tensors all have static shapes, which
/// every lowering here needs: for other ops the match fails ("needs static
/// shapes") before matchAndRewriteStatic is called. Operands for which
/// allowsDynamicOperand is true (run-time shape data) are not checked.
template <typename OpTy>
class StaticShapePattern : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    for (OpOperand &operand : op->getOpOperands())
      if (!allowsDynamicOperand(operand.getOperandNumber()) &&
          isa<TensorType>(operand.get().getType()) && !getStaticType(operand.get()))
        return rewriter.notifyMatchFailure(op, "needs static shapes");
    for (Value result : op->getResults())
      if (isa<TensorType>(result.getType()) && !getStaticType(result))
        return rewriter.notifyMatchFailure(op, "needs static shapes");
    return matchAndRewriteStatic(op, adaptor, rewriter);
  }

protected:
  /// `type` as the lowered tensors hold it (signless integers).
  RankedTensorType convertTensorType(Type type) const {
    return cast<RankedTensorType>(this->getTypeConverter()->convertType(type));
  }

  virtual LogicalResult
  matchAndRewriteStatic(OpTy op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const = 0;
  virtual bool allowsDynamicOperand(unsigned index) const { return false; }
};

/// An `arith.constant` of `type` (float, or signless integer: `data` is
/// truncated to the width) holding `data`; large data is a resource blob,
/// like imported weights.
Value createConstant(OpBuilder &b, Location loc, RankedTensorType type,
                     ArrayRef<float> data);
Value createConstant(OpBuilder &b, Location loc, RankedTensorType type,
                     ArrayRef<int64_t> data);

/// A typed scalar attribute (float or integer) of `value`.
TypedAttr getScalarAttr(Type elementType, double value);

/// An `arith.constant` scalar of `elementType`.
Value createScalar(OpBuilder &b, Location loc, Type elementType, double value);

/// `tensor.empty` of a static type.
Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type);

/// A tensor of `type` filled with `value` (`linalg.fill`).
Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   double value);

/// A tensor of `type` filled with the scalar `value`.
Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   TypedAttr value);

/// The computation of one element from the scalars of the inputs.
using ScalarBody =
    function_ref<Value(OpBuilder &b, Location loc, ValueRange args)>;

/// A `linalg.generic` computing `resultType` element by element from
/// `inputs`, broadcast numpy-style (right-aligned, size-1 dimensions
/// repeat). Inputs may have any rank up to the result's.
Value createElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                        ValueRange inputs, ScalarBody body);

/// `input` broadcast numpy-style to `resultType` (createElementwise of the
/// element itself).
Value createBroadcast(OpBuilder &b, Location loc, RankedTensorType resultType,
                      Value input);

/// A `linalg.generic` without inputs computing each element of `resultType`
/// from its indices (`linalg.index`): gathers at computed addresses.
Value createFromIndices(OpBuilder &b, Location loc, RankedTensorType resultType,
                        function_ref<Value(OpBuilder &b, Location loc)> element);

/// Whether integers of the ONNX element type `type` order unsigned: uiN,
/// and bool (false < true; as signed i1, true would be -1).
bool ordersUnsigned(Type type);

/// Associative combinations of reductions and variadic ops.
enum class Combine { Sum, Prod, Max, Min };

/// The identity of `combine` in `type` (the lowest or highest value for
/// Max/Min). `isUnsigned` is the ONNX signedness of an integer type.
TypedAttr getIdentity(Type type, Combine combine, bool isUnsigned);

/// `x combine y` for float, signed or unsigned integer scalars.
Value combineScalars(OpBuilder &b, Location loc, Combine combine,
                     bool isUnsigned, Value x, Value y);

/// Combines an accumulator (first) with an element (second).
using Combiner = function_ref<Value(OpBuilder &, Location, Value, Value)>;

/// Reduces `input` over `axes`, starting from `init`, into a tensor where
/// those dims have size 1. With `lanes` > 1 and `axes` the trailing dims
/// (a row of a softmax or a normalization), each row is reduced in
/// `lanes`-wide partial results first (reduceRowsInLanes: the reduction
/// then reads contiguous vectors; floats combine in another order).
Value reduceKeepDims(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, TypedAttr init, Combiner combine,
                     int64_t lanes = 1);

/// Reduces the rows of the 2-D `input` (R, L) into (R) of `init`'s type
/// (the accumulator's, which may be wider than the input's), from `init`, in
/// two stages the kernel stage vectorizes: partial results of `lanes`
/// columns each (element l of a row combines its columns l, l + lanes, ...
/// with `combine`), then those (with `combineAccumulators`) and the
/// L % lanes columns left. Floats combine in another order than one pass
/// along the row.
Value reduceRowsInLanes(OpBuilder &b, Location loc, Value input, TypedAttr init,
                        Combiner combine, Combiner combineAccumulators,
                        int64_t lanes);

/// Reshapes a static tensor to another static shape with the same number of
/// elements (collapse to 1-D, expand to the target; canonicalization merges
/// the pair into one reshape where it can).
Value reshapeTo(OpBuilder &b, Location loc, Value value,
                RankedTensorType target);

/// A run-time integer `index` into a dim of `size` as an `index` value,
/// negative ones counted from the end (ONNX), and whether it lies inside
/// the dim. Readers clamp with it (onnxq-check-indices reports the error);
/// writers skip what lies outside.
std::pair<Value, Value> wrapIndex(OpBuilder &b, Location loc, Value index,
                                  int64_t size);

/// `v` clamped to [lo, hi] (index values).
Value clampIndex(OpBuilder &b, Location loc, Value v, int64_t lo, int64_t hi);

/// Where a gather reads with a run-time integer `index` into a dim of
/// `size`: wrapped as wrapIndex does, then clamped into the dim, so that no
/// index reads outside the data (onnxq-check-indices makes NAME_run report
/// one out of range).
Value getReadIndex(OpBuilder &b, Location loc, Value index, int64_t size);

/// Iterator types: `parallel` everywhere but at `reduced` dims.
SmallVector<utils::IteratorType> getIteratorTypes(int64_t rank,
                                                  ArrayRef<int64_t> reduced = {});

/// The indexing of a sliding window in a linalg.generic: per spatial dim d,
/// output loop o = dim(firstOutputLoop + d) and tap loop k =
/// dim(firstTapLoop + d) read the input at o * stride + k * dilation, the
/// window (weights or the pooling extent) at k, and write the output at o; the
/// tap loops reduce. Callers seed the non-spatial leading expressions.
struct SlidingWindowMaps {
  SmallVector<AffineExpr> input, window, output;
  SmallVector<int64_t> reduced;

  /// With `outputDims`, only the first that many spatial dims get an output
  /// loop and their input and output expressions; the others get their tap
  /// loop alone, for the caller to index (a convolution over the padded
  /// width).
  void appendSpatial(const WindowGeometry &g, int64_t firstOutputLoop,
                     int64_t firstTapLoop, MLIRContext *ctx,
                     std::optional<int64_t> outputDims = std::nullopt);
  /// The (input, window, output) maps over `loops` loops.
  SmallVector<AffineMap> getMaps(int64_t loops, MLIRContext *ctx) const;
};
/// Pads the spatial dimensions (2..) of an NC... tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> low, ArrayRef<int64_t> high, TypedAttr value);
/// The same with a scalar known when the model runs (a zero point).
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value value);

/// Calls `fn` with every position of a kernel of `shape`, in row-major order.
void forEachKernelPosition(ArrayRef<int64_t> shape,
                           function_ref<void(ArrayRef<int64_t>)> fn);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_UTILS_H
