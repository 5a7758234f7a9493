//===- Requantize.h - requantization of int32 accumulators ------*- C++ -*-===//
//
// A quantized op accumulates an int32 value t and produces
//   y = saturate(round(t * s) + y_zero_point)
// where s is a ratio of scales known at compile time (s_x * s_w / s_y, ...).
// We compute it the way ONNX Runtime's CPU kernels (MLAS) do, so that models
// quantized by other tools give the same integers as their reference
// runtime: s is the float32 those kernels compute from the float32 scales,
// t is converted to float32, multiplied by s (rounded to float32), clamped
// and rounded half to even (Requantization::Float: those very instructions).
// Requantization::Integer gets the same integers on integers only:
// s = m * 2^-k exactly (m < 2^24), float32 rounding is a rounding to 24
// significant bits of an int64 (count leading zeros, shift), and the final
// rounding is an arithmetic shift with ties to even. See
// docs/quantization.md.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_REQUANTIZE_H
#define ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_REQUANTIZE_H

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace mlir::onnxq {

/// A positive float32 as an exact integer mantissa and binary shift:
/// value == mantissa * 2^-shift with mantissa < 2^24.
struct Float32Multiplier {
  int64_t mantissa = 0;
  int64_t shift = 0;
};
/// Fails unless `value` is a positive, finite float32 with 0 <= shift <= 62.
FailureOr<Float32Multiplier> decomposeFloat32(float value);

/// The scales and zero points of a quantized tensor (one value per tensor,
/// or one per channel), read from constants; no zero point means 0.
struct QuantParams {
  SmallVector<float> scales;
  SmallVector<int64_t> zeroPoints;
  bool isPerTensor() const {
    return scales.size() == 1 && zeroPoints.size() == 1;
  }
  /// One scale and zero point per tensor or one of each per channel.
  bool fits(int64_t channels) const {
    return (scales.size() == 1 || int64_t(scales.size()) == channels) &&
           zeroPoints.size() == scales.size();
  }
  float scaleAt(int64_t channel) const {
    return scales[scales.size() == 1 ? 0 : channel];
  }
  int64_t zeroPointAt(int64_t channel) const {
    return zeroPoints[zeroPoints.size() == 1 ? 0 : channel];
  }
};
FailureOr<QuantParams> getQuantParams(Value scale, Value zeroPoint);

/// An 8-bit quantized type's value range and signedness.
struct QuantizedRange {
  int64_t qmin, qmax;
  bool isUnsigned;
};
/// The range of an ONNX 8-bit type (i8 or ui8, before signless conversion).
QuantizedRange getQuantizedRange(Type onnxElementType);

/// `v` (an integer scalar of ONNX signedness `isUnsigned`) extended to i32.
Value extendToI32(OpBuilder &b, Location loc, Value v, bool isUnsigned);

/// An i64 scalar constant.
Value createI64(OpBuilder &b, Location loc, int64_t value);

/// The i64 `v` rounded to 24 significant bits, ties to even: float32
/// rounding of a value held as an integer multiple of a power of two.
Value emitRoundToFloat32(OpBuilder &b, Location loc, Value v);

/// The i64 `v * 2^-shift` rounded to an integer, ties to even (`shift` an
/// i64 scalar in [0, 62]).
Value emitShiftRoundHalfEven(OpBuilder &b, Location loc, Value v, Value shift);

/// saturate(round_half_even(fl32(fl32(t) * mantissa * 2^-shift)) + zeroPoint)
/// truncated to `resultType`: the requantization of an i32 term by a
/// float32 multiplier (given as i64 scalars, constants or per channel).
Value emitRequantize(OpBuilder &b, Location loc, Value term, Value mantissa,
                     Value shift, int64_t zeroPoint, QuantizedRange range,
                     Type resultType);

/// Whether `multipliers` can requantize as `mode` says: positive, finite
/// float32s, each with a Float32Multiplier form for Requantization::Integer.
bool isRequantizable(ArrayRef<float> multipliers, Requantization mode);

/// The element-wise requantization of the i32 tensor `acc` into
/// `resultType`, with one float32 multiplier for all elements or one per
/// index of dimensions [`axis`, `axis` + `channelDims`) (row-major: the
/// grouped filters (G, F/G) of a convolution are two), computed as `mode`
/// says. Fails when a multiplier is not a positive finite float32 (or, for
/// Requantization::Integer, has no Float32Multiplier form).
FailureOr<Value> createRequantized(OpBuilder &b, Location loc, Value acc,
                                   ArrayRef<float> multipliers, int64_t axis,
                                   int64_t zeroPoint, QuantizedRange range,
                                   RankedTensorType resultType,
                                   Requantization mode,
                                   int64_t channelDims = 1);

/// saturate(round_half_even(value) + zeroPoint) for the f32 `value` (the
/// requantized value less the zero point), truncated to `resultType`.
Value emitFloatSaturate(OpBuilder &b, Location loc, Value value,
                        QuantizedRange range, Type resultType,
                        int64_t zeroPoint = 0);

/// saturate(round_half_even(fl32(fl32(t) * multiplier)) + zeroPoint) for the
/// i32 `term` and the f32 `multiplier`, in float32 as ONNX Runtime's kernels
/// compute it, truncated to `resultType`.
Value emitFloatRequantize(OpBuilder &b, Location loc, Value term,
                          Value multiplier, int64_t zeroPoint,
                          QuantizedRange range, Type resultType);

/// A pattern of a quantized op, which requantizes as `mode` says.
template <typename OpTy>
class RequantizingPattern : public StaticShapePattern<OpTy> {
public:
  RequantizingPattern(const TypeConverter &converter, MLIRContext *ctx,
                      Requantization mode, PatternBenefit benefit = 1)
      : StaticShapePattern<OpTy>(converter, ctx, benefit), mode(mode) {}

protected:
  Requantization mode;
};

/// saturate(v + zeroPoint) in `range`, truncated to `resultType` (v: i64).
Value emitSaturate(OpBuilder &b, Location loc, Value v, int64_t zeroPoint,
                   QuantizedRange range, Type resultType);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_REQUANTIZE_H
