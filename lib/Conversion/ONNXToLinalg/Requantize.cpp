//===- Requantize.cpp - integer-only requantization -----------------------===//

#include "Requantize.h"
#include "Utils.h"


#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

FailureOr<Float32Multiplier> mlir::onnxq::decomposeFloat32(float value) {
  if (!(value > 0) || !std::isfinite(value))
    return failure();
  int exponent;
  float fraction = std::frexp(value, &exponent); // value = f * 2^e, f in [0.5, 1)
  Float32Multiplier m;
  m.mantissa = static_cast<int64_t>(std::ldexp(fraction, 24)); // exact: 24 bits
  m.shift = 24 - exponent;
  // Trailing zero bits make the shift smaller (and keep it in range).
  while (m.shift > 0 && m.mantissa % 2 == 0) {
    m.mantissa /= 2;
    --m.shift;
  }
  if (m.shift < 0 || m.shift > 62)
    return failure();
  return m;
}

FailureOr<QuantParams> mlir::onnxq::getQuantParams(Value scale, Value zeroPoint) {
  std::optional<SmallVector<float>> scales = getConstantFloats(scale);
  if (!scales || scales->empty())
    return failure();
  QuantParams params;
  params.scales = std::move(*scales);
  if (!zeroPoint) {
    params.zeroPoints.assign(1, 0);
    return params;
  }
  std::optional<SmallVector<int64_t>> zeroPoints = getConstantIntegers(zeroPoint);
  if (!zeroPoints || zeroPoints->empty())
    return failure();
  params.zeroPoints = std::move(*zeroPoints);
  return params;
}

QuantizedRange mlir::onnxq::getQuantizedRange(Type onnxElementType) {
  if (onnxElementType.isUnsignedInteger())
    return {0, 255, true};
  return {-128, 127, false};
}

Value mlir::onnxq::extendToI32(OpBuilder &b, Location loc, Value v,
                               bool isUnsigned) {
  Type i32 = b.getI32Type();
  if (v.getType() == i32)
    return v;
  return isUnsigned ? Value(arith::ExtUIOp::create(b, loc, i32, v))
                    : Value(arith::ExtSIOp::create(b, loc, i32, v));
}

Value mlir::onnxq::createI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

/// |v| >> shift rounded half to even, for |v| >= 0 and shift in [0, 62].
static Value shiftMagnitudeHalfEven(OpBuilder &b, Location loc, Value magnitude,
                                    Value shift) {
  Value one = createI64(b, loc, 1), zero = createI64(b, loc, 0);
  Value quotient = arith::ShRUIOp::create(b, loc, magnitude, shift);
  Value mask = arith::SubIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, one, shift), one);
  Value remainder = arith::AndIOp::create(b, loc, magnitude, mask);
  // half = 2^(shift-1), or 0 when nothing is shifted out.
  Value half = arith::ShRUIOp::create(b, loc, arith::AddIOp::create(b, loc, mask, one),
                                      one);
  Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                      remainder, half);
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, quotient, one), zero);
  Value tie = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, remainder, half),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, half, zero));
  Value roundUp = arith::OrIOp::create(b, loc, above,
                                       arith::AndIOp::create(b, loc, tie, odd));
  return arith::AddIOp::create(
      b, loc, quotient, arith::ExtUIOp::create(b, loc, b.getI64Type(), roundUp));
}

/// Applies `f` to |v| and gives the result v's sign (rounding ties to even
/// is symmetric).
static Value onMagnitude(OpBuilder &b, Location loc, Value v,
                         function_ref<Value(Value)> f) {
  Value zero = createI64(b, loc, 0);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, zero);
  Value magnitude = arith::SelectOp::create(
      b, loc, negative, arith::SubIOp::create(b, loc, zero, v), v);
  Value result = f(magnitude);
  return arith::SelectOp::create(
      b, loc, negative, arith::SubIOp::create(b, loc, zero, result), result);
}

Value mlir::onnxq::emitRoundToFloat32(OpBuilder &b, Location loc, Value v) {
  return onMagnitude(b, loc, v, [&](Value magnitude) -> Value {
    // Bits beyond the 24 most significant ones are rounded off.
    Value bits = arith::SubIOp::create(
        b, loc, createI64(b, loc, 64), math::CountLeadingZerosOp::create(b, loc, magnitude));
    Value excess = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, bits, createI64(b, loc, 24)),
        createI64(b, loc, 0));
    Value rounded = shiftMagnitudeHalfEven(b, loc, magnitude, excess);
    return arith::ShLIOp::create(b, loc, rounded, excess);
  });
}

Value mlir::onnxq::emitShiftRoundHalfEven(OpBuilder &b, Location loc, Value v,
                                          Value shift) {
  return onMagnitude(b, loc, v, [&](Value magnitude) {
    return shiftMagnitudeHalfEven(b, loc, magnitude, shift);
  });
}

Value mlir::onnxq::emitSaturate(OpBuilder &b, Location loc, Value v,
                                int64_t zeroPoint, QuantizedRange range,
                                Type resultType) {
  Value q = arith::AddIOp::create(b, loc, v, createI64(b, loc, zeroPoint));
  q = arith::MaxSIOp::create(b, loc, q, createI64(b, loc, range.qmin));
  q = arith::MinSIOp::create(b, loc, q, createI64(b, loc, range.qmax));
  return arith::TruncIOp::create(b, loc, resultType, q);
}

Value mlir::onnxq::emitRequantize(OpBuilder &b, Location loc, Value term,
                                  Value mantissa, Value shift, int64_t zeroPoint,
                                  QuantizedRange range, Type resultType) {
  Value t = emitRoundToFloat32(
      b, loc, arith::ExtSIOp::create(b, loc, b.getI64Type(), term));
  Value product = emitRoundToFloat32(b, loc, arith::MulIOp::create(b, loc, t, mantissa));
  return emitSaturate(b, loc, emitShiftRoundHalfEven(b, loc, product, shift),
                      zeroPoint, range, resultType);
}

Value mlir::onnxq::emitFloatRequantize(OpBuilder &b, Location loc, Value term,
                                       Value multiplier, int64_t zeroPoint,
                                       QuantizedRange range, Type resultType) {
  // MLAS: cvtdq2ps, mulps, maxps/minps with the range less the zero point,
  // cvtps2dq (round half to even), add the zero point, pack. The bounds are
  // integers, so clamping before the rounding saturates as after it.
  Value f = arith::SIToFPOp::create(b, loc, b.getF32Type(), term);
  f = arith::MulFOp::create(b, loc, f, multiplier);
  return emitFloatSaturate(b, loc, f, range, resultType, zeroPoint);
}

Value mlir::onnxq::emitFloatSaturate(OpBuilder &b, Location loc, Value value,
                                     QuantizedRange range, Type resultType,
                                     int64_t zeroPoint) {
  auto fastmath = arith::FastMathFlagsAttr::get(
      b.getContext(), arith::FastMathFlags::nnan | arith::FastMathFlags::nsz);
  auto bound = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(float(v - zeroPoint)));
  };
  Value f = arith::MaxNumFOp::create(b, loc, value, bound(range.qmin), fastmath);
  f = arith::MinNumFOp::create(b, loc, f, bound(range.qmax), fastmath);
  Value q = arith::FPToSIOp::create(b, loc, b.getI32Type(),
                                    math::RoundEvenOp::create(b, loc, f));
  if (zeroPoint)
    q = arith::AddIOp::create(
        b, loc, q, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(zeroPoint))));
  return arith::TruncIOp::create(b, loc, resultType, q);
}

bool mlir::onnxq::isRequantizable(ArrayRef<float> multipliers,
                                  Requantization mode) {
  return llvm::all_of(multipliers, [&](float m) {
    return m > 0 && std::isfinite(m) &&
           (mode == Requantization::Float || succeeded(decomposeFloat32(m)));
  });
}

FailureOr<Value> mlir::onnxq::createRequantized(OpBuilder &b, Location loc,
                                                Value acc,
                                                ArrayRef<float> multipliers,
                                                int64_t axis, int64_t zeroPoint,
                                                QuantizedRange range,
                                                RankedTensorType resultType,
                                                Requantization mode,
                                                int64_t channelDims) {
  if (!isRequantizable(multipliers, mode))
    return failure();
  bool perChannel = !llvm::all_equal(multipliers);
  // Per-channel values broadcast along the channel dims: shape (C..., 1,
  // ..., 1).
  SmallVector<int64_t> channelShape(resultType.getRank() - axis, 1);
  channelShape[0] = int64_t(multipliers.size());
  if (channelDims > 1) {
    for (int64_t d = 0; d < channelDims; ++d)
      channelShape[d] = resultType.getDimSize(axis + d);
    if (ShapedType::getNumElements(channelShape) != int64_t(multipliers.size()))
      return failure();
  }
  if (mode == Requantization::Float) {
    SmallVector<Value> inputs = {acc};
    if (perChannel)
      inputs.push_back(createConstant(
          b, loc, RankedTensorType::get(channelShape, b.getF32Type()),
          multipliers));
    return createElementwise(
        b, loc, resultType, inputs,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value multiplier =
              perChannel ? args[1]
                         : Value(arith::ConstantOp::create(
                               nb, l, nb.getF32FloatAttr(multipliers[0])));
          return emitFloatRequantize(nb, l, args[0], multiplier, zeroPoint,
                                     range, resultType.getElementType());
        });
  }
  SmallVector<int64_t> mantissas, shifts;
  for (float multiplier : multipliers) {
    FailureOr<Float32Multiplier> m = decomposeFloat32(multiplier);
    mantissas.push_back(m->mantissa);
    shifts.push_back(m->shift);
  }
  SmallVector<Value> inputs = {acc};
  if (perChannel) {
    auto type = RankedTensorType::get(channelShape, b.getI64Type());
    inputs.push_back(createConstant(b, loc, type, mantissas));
    inputs.push_back(createConstant(b, loc, type, shifts));
  }
  return createElementwise(
      b, loc, resultType, inputs, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value mantissa = perChannel ? args[1] : createI64(nb, l, mantissas[0]);
        Value shift = perChannel ? args[2] : createI64(nb, l, shifts[0]);
        return emitRequantize(nb, l, args[0], mantissa, shift, zeroPoint, range,
                              resultType.getElementType());
      });
}
