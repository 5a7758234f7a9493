//===- QLinearConv.cpp - quantized convolution to integer linalg ----------===//
//
// y = requantize(sum((x - x_zp) * (w - w_zp)) + bias), with int32
// accumulation. The input is padded with its zero point (real 0), so
//   sum((x - x_zp) * w') = sum(x * w') - x_zp * sum(w')   (w' = w - w_zp)
// where the second term depends only on the filter: it is folded with the
// bias into the accumulator's initial value at compile time, and the inner
// loop is a plain widening multiply-add of the 8-bit operands. The epilogue
// is the requantization of Requantize.h with one multiplier per filter
// (s_x * s_w[f] / s_y in float32).
//
// For AVX-512 VNNI (Int8DotProduct::VNNI) a u8 x s8 convolution of three or
// more input channels per group reads its operands packed: four input
// channels to an int32, the activations by a packing pass over the padded
// input and the weights at compile time (channels past the last are the
// zero point and weight 0, which add nothing). Its multiply-add is then a
// 4-way dot product per int32 lane, which the kernel stage emits as
// vpdpbusd: 64 multiply-adds per instruction instead of 16. For AArch64's
// sdot (Int8DotProduct::SDot, s8 x s8) the packing pass also flips each
// activation byte's top bit (x - 128 as s8), and 128 * sum(w) joins the
// accumulator's start. For AMX tiles (Int8DotProduct::AMX) a strided window,
// or one over few channel words, is a stride-1 window over planes of the
// packed input (WindowPlanes.cpp).
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "PackedBytes.h"
#include "Requantize.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct QLinearConvPattern : RequantizingPattern<QLinearConvOp> {
  QLinearConvPattern(const TypeConverter &converter, MLIRContext *ctx,
                     const LinalgLoweringOptions &options)
      : RequantizingPattern(converter, ctx, options.requant),
        dot(options.int8Dot), vectorBits(options.vectorBits) {}
  Int8DotProduct dot;
  unsigned vectorBits;

  LogicalResult
  matchAndRewriteStatic(QLinearConvOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    std::optional<WindowGeometry> g =
        getConvGeometry(op, op.getX(), op.getW(), op.getY());
    if (!g)
      return rewriter.notifyMatchFailure(op, "needs static shapes that match");
    RankedTensorType xType = getStaticType(op.getX());
    RankedTensorType wType = getStaticType(op.getW());
    RankedTensorType yType = getStaticType(op.getY());
    FailureOr<QuantParams> xq = getQuantParams(op.getXScale(), op.getXZeroPoint());
    FailureOr<QuantParams> wq = getQuantParams(op.getWScale(), op.getWZeroPoint());
    FailureOr<QuantParams> yq = getQuantParams(op.getYScale(), op.getYZeroPoint());
    std::optional<SmallVector<int64_t>> weights = getConstantIntegers(op.getW());
    if (failed(xq) || failed(wq) || failed(yq) || !weights ||
        !xq->isPerTensor() || !yq->isPerTensor())
      return rewriter.notifyMatchFailure(
          op, "needs constant weights, scales and zero points");
    int64_t filters = wType.getDimSize(0);
    int64_t perFilter = wType.getNumElements() / filters;
    if (!wq->fits(filters))
      return rewriter.notifyMatchFailure(op, "w_scale per tensor or per filter");
    SmallVector<int64_t> bias(filters, 0);
    if (op.getB()) {
      std::optional<SmallVector<int64_t>> b = getConstantIntegers(op.getB());
      if (!b || int64_t(b->size()) != filters)
        return rewriter.notifyMatchFailure(op, "needs a constant bias");
      bias = std::move(*b);
    }

    // Filters without their zero points (16 bits wide when one is not 0),
    // the accumulator's start and the per-filter multipliers.
    bool wideWeights = llvm::any_of(wq->zeroPoints, [](int64_t zp) { return zp; });
    int64_t xZeroPoint = xq->zeroPoints[0];
    Int8DotProduct packing = packsFor(dot, wType, xType, wideWeights);
    SmallVector<int64_t> init(filters);
    SmallVector<float> multipliers(filters);
    for (int64_t f = 0; f < filters; ++f) {
      int64_t wZeroPoint = wq->zeroPointAt(f);
      int64_t sum = 0;
      for (int64_t i = f * perFilter; i < (f + 1) * perFilter; ++i) {
        (*weights)[i] -= wZeroPoint;
        sum += (*weights)[i];
      }
      init[f] = bias[f] - xZeroPoint * sum;
      // sdot reads x - 128: sum(x * w) = sum((x - 128) * w) + 128 * sum(w).
      if (packing == Int8DotProduct::SDot)
        init[f] += 128 * sum;
      // In float32, in ONNX Runtime's order: (s_x * s_w) / s_y.
      multipliers[f] = xq->scales[0] * wq->scaleAt(f) / yq->scales[0];
    }
    if (llvm::any_of(init, [](int64_t v) { return v != int32_t(v); }))
      return rewriter.notifyMatchFailure(op, "bias overflows int32");
    if (!isRequantizable(multipliers, mode))
      return rewriter.notifyMatchFailure(op, "scales give no requantization");

    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    bool xUnsigned = xType.getElementType().isUnsignedInteger();
    // Padding is the zero point's bit pattern as a signless i8.
    Value x = padSpatial(rewriter, loc, adaptor.getX(), g->padBegin, g->padEnd,
                         rewriter.getIntegerAttr(i8, int8_t(xZeroPoint)));
    auto accType = RankedTensorType::get(yType.getShape(), i32);
    Value initPerFilter =
        createConstant(rewriter, loc, RankedTensorType::get({filters}, i32), init);
    // The requantization in the contraction's own shape (N, G, F/G, ...),
    // one multiplier per filter, so the kernel stage can apply it to the
    // accumulators in registers.
    auto requantize = [&](OpBuilder &b, Location l, Value acc) -> Value {
      auto accShape = cast<RankedTensorType>(acc.getType()).getShape();
      FailureOr<Value> y = createRequantized(
          b, l, acc, multipliers, /*axis=*/1, yq->zeroPoints[0],
          getQuantizedRange(yType.getElementType()),
          RankedTensorType::get(accShape, i8), mode, /*channelDims=*/2);
      assert(succeeded(y) && "multipliers checked, one per (G, F/G) filter");
      return *y;
    };
    Value y = convolveQuantized(rewriter, loc, x, xUnsigned, wType, *weights,
                                wideWeights, initPerFilter, accType, op.getGroup(),
                                *g, packing, int8_t(xZeroPoint), vectorBits,
                                requantize);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

Value mlir::onnxq::convolveQuantized(
    OpBuilder &b, Location loc, Value x, bool xUnsigned, RankedTensorType wType,
    ArrayRef<int64_t> weights, bool wideWeights, Value start,
    RankedTensorType accType, int64_t group, const WindowGeometry &g,
    Int8DotProduct packing, int8_t channelFill, unsigned vectorBits,
    ConvolutionEpilogue epilogue) {
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  int64_t filters = wType.getDimSize(0), channels = wType.getDimSize(1);
  int64_t perFilter = wType.getNumElements() / filters;
  if (packing == Int8DotProduct::None) {
    Value w = createConstant(
        b, loc, RankedTensorType::get(wType.getShape(), wideWeights ? b.getI16Type() : i8),
        weights);
    return convolve(b, loc, x, w, accType, start, group, g, vectorBits,
                    MultiplyAdd{xUnsigned, /*rhsUnsigned=*/false}, epilogue);
  }
  bool toSigned = packing == Int8DotProduct::SDot;
  int64_t packed = llvm::divideCeil(channels, 4);
  int64_t positions = ShapedType::getNumElements(accType.getShape().drop_front(2));
  bool tiles = packing == Int8DotProduct::AMX && filters / group >= kAMXMinFilters &&
               positions >= 16;
  auto dot = [&](OpBuilder &nb, Location l, Value a, Value w, Value sum) {
    return dot4(nb, l, a, w, sum, toSigned);
  };
  // A strided window, or one over few channel words, on tiles: a stride-1
  // window over planes of the input.
  if (std::optional<WindowPlanes> planes = getWindowPlanes(g, packed);
      tiles && planes && group == 1) {
    int64_t words = getAMXChannelWords(planes->getCount() * packed);
    SmallVector<int64_t> packedShape = {1, filters};
    packedShape.append(planes->geometry.kernel.begin(), planes->geometry.kernel.end());
    packedShape.push_back(words);
    Value packedWeights = createWeightWords(
        b, loc, RankedTensorType::get(packedShape, i32),
        packWeightPlanes(weights, g, *planes, filters, channels, packed, words));
    Value input = packInputPlanes(b, loc, x, *planes, channels, packed, words,
                                  channelFill, toSigned);
    return convolveGrouped(b, loc, input, packedWeights, accType, start, 1,
                           planes->geometry, vectorBits, dot, epilogue,
                           /*channelsLastWeights=*/true);
  }
  // Whole AMX steps: words past the last hold weight 0 and the zero
  // point, adding nothing.
  if (tiles && llvm::all_of(g.strides, [](int64_t s) { return s == 1; }))
    packed = getAMXChannelWords(packed);
  int64_t window = perFilter / channels;
  SmallVector<int64_t> packedShape = {group, filters / group};
  packedShape.append(wType.getShape().begin() + 2, wType.getShape().end());
  packedShape.push_back(packed);
  Value packedWeights =
      createWeightWords(b, loc, RankedTensorType::get(packedShape, i32),
                        packWeightChannels(weights, filters, channels, packed, window));
  Value input = packInputChannels(b, loc, x, group, channels, packed, channelFill, toSigned);
  return convolveGrouped(b, loc, input, packedWeights, accType, start, group, g,
                         vectorBits, dot, epilogue, /*channelsLastWeights=*/true);
}

void mlir::onnxq::populateQLinearConvToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options) {
  patterns.add<QLinearConvPattern>(converter, patterns.getContext(), options);
}
