//===- SaturatingPacks.cpp - 8-bit requantizations ending in packs --------===//

#include "SaturatingPacks.h"

#include "BufferUses.h"
#include "ConstantGlobals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// x's magnitude bound: with |multiplier| <= 0.5 and an int32 term, |x| <=
/// 2^30, so vcvtps2dq cannot overflow.
constexpr double kLargestSafeMultiplier = 0.5;

/// The float constant among `a` and `b` and the other value.
std::optional<std::pair<double, Value>> splitConstant(Value a, Value b) {
  FloatAttr constant;
  if (matchPattern(b, m_Constant(&constant)))
    return std::make_pair(constant.getValueAsDouble(), a);
  if (matchPattern(a, m_Constant(&constant)))
    return std::make_pair(constant.getValueAsDouble(), b);
  return std::nullopt;
}

/// The largest magnitude among the constant values of `v`, a body value of
/// `op`: a float constant, or the element of an input read from a constant
/// global (per-channel multipliers), through views.
std::optional<double> getLargestConstantMagnitude(linalg::LinalgOp op, Value v) {
  FloatAttr constant;
  if (matchPattern(v, m_Constant(&constant)))
    return std::abs(constant.getValueAsDouble());
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBlock())
    return std::nullopt;
  auto values = dyn_cast_or_null<DenseFPElementsAttr>(
      getConstantGlobalValue(getAllocation(op.getMatchingOpOperand(arg)->get())));
  if (!values)
    return std::nullopt;
  double largest = 0;
  for (APFloat value : values.getValues<APFloat>())
    largest = std::max(largest, std::abs(value.convertToDouble()));
  return largest;
}

/// Whether `x` is an int32 term times constants of magnitude at most
/// kLargestSafeMultiplier.
bool isSmallMultipleOfInt32(linalg::LinalgOp op, Value x) {
  auto mul = x.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  for (auto [term, multiplier] : {std::pair(mul.getLhs(), mul.getRhs()),
                                  std::pair(mul.getRhs(), mul.getLhs())}) {
    auto toFloat = term.getDefiningOp<arith::SIToFPOp>();
    if (!toFloat || !toFloat.getIn().getType().isInteger(32))
      continue;
    std::optional<double> largest = getLargestConstantMagnitude(op, multiplier);
    if (largest && *largest <= kLargestSafeMultiplier)
      return true;
  }
  return false;
}

bool isIntegral(double v) { return std::nearbyint(v) == v; }

Value callIntrinsic(OpBuilder &b, Location loc, Type result, StringRef name,
                    ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name), args)
      .getResult(0);
}

Value splat(OpBuilder &b, Location loc, VectorType type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, value));
}

} // namespace

std::optional<SaturatingRequant>
mlir::onnxq::matchSaturatingRequant(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getTerminator()->getNumOperands() != 1)
    return std::nullopt;
  SaturatingRequant ending;
  // Each op of the ending feeds only the next one.
  auto step = [&](Value v) -> Operation * {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || !v.hasOneUse())
      return nullptr;
    ending.ops.push_back(def);
    return def;
  };
  auto trunc = dyn_cast_or_null<arith::TruncIOp>(step(body->getTerminator()->getOperand(0)));
  if (!trunc || !trunc.getType().isInteger(8) || !trunc.getIn().getType().isInteger(32))
    return std::nullopt;
  Value rounded = trunc.getIn();
  if (auto add = dyn_cast_or_null<arith::AddIOp>(rounded.getDefiningOp())) {
    APInt zeroPoint;
    if (!step(rounded))
      return std::nullopt;
    if (matchPattern(add.getRhs(), m_ConstantInt(&zeroPoint)))
      rounded = add.getLhs();
    else if (matchPattern(add.getLhs(), m_ConstantInt(&zeroPoint)))
      rounded = add.getRhs();
    else
      return std::nullopt;
    ending.zeroPoint = zeroPoint.getSExtValue();
  }
  auto toInt = dyn_cast_or_null<arith::FPToSIOp>(step(rounded));
  auto round = toInt ? dyn_cast_or_null<math::RoundEvenOp>(step(toInt.getIn())) : nullptr;
  auto min = round ? dyn_cast_or_null<arith::MinNumFOp>(step(round.getOperand())) : nullptr;
  if (!min || !min.getType().isF32())
    return std::nullopt;
  auto high = splitConstant(min.getLhs(), min.getRhs());
  auto max = high ? dyn_cast_or_null<arith::MaxNumFOp>(step(high->second)) : nullptr;
  auto low = max ? splitConstant(max.getLhs(), max.getRhs()) : std::nullopt;
  // Integral bounds near the 8-bit ranges (the casts below are defined).
  auto isBound = [](double v) { return isIntegral(v) && std::abs(v) <= 1024; };
  if (!low || !isBound(low->first) || !isBound(high->first))
    return std::nullopt;
  ending.input = low->second;
  ending.low = int64_t(low->first) + ending.zeroPoint;
  int64_t top = int64_t(high->first) + ending.zeroPoint;
  // The packs saturate at the top of the range; a fused ReLU raises the
  // bottom (a byte max).
  if (top == 255 && ending.low >= 0)
    ending.isUnsigned = true;
  else if (top == 127 && ending.low >= -128)
    ending.isUnsigned = false;
  else
    return std::nullopt;
  if (ending.low > top || std::abs(ending.zeroPoint) > 255)
    return std::nullopt;
  if (!isSmallMultipleOfInt32(op, ending.input))
    ending.overflowBound = float(high->first);
  return ending;
}

SmallVector<Value, 2>
mlir::onnxq::emitSaturatingRequant(OpBuilder &b, Location loc,
                                   const SaturatingRequant &ending, Value first,
                                   Value second) {
  auto i32s = VectorType::get({16}, b.getI32Type());
  auto i16s = VectorType::get({32}, b.getI16Type());
  auto i8s = VectorType::get({64}, b.getI8Type());
  // vcvtps2dq {rn-sae}: rounding half to even whatever MXCSR says.
  Value noMask = arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(-1));
  Value nearestNoExceptions = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(8));
  Value zeros = splat(b, loc, i32s, APInt(32, 0));
  auto toInt32 = [&](Value x) {
    if (ending.overflowBound)
      x = arith::MinNumFOp::create(
          b, loc, x,
          arith::ConstantOp::create(
              b, loc, x.getType(),
              DenseElementsAttr::get(cast<VectorType>(x.getType()),
                                     *ending.overflowBound)));
    return callIntrinsic(b, loc, i32s, "llvm.x86.avx512.mask.cvtps2dq.512",
                         {x, zeros, noMask, nearestNoExceptions});
  };
  Value a = toInt32(first);
  Value c = second ? toInt32(second) : a;
  // Per 128-bit lane L: words a[4L..4L+3], c[4L..4L+3].
  Value words = callIntrinsic(b, loc, i16s, "llvm.x86.avx512.packssdw.512", {a, c});
  if (ending.zeroPoint)
    words = LLVM::SAddSat::create(
        b, loc, words,
        splat(b, loc, i16s, APInt(16, uint64_t(ending.zeroPoint), /*isSigned=*/true)));
  // Per lane L: the bytes of those words, twice.
  Value bytes = callIntrinsic(b, loc, i8s,
                              ending.isUnsigned ? "llvm.x86.avx512.packuswb.512"
                                                : "llvm.x86.avx512.packsswb.512",
                              {words, words});
  int64_t lowest = ending.isUnsigned ? 0 : -128;
  auto byte = [&](int64_t v) {
    return splat(b, loc, i8s, APInt(8, uint64_t(v), /*isSigned=*/v < 0));
  };
  if (ending.low > lowest)
    bytes = ending.isUnsigned
                ? Value(arith::MaxUIOp::create(b, loc, bytes, byte(ending.low)))
                : Value(arith::MaxSIOp::create(b, loc, bytes, byte(ending.low)));
  // Dword 4L + k holds lanes 4L..4L+3 of the k-th vector (k = 0, 1).
  Value dwords = vector::BitCastOp::create(b, loc, i32s, bytes);
  SmallVector<Value, 2> results;
  for (int64_t k = 0; k < (second ? 2 : 1); ++k) {
    Value ordered = vector::ShuffleOp::create(b, loc, dwords, dwords,
                                              ArrayRef<int64_t>{k, k + 4, k + 8, k + 12});
    results.push_back(vector::BitCastOp::create(
        b, loc, VectorType::get({16}, b.getI8Type()), ordered));
  }
  return results;
}
