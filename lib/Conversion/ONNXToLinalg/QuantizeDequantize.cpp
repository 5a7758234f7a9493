//===- QuantizeDequantize.cpp - QuantizeLinear/DequantizeLinear -----------===//
//
// Element-wise, with per-tensor or per-axis scale and zero point (the 1-D
// parameters are reshaped to broadcast along `axis`):
//   QuantizeLinear:   saturate(round_half_even(x / scale) + zero_point)
//   DequantizeLinear: float(x - zero_point) * scale, the difference in int32.
//   DynamicQuantizeLinear: QuantizeLinear to uint8 with the scale and zero
//   point of x's own range (reduced first).
// The ONNX element types (before signless conversion) say whether the
// integers are unsigned.
//
//===----------------------------------------------------------------------===//

#include "Requantize.h"
#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// A per-tensor parameter as a rank-0 tensor, a per-axis one reshaped to
/// (1, .., C, .., 1) so that it broadcasts along `axis` of a rank-`rank`
/// tensor. Fails for other shapes.
FailureOr<Value> getBroadcastParameter(OpBuilder &b, Location loc, Value param,
                                       int64_t axis, int64_t rank) {
  auto type = getStaticType(param);
  if (!type)
    return failure();
  if (type.getNumElements() == 1)
    return reshapeTo(b, loc, param,
                     RankedTensorType::get({}, type.getElementType()));
  if (type.getRank() != 1)
    return failure();
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = type.getDimSize(0);
  return reshapeTo(b, loc, param,
                   RankedTensorType::get(shape, type.getElementType()));
}

/// The inputs of the element-wise computation: x, then the scale and the
/// optional zero point made broadcastable along `axis`.
FailureOr<SmallVector<Value>> getElementwiseInputs(OpBuilder &b, Location loc,
                                                   Value x, Value scale,
                                                   Value zeroPoint, int64_t axis) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  axis = normalizeAxis(axis, std::max<int64_t>(rank, 1));
  SmallVector<Value> inputs{x};
  for (Value param : {scale, zeroPoint}) {
    if (!param)
      continue;
    FailureOr<Value> p = getBroadcastParameter(b, loc, param, axis, rank);
    if (failed(p))
      return failure();
    inputs.push_back(*p);
  }
  return inputs;
}

/// The inputs of a blocked DequantizeLinear's element-wise computation: with
/// blocks dividing the axis, x reshaped to (.., blocks, block, ..) and the
/// parameters to (.., blocks, 1, ..); otherwise the parameters repeated
/// along each block to x's shape (the last block cut short).
FailureOr<SmallVector<Value>> getBlockedInputs(OpBuilder &b, Location loc,
                                               Value x, Value scale,
                                               Value zeroPoint, int64_t axis,
                                               int64_t blockSize) {
  auto xType = cast<RankedTensorType>(x.getType());
  axis = normalizeAxis(axis, xType.getRank());
  int64_t dim = xType.getDimSize(axis);
  int64_t blocks = llvm::divideCeil(dim, blockSize);
  SmallVector<int64_t> split(xType.getShape());
  split[axis] = blocks;
  split.insert(split.begin() + axis + 1, blockSize);
  SmallVector<int64_t> paramShape(split);
  paramShape[axis + 1] = 1;
  bool divides = dim % blockSize == 0;
  SmallVector<Value> inputs{
      divides ? reshapeTo(b, loc, x, xType.clone(split)) : x};
  for (Value param : {scale, zeroPoint}) {
    if (!param)
      continue;
    auto type = getStaticType(param);
    if (!type || type.getRank() != xType.getRank())
      return failure();
    Value blocked = reshapeTo(b, loc, param, type.clone(paramShape));
    if (!divides) {
      Value repeated =
          createBroadcast(b, loc, type.clone(split), blocked);
      SmallVector<int64_t> whole(xType.getShape());
      whole[axis] = blocks * blockSize;
      Value flat = reshapeTo(b, loc, repeated, type.clone(whole));
      SmallVector<int64_t> offsets(whole.size(), 0), strides(whole.size(), 1);
      blocked = tensor::ExtractSliceOp::create(
          b, loc, type.clone(xType.getShape()), flat, ValueRange{}, ValueRange{},
          ValueRange{}, b.getDenseI64ArrayAttr(offsets),
          b.getDenseI64ArrayAttr(xType.getShape()),
          b.getDenseI64ArrayAttr(strides));
    }
    inputs.push_back(blocked);
  }
  return inputs;
}

/// saturate(round_half_even(x / scale) + zero_point) for one element, the
/// result an integer of `width` bits (`isUnsigned` per its ONNX type);
/// `zeroPoint` may be null.
Value quantizeElement(OpBuilder &b, Location l, Value x, Value scale,
                      Value zeroPoint, unsigned width, bool isUnsigned,
                      Type resultType) {
  double qmin = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double qmax = std::ldexp(1.0, isUnsigned ? width : width - 1) - 1;
  Type floatType = x.getType();
  // 16-bit ranges overflow f16 (65535 > 65504): compute in f32.
  if (width > 8 && floatType.getIntOrFloatBitWidth() < 32) {
    floatType = b.getF32Type();
    x = arith::ExtFOp::create(b, l, floatType, x);
  }
  if (scale.getType() != floatType)
    scale = arith::ExtFOp::create(b, l, floatType, scale);
  Value q = math::RoundEvenOp::create(b, l, arith::DivFOp::create(b, l, x, scale));
  if (zeroPoint) {
    Value zp = extendToI32(b, l, zeroPoint, isUnsigned);
    q = arith::AddFOp::create(b, l, q,
                              arith::SIToFPOp::create(b, l, floatType, zp));
  }
  q = arith::MaximumFOp::create(b, l, q, createScalar(b, l, floatType, qmin));
  q = arith::MinimumFOp::create(b, l, q, createScalar(b, l, floatType, qmax));
  // In range now: the conversion is exact.
  Value i32 = arith::FPToSIOp::create(b, l, b.getI32Type(), q);
  return arith::TruncIOp::create(b, l, resultType, i32);
}

struct QuantizeLinearPattern : StaticShapePattern<QuantizeLinearOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(QuantizeLinearOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto xType = getStaticType(adaptor.getX());
    auto onnxType = getStaticType(op.getY().getType());
    if (!xType || !onnxType || !isa<FloatType>(xType.getElementType()))
      return rewriter.notifyMatchFailure(op, "needs a static float input");
    auto intType = dyn_cast<IntegerType>(onnxType.getElementType());
    if (!intType || intType.getWidth() > 16)
      return rewriter.notifyMatchFailure(op, "8- or 16-bit results only");
    bool isUnsigned = intType.isUnsigned();
    unsigned width = intType.getWidth();
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> inputs =
        getElementwiseInputs(rewriter, loc, adaptor.getX(), adaptor.getYScale(),
                             adaptor.getYZeroPoint(), op.getAxis());
    if (failed(inputs))
      return rewriter.notifyMatchFailure(op, "scale or zero point shape");
    auto resultType = convertTensorType(onnxType);
    Value result = createElementwise(
        rewriter, loc, resultType, *inputs,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return quantizeElement(b, l, args[0], args[1],
                                 args.size() > 2 ? args[2] : Value(), width,
                                 isUnsigned, resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Vectors of partial results a long min or max reduction keeps apart (any
/// grouping gives the same min and max).
constexpr int64_t kIndependentChains = 8;

/// The range of x (its min and max, widened to include 0) in two
/// reductions, the scale and zero point from it in one-element tensors, then
/// the element-wise quantization, as ONNX Runtime's kernel computes them.
struct DynamicQuantizeLinearPattern
    : StaticShapePattern<DynamicQuantizeLinearOp> {
  DynamicQuantizeLinearPattern(const TypeConverter &converter, MLIRContext *ctx,
                               unsigned vectorBits)
      : StaticShapePattern(converter, ctx), vectorBits(vectorBits) {}
  unsigned vectorBits;

  LogicalResult
  matchAndRewriteStatic(DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto xType = getStaticType(adaptor.getX());
    if (!xType || !xType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "needs a static f32 input");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type(), i8 = rewriter.getI8Type();
    // x's min and max, each in vector-wide lanes first (exact in any order).
    double inf = std::numeric_limits<double>::infinity();
    Value row = reshapeTo(rewriter, loc, adaptor.getX(),
                          RankedTensorType::get({1, xType.getNumElements()}, f32));
    // Eight vectors of partial results where the tensor is long: the
    // kernel stage carries them as eight independent chains, where one
    // vector's chain of NaN-propagating minimumf waits on each step's
    // latency (8,192 steps for a 128 x 1,024 tensor).
    int64_t lanes = std::max<int64_t>(1, vectorBits / 32);
    if (xType.getNumElements() >= kIndependentChains * lanes * 16)
      lanes *= kIndependentChains;
    auto minimum = [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
      return arith::MinimumFOp::create(b, l, acc, v);
    };
    auto maximum = [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
      return arith::MaximumFOp::create(b, l, acc, v);
    };
    auto reduce = [&](double init, Combiner combine) {
      return reshapeTo(rewriter, loc,
                       reduceRowsInLanes(rewriter, loc, row, getScalarAttr(f32, init),
                                         combine, combine, lanes),
                       RankedTensorType::get({1}, f32));
    };
    Value lo = reduce(inf, minimum);
    Value hi = reduce(-inf, maximum);
    auto one = cast<RankedTensorType>(lo.getType());
    Value scale = createElementwise(
        rewriter, loc, one, {lo, hi},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value zero = createScalar(b, l, f32, 0.0);
          Value low = arith::MinimumFOp::create(b, l, args[0], zero);
          Value high = arith::MaximumFOp::create(b, l, args[1], zero);
          Value range = arith::SelectOp::create(
              b, l,
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, high, low),
              createScalar(b, l, f32, 255.0),
              arith::SubFOp::create(b, l, high, low));
          return arith::DivFOp::create(b, l, range,
                                       createScalar(b, l, f32, 255.0));
        });
    Value zeroPoint = createElementwise(
        rewriter, loc, one.clone(i8), {lo, scale},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value low = arith::MinimumFOp::create(b, l, args[0],
                                                createScalar(b, l, f32, 0.0));
          Value zp = arith::SubFOp::create(
              b, l, createScalar(b, l, f32, 0.0),
              arith::DivFOp::create(b, l, low, args[1]));
          zp = arith::MaximumFOp::create(b, l, zp, createScalar(b, l, f32, 0.0));
          zp = arith::MinimumFOp::create(b, l, zp,
                                         createScalar(b, l, f32, 255.0));
          zp = math::RoundEvenOp::create(b, l, zp);
          Value i32 = arith::FPToSIOp::create(b, l, b.getI32Type(), zp);
          return arith::TruncIOp::create(b, l, i8, i32);
        });
    Value y = createElementwise(
        rewriter, loc, xType.clone(i8), {adaptor.getX(), scale, zeroPoint},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return quantizeElement(b, l, args[0], args[1], args[2], 8,
                                 /*isUnsigned=*/true, i8);
        });
    rewriter.replaceOp(
        op, {y, reshapeTo(rewriter, loc, scale, RankedTensorType::get({}, f32)),
             reshapeTo(rewriter, loc, zeroPoint, RankedTensorType::get({}, i8))});
    return success();
  }
};

struct DequantizeLinearPattern : StaticShapePattern<DequantizeLinearOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(DequantizeLinearOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto xType = getStaticType(adaptor.getX());
    auto resultType = getStaticType(
        getTypeConverter()->convertType(op.getY().getType()));
    if (!xType || !resultType || !isa<IntegerType>(xType.getElementType()) ||
        !isa<FloatType>(resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "needs a static integer input");
    bool isUnsigned =
        getElementTypeOrSelf(op.getX().getType()).isUnsignedInteger();
    if (xType.getElementType().getIntOrFloatBitWidth() > 32)
      return rewriter.notifyMatchFailure(op, "inputs up to 32 bits");
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> inputs =
        op.getBlockSize() > 0
            ? getBlockedInputs(rewriter, loc, adaptor.getX(), adaptor.getXScale(),
                               adaptor.getXZeroPoint(), op.getAxis(),
                               op.getBlockSize())
            : getElementwiseInputs(rewriter, loc, adaptor.getX(),
                                   adaptor.getXScale(), adaptor.getXZeroPoint(),
                                   op.getAxis());
    if (failed(inputs))
      return rewriter.notifyMatchFailure(op, "scale or zero point shape");
    Type floatType = resultType.getElementType();
    // Blocks that divide the axis: x is viewed as (.., blocks, block_size, ..)
    // and the parameters broadcast along the block.
    auto computedType = resultType.clone(
        cast<RankedTensorType>((*inputs)[0].getType()).getShape());
    Value result = createElementwise(
        rewriter, loc, computedType, *inputs,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value x = extendToI32(b, l, args[0], isUnsigned);
          if (args.size() > 2)
            x = arith::SubIOp::create(b, l, x,
                                      extendToI32(b, l, args[2], isUnsigned));
          Value scale = args[1];
          if (scale.getType() != floatType)
            scale = arith::ExtFOp::create(b, l, floatType, scale);
          return arith::MulFOp::create(
              b, l, arith::SIToFPOp::create(b, l, floatType, x), scale);
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateQuantizeDequantizeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    unsigned vectorBits) {
  patterns.add<QuantizeLinearPattern, DequantizeLinearPattern>(
      converter, patterns.getContext());
  patterns.add<DynamicQuantizeLinearPattern>(converter, patterns.getContext(),
                                             vectorBits);
}
