//===- VerifyUtils.h - checks shared by onnx op verifiers -------*- C++ -*-===//
//
// Verifiers check what is knowable from types: an unranked operand or a
// dynamic dimension is accepted, a contradiction between static facts is not.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_DIALECT_ONNX_IR_VERIFYUTILS_H
#define ONNXQUANT_LIB_DIALECT_ONNX_IR_VERIFYUTILS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include <optional>

namespace mlir::onnxq::detail {

/// The rank of `value`'s tensor type, or nullopt when it is unranked.
std::optional<int64_t> getRank(Value value);

/// Dimension `dim` of `value` when it is ranked and that dimension is static.
std::optional<int64_t> getStaticDim(Value value, int64_t dim);

/// The integers of an I64ArrayAttr.
SmallVector<int64_t> getI64Values(ArrayAttr array);

/// `axis` must lie in [-rank, rank) (or [-rank, rank] when `allowEnd`).
LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                         StringRef name = "axis", bool allowEnd = false);

/// `axis` must lie within the rank of a ranked `data` (a scalar counts as
/// rank 1, as ONNX's Softmax-like ops accept it).
LogicalResult verifyAxisOf(Operation *op, int64_t axis, Value data);

/// Reduction `axes` must be unique and each in [-rank, rank).
LogicalResult verifyAxes(Operation *op, ArrayAttr axes, Value data);

/// `inputs` concatenated along `axis` must give a ranked `result`: the
/// same rank, a valid axis, equal dimensions outside it.
LogicalResult verifyConcatShapes(Operation *op, ValueRange inputs, int64_t axis,
                                 Value result);

/// The static dimensions of `a` and `b` must broadcast numpy-style.
LogicalResult verifyBroadcastable(Operation *op, Value a, Value b);

/// `value`'s element type must be i1 (an ONNX bool).
LogicalResult verifyBoolElement(Operation *op, Value value, StringRef name);

/// A ranked `value` must have rank `rank` (named `name` in the message).
LogicalResult verifyRank(Operation *op, Value value, int64_t rank,
                         StringRef name);

/// A ranked `value` must have a rank of at least `minRank`.
LogicalResult verifyMinRank(Operation *op, Value value, int64_t minRank,
                            StringRef name);

/// `value` must be a scalar: rank 0 or a single element.
LogicalResult verifyScalar(Operation *op, Value value, StringRef name);

/// `value` must be a 1-D tensor of integers.
LogicalResult verifyIntegerVector(Operation *op, Value value, StringRef name);

/// Element types of `a` and `b` must be equal.
LogicalResult verifySameElementType(Operation *op, Value a, StringRef aName,
                                    Value b, StringRef bName);

/// The window attributes of convolutions and pooling over an input `x`:
/// kernel_shape, pads, strides, dilations (any may be null) and auto_pad.
struct WindowAttrs {
  ArrayAttr kernelShape, pads, strides, dilations;
  StringRef autoPad;
};

/// The window attributes of a convolution or pooling op.
template <typename OpTy>
WindowAttrs getWindowAttrs(OpTy op) {
  return {op.getKernelShapeAttr(), op.getPadsAttr(), op.getStridesAttr(),
          op.getDilationsAttr(), op.getAutoPad()};
}
/// The window attributes, and, where the input's spatial dims and the
/// kernel (`kernel`, or kernel_shape when empty) are known, that the window
/// fits the padded input.
LogicalResult verifyWindow(Operation *op, Value x, const WindowAttrs &attrs,
                           ArrayRef<int64_t> kernel = {});

/// Conv-like ops: `x` is (N, C, spatial...), `w` is (M, C/group, kernel...).
/// Checks the window attributes and the channel and kernel agreement.
LogicalResult verifyConvolution(Operation *op, Value x, Value w, int64_t group,
                                WindowAttrs attrs);

/// Per-tensor or per-axis quantization parameters: `scale` is a scalar or a
/// 1-D tensor whose length is dimension `axis` of `data`.
LogicalResult verifyQuantParams(Operation *op, Value data, Value scale,
                                Value zeroPoint, int64_t axis);

/// Fails with "expects <what>" unless `type`'s element type is an 8-bit
/// integer (signless or unsigned).
LogicalResult verifyInt8Element(Operation *op, Value value, StringRef name);

/// Same, allowing 16-bit integers too (QuantizeLinear's result).
LogicalResult verifyInt8Or16Element(Operation *op, Value value,
                                    StringRef name);

} // namespace mlir::onnxq::detail

#endif // ONNXQUANT_LIB_DIALECT_ONNX_IR_VERIFYUTILS_H
