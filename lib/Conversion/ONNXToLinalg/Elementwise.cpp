//===- Elementwise.cpp - element-wise onnx ops to linalg.generic ----------===//
//
// Unary and binary ops, activations, Clip and Cast: one `linalg.generic`
// each, with numpy broadcasting of the inputs.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Whether the ONNX type of `value` (before type conversion) orders
/// unsigned.
bool isUnsignedInt(Value value) {
  return ordersUnsigned(getElementTypeOrSelf(value.getType()));
}

Value floatConst(OpBuilder &b, Location loc, Value like, double v) {
  return createScalar(b, loc, like.getType(), v);
}

/// The scalar computation of a unary op; null when the element type is not
/// supported.
template <typename OpTy>
Value computeUnary(OpTy op, OpBuilder &b, Location loc, Value x);

#define FLOAT_UNARY(OP, BODY)                                                  \
  template <>                                                                  \
  Value computeUnary(OP op, OpBuilder &b, Location loc, Value x) {             \
    if (!isa<FloatType>(x.getType()))                                          \
      return nullptr;                                                          \
    return BODY;                                                               \
  }
FLOAT_UNARY(CeilOp, math::CeilOp::create(b, loc, x))
FLOAT_UNARY(ErfOp, math::ErfOp::create(b, loc, x))
FLOAT_UNARY(ExpOp, math::ExpOp::create(b, loc, x))
FLOAT_UNARY(FloorOp, math::FloorOp::create(b, loc, x))
FLOAT_UNARY(LogOp, math::LogOp::create(b, loc, x))
FLOAT_UNARY(SqrtOp, math::SqrtOp::create(b, loc, x))
FLOAT_UNARY(TanhOp, math::TanhOp::create(b, loc, x))
FLOAT_UNARY(ReciprocalOp,
            arith::DivFOp::create(b, loc, floatConst(b, loc, x, 1.0), x))
FLOAT_UNARY(SinOp, math::SinOp::create(b, loc, x))
FLOAT_UNARY(CosOp, math::CosOp::create(b, loc, x))
FLOAT_UNARY(TanOp, math::TanOp::create(b, loc, x))
FLOAT_UNARY(AsinOp, math::AsinOp::create(b, loc, x))
FLOAT_UNARY(AcosOp, math::AcosOp::create(b, loc, x))
FLOAT_UNARY(AtanOp, math::AtanOp::create(b, loc, x))
FLOAT_UNARY(SinhOp, math::SinhOp::create(b, loc, x))
FLOAT_UNARY(CoshOp, math::CoshOp::create(b, loc, x))
FLOAT_UNARY(AsinhOp, math::AsinhOp::create(b, loc, x))
FLOAT_UNARY(AcoshOp, math::AcoshOp::create(b, loc, x))
FLOAT_UNARY(AtanhOp, math::AtanhOp::create(b, loc, x))
// ONNX Round is round-half-to-even.
FLOAT_UNARY(RoundOp, math::RoundEvenOp::create(b, loc, x))
FLOAT_UNARY(IsNaNOp, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x))
// x / (1 + |x|)
FLOAT_UNARY(SoftsignOp,
            arith::DivFOp::create(
                b, loc, x,
                arith::AddFOp::create(b, loc, floatConst(b, loc, x, 1.0),
                                      math::AbsFOp::create(b, loc, x))))
// log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), which does not overflow.
Value softplus(OpBuilder &b, Location loc, Value x) {
  return arith::AddFOp::create(
      b, loc, arith::MaximumFOp::create(b, loc, x, floatConst(b, loc, x, 0.0)),
      math::Log1pOp::create(
          b, loc,
          math::ExpOp::create(
              b, loc,
              arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x)))));
}
FLOAT_UNARY(SoftplusOp, softplus(b, loc, x))
FLOAT_UNARY(MishOp, arith::MulFOp::create(
                        b, loc, x, math::TanhOp::create(b, loc, softplus(b, loc, x))))
#undef FLOAT_UNARY

// x * (1 + erf(x / sqrt 2)) / 2, or with tanh(sqrt(2 / pi) * (x + 0.044715
// x^3)) in place of the erf.
template <>
Value computeUnary(GeluOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  Value t;
  if (op.getApproximate() == "tanh") {
    Value cube = arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value inner = arith::AddFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, floatConst(b, loc, x, 0.044715), cube));
    t = math::TanhOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, floatConst(b, loc, x, std::sqrt(2 / M_PI)), inner));
  } else {
    t = math::ErfOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, floatConst(b, loc, x, M_SQRT1_2)));
  }
  Value half = arith::MulFOp::create(b, loc, x, floatConst(b, loc, x, 0.5));
  return arith::MulFOp::create(
      b, loc, half, arith::AddFOp::create(b, loc, floatConst(b, loc, x, 1.0), t));
}

template <>
Value computeUnary(SignOp op, OpBuilder &b, Location loc, Value x) {
  Value zero = floatConst(b, loc, x, 0), one = floatConst(b, loc, x, 1);
  Value positive, negative;
  if (isa<FloatType>(x.getType())) {
    positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  } else {
    bool isUnsigned = isUnsignedInt(op.getX());
    positive = arith::CmpIOp::create(
        b, loc, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt, x, zero);
    negative = isUnsigned ? Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(false)))
                          : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero));
  }
  Value minusOne = floatConst(b, loc, x, -1);
  return arith::SelectOp::create(
      b, loc, positive, one, arith::SelectOp::create(b, loc, negative, minusOne, zero));
}

template <>
Value computeUnary(NotOp op, OpBuilder &b, Location loc, Value x) {
  return arith::XOrIOp::create(b, loc, x, floatConst(b, loc, x, 1));
}

template <>
Value computeUnary(IsInfOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  double inf = std::numeric_limits<double>::infinity();
  auto is = [&](double v) -> Value {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                 floatConst(b, loc, x, v));
  };
  Value result = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  if (op.getDetectPositive())
    result = arith::OrIOp::create(b, loc, result, is(inf));
  if (op.getDetectNegative())
    result = arith::OrIOp::create(b, loc, result, is(-inf));
  return result;
}

/// alpha * (exp(x) - 1), the negative branch of Elu and Selu.
Value expMinusOne(OpBuilder &b, Location loc, Value x, double alpha) {
  return arith::MulFOp::create(b, loc, floatConst(b, loc, x, alpha),
                               math::ExpM1Op::create(b, loc, x));
}

/// `x > 0 ? x : otherwise` (or `x >= 0` with `orEqual`).
Value selectPositive(OpBuilder &b, Location loc, Value x, Value otherwise,
                     bool orEqual = false) {
  Value positive = arith::CmpFOp::create(
      b, loc, orEqual ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT, x,
      floatConst(b, loc, x, 0.0));
  return arith::SelectOp::create(b, loc, positive, x, otherwise);
}

template <>
Value computeUnary(EluOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  return selectPositive(b, loc, x,
                        expMinusOne(b, loc, x, op.getAlpha().convertToDouble()),
                        /*orEqual=*/true);
}

template <>
Value computeUnary(SeluOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  Value y = selectPositive(b, loc, x,
                           expMinusOne(b, loc, x, op.getAlpha().convertToDouble()));
  return arith::MulFOp::create(
      b, loc, floatConst(b, loc, x, op.getGamma().convertToDouble()), y);
}

// max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
template <>
Value computeUnary(CeluOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  double alpha = op.getAlpha().convertToDouble();
  Value scaled = arith::DivFOp::create(b, loc, x, floatConst(b, loc, x, alpha));
  return selectPositive(b, loc, x, expMinusOne(b, loc, scaled, alpha));
}

template <>
Value computeUnary(ThresholdedReluOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  Value above = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGT, x,
      floatConst(b, loc, x, op.getAlpha().convertToDouble()));
  return arith::SelectOp::create(b, loc, above, x, floatConst(b, loc, x, 0.0));
}

template <>
Value computeUnary(ShrinkOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  double lambd = op.getLambd().convertToDouble();
  Value bias = floatConst(b, loc, x, op.getBias().convertToDouble());
  Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                      floatConst(b, loc, x, -lambd));
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                      floatConst(b, loc, x, lambd));
  Value y = arith::SelectOp::create(b, loc, above, arith::SubFOp::create(b, loc, x, bias),
                                    floatConst(b, loc, x, 0.0));
  return arith::SelectOp::create(b, loc, below, arith::AddFOp::create(b, loc, x, bias), y);
}

template <>
Value computeUnary(SigmoidOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  Value one = floatConst(b, loc, x, 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e));
}

template <>
Value computeUnary(ReluOp op, OpBuilder &b, Location loc, Value x) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, floatConst(b, loc, x, 0.0));
  return arith::MaxSIOp::create(b, loc, x, floatConst(b, loc, x, 0));
}

template <>
Value computeUnary(AbsOp op, OpBuilder &b, Location loc, Value x) {
  if (isa<FloatType>(x.getType()))
    return math::AbsFOp::create(b, loc, x);
  if (isUnsignedInt(op.getX()))
    return x;
  return math::AbsIOp::create(b, loc, x);
}

template <>
Value computeUnary(NegOp op, OpBuilder &b, Location loc, Value x) {
  if (isa<FloatType>(x.getType()))
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, floatConst(b, loc, x, 0), x);
}

template <>
Value computeUnary(LeakyReluOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  Value zero = floatConst(b, loc, x, 0.0);
  Value alpha = floatConst(b, loc, x, op.getAlpha().convertToDouble());
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  return arith::SelectOp::create(b, loc, negative,
                                 arith::MulFOp::create(b, loc, alpha, x), x);
}

/// max(0, min(1, alpha * x + beta))
Value hardSigmoid(OpBuilder &b, Location loc, Value x, double alpha,
                  double beta) {
  Value y = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, floatConst(b, loc, x, alpha), x),
      floatConst(b, loc, x, beta));
  y = arith::MinimumFOp::create(b, loc, y, floatConst(b, loc, x, 1.0));
  return arith::MaximumFOp::create(b, loc, y, floatConst(b, loc, x, 0.0));
}

template <>
Value computeUnary(HardSigmoidOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  return hardSigmoid(b, loc, x, op.getAlpha().convertToDouble(),
                     op.getBeta().convertToDouble());
}

template <>
Value computeUnary(HardSwishOp op, OpBuilder &b, Location loc, Value x) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  return arith::MulFOp::create(b, loc, x, hardSigmoid(b, loc, x, 1.0 / 6, 0.5));
}

/// The scalar computation of a broadcasting binary op.
template <typename OpTy>
Value computeBinary(OpTy op, OpBuilder &b, Location loc, Value l, Value r);

#define BINARY(OP, FLOAT_OP, SIGNED_OP, UNSIGNED_OP)                           \
  template <>                                                                  \
  Value computeBinary(OP op, OpBuilder &b, Location loc, Value l, Value r) {   \
    if (isa<FloatType>(l.getType()))                                           \
      return FLOAT_OP::create(b, loc, l, r);                                   \
    if (isUnsignedInt(op.getA()))                                              \
      return UNSIGNED_OP::create(b, loc, l, r);                                \
    return SIGNED_OP::create(b, loc, l, r);                                    \
  }
BINARY(AddOp, arith::AddFOp, arith::AddIOp, arith::AddIOp)
BINARY(SubOp, arith::SubFOp, arith::SubIOp, arith::SubIOp)
BINARY(MulOp, arith::MulFOp, arith::MulIOp, arith::MulIOp)
BINARY(DivOp, arith::DivFOp, arith::DivSIOp, arith::DivUIOp)
#undef BINARY

#define LOGICAL(OP, BOOL_OP)                                                   \
  template <>                                                                  \
  Value computeBinary(OP op, OpBuilder &b, Location loc, Value l, Value r) {   \
    return BOOL_OP::create(b, loc, l, r);                                      \
  }
LOGICAL(AndOp, arith::AndIOp)
LOGICAL(OrOp, arith::OrIOp)
LOGICAL(XorOp, arith::XOrIOp)
#undef LOGICAL

#define COMPARE(OP, FLOAT_PRED, SIGNED_PRED, UNSIGNED_PRED)                    \
  template <>                                                                  \
  Value computeBinary(OP op, OpBuilder &b, Location loc, Value l, Value r) {   \
    if (isa<FloatType>(l.getType()))                                           \
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::FLOAT_PRED,   \
                                   l, r);                                      \
    return arith::CmpIOp::create(b, loc,                                       \
                                 isUnsignedInt(op.getA())                      \
                                     ? arith::CmpIPredicate::UNSIGNED_PRED     \
                                     : arith::CmpIPredicate::SIGNED_PRED,      \
                                 l, r);                                        \
  }
COMPARE(EqualOp, OEQ, eq, eq)
COMPARE(GreaterOp, OGT, sgt, ugt)
COMPARE(GreaterOrEqualOp, OGE, sge, uge)
COMPARE(LessOp, OLT, slt, ult)
COMPARE(LessOrEqualOp, OLE, sle, ule)
#undef COMPARE

template <>
Value computeBinary(PReluOp op, OpBuilder &b, Location loc, Value x, Value slope) {
  if (!isa<FloatType>(x.getType()))
    return nullptr;
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         floatConst(b, loc, x, 0.0));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::MulFOp::create(b, loc, slope, x), x);
}

// fmod = 1: the sign of the dividend (C fmod); fmod = 0 (integers only): the
// sign of the divisor (Python %).
template <>
Value computeBinary(ModOp op, OpBuilder &b, Location loc, Value l, Value r) {
  if (isa<FloatType>(l.getType()))
    return arith::RemFOp::create(b, loc, l, r);
  if (isUnsignedInt(op.getA()))
    return arith::RemUIOp::create(b, loc, l, r);
  Value rem = arith::RemSIOp::create(b, loc, l, r);
  if (op.getFmod())
    return rem;
  Value zero = floatConst(b, loc, l, 0);
  Value nonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero));
  Value adjust = arith::AndIOp::create(b, loc, nonZero, signsDiffer);
  return arith::SelectOp::create(b, loc, adjust,
                                 arith::AddIOp::create(b, loc, rem, r), rem);
}

/// `x` (of ONNX signedness `isUnsigned`) converted to the float type `to`.
Value toFloat(OpBuilder &b, Location loc, Value x, Type to, bool isUnsigned) {
  if (x.getType() == to)
    return x;
  if (auto from = dyn_cast<FloatType>(x.getType()))
    return from.getWidth() < cast<FloatType>(to).getWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, x))
               : Value(arith::TruncFOp::create(b, loc, to, x));
  return isUnsigned ? Value(arith::UIToFPOp::create(b, loc, to, x))
                    : Value(arith::SIToFPOp::create(b, loc, to, x));
}

// An integer base is raised in f64 and truncated back, as numpy computes
// int ** float and casts the result.
template <>
Value computeBinary(PowOp op, OpBuilder &b, Location loc, Value l, Value r) {
  Type type = l.getType();
  bool integerBase = !isa<FloatType>(type);
  Type computeType = integerBase ? Type(b.getF64Type()) : type;
  Value pow = math::PowFOp::create(
      b, loc, toFloat(b, loc, l, computeType, isUnsignedInt(op.getX())),
      toFloat(b, loc, r, computeType, isUnsignedInt(op.getY())));
  if (!integerBase)
    return pow;
  return isUnsignedInt(op.getX()) ? Value(arith::FPToUIOp::create(b, loc, type, pow))
                                  : Value(arith::FPToSIOp::create(b, loc, type, pow));
}

/// The scalar computation of `op` from its operands' scalars.
template <typename OpTy>
Value computeScalar(OpTy op, OpBuilder &b, Location loc, ValueRange args) {
  if constexpr (OpTy::template hasTrait<OpTrait::OneOperand>())
    return computeUnary(op, b, loc, args[0]);
  else
    return computeBinary(op, b, loc, args[0], args[1]);
}

/// Unary and broadcasting binary ops: one linalg.generic each.
template <typename OpTy>
struct ElementwisePattern : StaticShapePattern<OpTy> {
  using StaticShapePattern<OpTy>::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = getTensorType(op.getResult());
    auto resultType = this->convertTensorType(type);
    bool supported = true;
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value v = computeScalar(op, b, loc, args);
          supported &= bool(v);
          return v ? v : args[0];
        });
    if (!supported)
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WherePattern : StaticShapePattern<WhereOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(WhereOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = getTensorType(op.getResult());
    Value result = createElementwise(
        rewriter, op.getLoc(),
        convertTensorType(type),
        adaptor.getOperands(), [](OpBuilder &b, Location loc, ValueRange args) {
          return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

Combine getCombine(MaxOp) { return Combine::Max; }
Combine getCombine(MinOp) { return Combine::Min; }
Combine getCombine(SumOp) { return Combine::Sum; }
Combine getCombine(MeanOp) { return Combine::Sum; }

/// Max/Min/Sum/Mean: one linalg.generic folding all the inputs.
template <typename OpTy>
struct VariadicPattern : StaticShapePattern<OpTy> {
  using StaticShapePattern<OpTy>::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = getTensorType(op.getResult());
    bool isMean = std::is_same_v<OpTy, MeanOp>;
    if (isMean && !isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "Mean needs float inputs");
    bool isUnsigned = ordersUnsigned(type.getElementType());
    Combine combine = getCombine(op);
    Value result = createElementwise(
        rewriter, op.getLoc(),
        this->convertTensorType(type),
        adaptor.getOperands(), [&](OpBuilder &b, Location loc, ValueRange args) {
          Value acc = args[0];
          for (Value x : args.drop_front())
            acc = combineScalars(b, loc, combine, isUnsigned, acc, x);
          if (isMean)
            acc = arith::DivFOp::create(b, loc, acc,
                                        floatConst(b, loc, acc, double(args.size())));
          return acc;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ClipPattern : StaticShapePattern<ClipOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ClipOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = getTensorType(op.getResult());
    auto resultType = convertTensorType(type);
    SmallVector<Value> inputs = {adaptor.getInput()};
    for (Value bound : {adaptor.getMin(), adaptor.getMax()})
      if (bound)
        inputs.push_back(reshapeTo(
            rewriter, op.getLoc(), bound,
            RankedTensorType::get({}, getElementTypeOrSelf(bound.getType()))));
    bool isFloat = isa<FloatType>(resultType.getElementType());
    bool isUnsigned = isUnsignedInt(op.getInput());
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, inputs,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value x = args[0];
          size_t next = 1;
          if (adaptor.getMin()) {
            Value lo = args[next++];
            x = isFloat ? Value(arith::MaximumFOp::create(b, loc, x, lo))
                : isUnsigned ? Value(arith::MaxUIOp::create(b, loc, x, lo))
                             : Value(arith::MaxSIOp::create(b, loc, x, lo));
          }
          if (adaptor.getMax()) {
            Value hi = args[next++];
            x = isFloat ? Value(arith::MinimumFOp::create(b, loc, x, hi))
                : isUnsigned ? Value(arith::MinUIOp::create(b, loc, x, hi))
                             : Value(arith::MinSIOp::create(b, loc, x, hi));
          }
          return x;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Scalar conversion between element types with ONNX Cast semantics (float
/// to int truncates toward zero, anything to bool is `!= 0`).
Value castScalar(OpBuilder &b, Location loc, Value x, Type to, bool fromUnsigned,
                 bool toUnsigned) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    Value zero = createScalar(b, loc, from, 0);
    return isa<FloatType>(from)
               ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero))
               : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero));
  }
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return fromFloat.getWidth() < toFloat.getWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, x))
               : Value(arith::TruncFOp::create(b, loc, to, x));
  if (toFloat)
    return fromUnsigned || from.isInteger(1)
               ? Value(arith::UIToFPOp::create(b, loc, to, x))
               : Value(arith::SIToFPOp::create(b, loc, to, x));
  if (fromFloat)
    return toUnsigned ? Value(arith::FPToUIOp::create(b, loc, to, x))
                      : Value(arith::FPToSIOp::create(b, loc, to, x));
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, to, x);
  return fromUnsigned || from.isInteger(1)
             ? Value(arith::ExtUIOp::create(b, loc, to, x))
             : Value(arith::ExtSIOp::create(b, loc, to, x));
}

struct CastPattern : StaticShapePattern<CastOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(CastOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = getTensorType(op.getResult());
    auto resultType = convertTensorType(type);
    bool fromUnsigned = isUnsignedInt(op.getInput());
    bool toUnsigned = type.getElementType().isUnsignedInteger();
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getInput(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], resultType.getElementType(),
                            fromUnsigned, toUnsigned);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      ElementwisePattern<AbsOp>, ElementwisePattern<CeilOp>,
      ElementwisePattern<ErfOp>, ElementwisePattern<ExpOp>,
      ElementwisePattern<FloorOp>, ElementwisePattern<LogOp>,
      ElementwisePattern<NegOp>, ElementwisePattern<ReciprocalOp>,
      ElementwisePattern<ReluOp>, ElementwisePattern<SigmoidOp>,
      ElementwisePattern<SqrtOp>, ElementwisePattern<TanhOp>,
      ElementwisePattern<LeakyReluOp>, ElementwisePattern<HardSigmoidOp>,
      ElementwisePattern<HardSwishOp>, ElementwisePattern<AddOp>,
      ElementwisePattern<SubOp>, ElementwisePattern<MulOp>,
      ElementwisePattern<DivOp>, ElementwisePattern<PowOp>>(converter, ctx);
  patterns.add<
      ElementwisePattern<SinOp>, ElementwisePattern<CosOp>,
      ElementwisePattern<TanOp>, ElementwisePattern<AsinOp>,
      ElementwisePattern<AcosOp>, ElementwisePattern<AtanOp>,
      ElementwisePattern<SinhOp>, ElementwisePattern<CoshOp>,
      ElementwisePattern<AsinhOp>, ElementwisePattern<AcoshOp>,
      ElementwisePattern<AtanhOp>, ElementwisePattern<SignOp>,
      ElementwisePattern<RoundOp>, ElementwisePattern<SoftplusOp>,
      ElementwisePattern<SoftsignOp>, ElementwisePattern<NotOp>,
      ElementwisePattern<MishOp>, ElementwisePattern<GeluOp>,
      ElementwisePattern<EluOp>, ElementwisePattern<CeluOp>,
      ElementwisePattern<SeluOp>, ElementwisePattern<ThresholdedReluOp>,
      ElementwisePattern<ShrinkOp>, ElementwisePattern<IsNaNOp>,
      ElementwisePattern<IsInfOp>, ElementwisePattern<ModOp>,
      ElementwisePattern<PReluOp>, ElementwisePattern<EqualOp>,
      ElementwisePattern<GreaterOp>, ElementwisePattern<GreaterOrEqualOp>,
      ElementwisePattern<LessOp>, ElementwisePattern<LessOrEqualOp>,
      ElementwisePattern<AndOp>, ElementwisePattern<OrOp>,
      ElementwisePattern<XorOp>, VariadicPattern<MaxOp>, VariadicPattern<MinOp>,
      VariadicPattern<SumOp>, VariadicPattern<MeanOp>, WherePattern>(converter,
                                                                       ctx);
  patterns.add<ClipPattern, CastPattern>(converter, ctx);
}
