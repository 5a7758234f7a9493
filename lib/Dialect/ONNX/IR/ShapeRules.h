//===- ShapeRules.h - pieces shared by the ops' shape rules -----*- C++ -*-===//
//
// A rule knows what the types tell: an unranked operand gives an unranked
// result (or a known rank with dynamic dimensions), a dynamic dimension stays
// dynamic. Rules fail only where the operands contradict each other.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_DIALECT_ONNX_IR_SHAPERULES_H
#define ONNXQUANT_LIB_DIALECT_ONNX_IR_SHAPERULES_H

#include "VerifyUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include <optional>

namespace mlir::onnxq::detail {

/// The shape of `value`'s tensor type, or nullopt when it is unranked.
std::optional<SmallVector<int64_t>> getShapeOf(Value value);

/// The shape of `data`; when it is unranked, appends an unranked result of
/// its element type instead (what a rule that keeps the data's elements
/// knows then) and returns nullopt.
std::optional<SmallVector<int64_t>>
getShapeOrAppendUnranked(Value data, SmallVectorImpl<Type> &resultTypes);

/// A tensor of `shape` (unranked when nullopt) and `elementType`.
Type getTensorType(std::optional<ArrayRef<int64_t>> shape, Type elementType);

/// A tensor of rank `rank` with every dimension dynamic.
Type getDynamicTensorType(int64_t rank, Type elementType);

/// Numpy broadcasting of the shapes of `inputs` (nullopt when one is
/// unranked); failure when two static dimensions differ and neither is 1.
FailureOr<std::optional<SmallVector<int64_t>>> broadcastShapes(ValueRange inputs);

/// The element type of `value`'s tensor.
inline Type getElementTypeOf(Value value) {
  return getElementTypeOrSelf(value.getType());
}

/// Appends one result of `shape` (unranked when nullopt) and `elementType`;
/// fails when computing the shape failed.
LogicalResult appendResultType(
    FailureOr<std::optional<SmallVector<int64_t>>> shape, Type elementType,
    SmallVectorImpl<Type> &resultTypes);

/// Appends one result: `inputs` broadcast, with `elementType`.
LogicalResult inferBroadcast(ValueRange inputs, Type elementType,
                             SmallVectorImpl<Type> &resultTypes);

/// Appends one result: `inputs` concatenated along `axis`, with
/// `elementType` (unranked when no input is ranked).
LogicalResult inferConcat(ValueRange inputs, int64_t axis, Type elementType,
                          SmallVectorImpl<Type> &resultTypes);

/// Appends one result: `input`'s shape with `elementType`.
LogicalResult inferSameShape(Value input, Type elementType,
                             SmallVectorImpl<Type> &resultTypes);

/// The shape of numpy.matmul(a, b) (1-D operands promoted and the added
/// dimension dropped again); nullopt when an operand is unranked.
FailureOr<std::optional<SmallVector<int64_t>>> matmulShape(Value a, Value b);

/// The shape of a Gemm-like (M, K) x (K, N) product with optional
/// transposes of 2-D `a` and `b`.
FailureOr<SmallVector<int64_t>> gemmShape(Value a, Value b, bool transA,
                                          bool transB);

/// The shape of a convolution of `x` (N, C, spatial...) with weights `w`
/// (M, C/group, kernel...): (N, M, output...).
FailureOr<std::optional<SmallVector<int64_t>>>
convolutionShape(Value x, Value w, const WindowAttrs &window);

/// The shape of a pooling of `x` (N, C, spatial...) with `kernelShape`.
FailureOr<std::optional<SmallVector<int64_t>>>
poolingShape(Value x, const WindowAttrs &window, bool ceilMode);

/// The shape of a global pooling of `x`: every spatial dimension 1 (those
/// between N and C when `channelsLast`).
FailureOr<std::optional<SmallVector<int64_t>>> globalPoolingShape(Value x,
                                                                  bool channelsLast);

/// One dimension of size `dim` sliced by ONNX's `start`, `end` and `step`
/// (negative positions count from the end, then both are clamped): the first
/// index taken and how many.
struct SlicedDim {
  int64_t first, size;
};
SlicedDim sliceDim(int64_t start, int64_t end, int64_t step, int64_t dim);

/// The shape of a reduction of `data` over `axes` (all axes when empty);
/// kept as size 1 or dropped.
std::optional<SmallVector<int64_t>> reducedShape(Value data,
                                                 ArrayRef<int64_t> axes,
                                                 bool keepDims);

} // namespace mlir::onnxq::detail

#endif // ONNXQUANT_LIB_DIALECT_ONNX_IR_SHAPERULES_H
