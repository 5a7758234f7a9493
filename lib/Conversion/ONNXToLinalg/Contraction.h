//===- Contraction.h - convolutions and matrix products ---------*- C++ -*-===//
//
// The float ops (Conv, Gemm, MatMul) and their quantized forms (QLinearConv,
// QGemm, QLinearMatMul) share the loop structure; only the multiply-add step
// differs: float, or 8-bit operands extended into an int32 accumulator.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_CONTRACTION_H
#define ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_CONTRACTION_H

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"

namespace mlir::onnxq {

/// acc + lhs * rhs, in the accumulator's type: float operands as they are,
/// integer operands extended to the accumulator (zero-extended when the ONNX
/// type is unsigned).
struct MultiplyAdd {
  bool lhsUnsigned = false, rhsUnsigned = false;
  Value build(OpBuilder &b, Location loc, Value lhs, Value rhs, Value acc) const;
};

/// out[..., m, n] += lhs * rhs over loops (batch..., m, n, k): one
/// `linalg.generic` whose maps encode transposes and broadcasting.
Value createContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                        Value init, AffineMap lhsMap, AffineMap rhsMap,
                        MultiplyAdd step = {});

/// acc (N, G, F/G, S...) plus the grouped 1x1 contraction of `input`
/// (N, G, C/G, S...) with `weights` (G, F/G, C/G), or (G, C/G, F/G) when
/// `weightsInputMajor` (ConvTranspose), over loops (n, g, f, s..., c): one
/// kernel tap of a convolution.
Value accumulateGroupedPointwise(OpBuilder &b, Location loc, Value input,
                                 Value weights, Value acc,
                                 bool weightsInputMajor, MultiplyAdd step = {});

/// The window geometry of a convolution (Conv, QLinearConv) with static
/// shapes of rank >= 3 whose attributes give its result's shape, or nullopt.
template <typename ConvLikeOp>
std::optional<WindowGeometry> getConvGeometry(ConvLikeOp op, Value x, Value w,
                                              Value y) {
  RankedTensorType xType = getStaticType(x), wType = getStaticType(w),
                   yType = getStaticType(y);
  if (!xType || !wType || !yType || xType.getRank() < 3)
    return std::nullopt;
  std::optional<WindowGeometry> g = computeWindowGeometry(
      xType.getShape(), wType.getShape().drop_front(2), op.getPadsAttr(),
      op.getStridesAttr(), op.getDilationsAttr(), op.getAutoPad(),
      /*ceilMode=*/false);
  if (!g || ArrayRef<int64_t>(g->output) != yType.getShape().drop_front(2))
    return std::nullopt;
  return g;
}

/// acc + input element * weight element, in some form.
using WindowStep =
    function_ref<Value(OpBuilder &, Location, Value input, Value weight, Value acc)>;

/// What becomes of a convolution's accumulator (N, G, F/G, ...) before it
/// takes the result's shape (a requantization); null: nothing.
using ConvolutionEpilogue =
    function_ref<Value(OpBuilder &, Location, Value accumulator)>;

/// The windowed contraction of the grouped `input` (N, G, C', I...) with the
/// grouped `weights` (G, F/G, C', K...), or (G, F/G, K..., C') with
/// `channelsLastWeights`, into `resultType`'s shape (N, F,
/// O...), each output starting from its filter's element of `perFilter` (F)
/// (zero when null): one `linalg.generic` over loops (n, g, f, o..., c, k...)
/// reading the input at `o * stride + k * dilation`, each step `step`, then
/// `epilogue` on the accumulator in the contraction's own shape. A map whose
/// rows are short for vectors of `vectorBits` bits (0: none) is computed with
/// its last two o loops one: over the padded width, or for a strided
/// convolution over the input rows each tap row reads, gathered first.
Value convolveGrouped(OpBuilder &b, Location loc, Value input, Value weights,
                      RankedTensorType resultType, Value perFilter,
                      int64_t group, const WindowGeometry &g,
                      unsigned vectorBits, WindowStep step,
                      ConvolutionEpilogue epilogue = nullptr,
                      bool channelsLastWeights = false);

/// The convolution of the padded input `x` (N, C, I...) with the filters `w`
/// (F, C/group, K...) into `resultType` (N, F, O...), from `perFilter` and
/// with `epilogue` as convolveGrouped; any number of spatial dims.
Value convolve(OpBuilder &b, Location loc, Value x, Value w,
               RankedTensorType resultType, Value perFilter, int64_t group,
               const WindowGeometry &g, unsigned vectorBits,
               MultiplyAdd step = {}, ConvolutionEpilogue epilogue = nullptr);

/// The int32 accumulators (`accType`, N x F x O...) of the convolution of
/// the padded 8-bit input `x` (N, C, I...; u8 when `xUnsigned`) with
/// constant weights of `wType`'s shape already less their zero points
/// (`weights`; i16 when `wideWeights`), each filter starting from its
/// element of `start` (F), then `epilogue` (null: none): in the packed form
/// `packing` says (PackedBytes.h; channels past the last hold
/// `channelFill` and weigh 0) or the widening one (Int8DotProduct::None).
/// QLinearConv's and ConvInteger's.
Value convolveQuantized(OpBuilder &b, Location loc, Value x, bool xUnsigned,
                        RankedTensorType wType, ArrayRef<int64_t> weights,
                        bool wideWeights, Value start, RankedTensorType accType,
                        int64_t group, const WindowGeometry &g,
                        Int8DotProduct packing, int8_t channelFill,
                        unsigned vectorBits, ConvolutionEpilogue epilogue);

/// The int32 product (M, N) of the 8-bit matrix `a` ((M, K), or (K, M)
/// when `transA`; u8 when `aUnsigned`) and constant weights (K, N) already
/// less their zero points (i16 when one does not fit in 8 bits), each
/// column n starting from `columnStart[n]`: packed for `dot`'s byte dot
/// products where it can (PackedBytes.h: u8 a, no transA, 8-bit weights),
/// else widening. QLinearMatMul's, QGemm's and MatMulInteger's.
Value multiplyQuantized(OpBuilder &b, Location loc, Value a, bool aUnsigned,
                        bool transA, ArrayRef<int64_t> weights, int64_t k,
                        int64_t n, Value columnStart, Int8DotProduct dot);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_CONTRACTION_H
