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
// accumulator's start.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
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

/// The padded input x (N, C, H, W) (any spatial rank) as (N, G, C4, H, W)
/// int32, input channel 4 * c4 + j of each group in byte j of element c4;
/// channels past the group's `channels` hold `fill`. With `toSigned` each
/// byte is x - 128 as s8 (its top bit flipped).
Value packInputChannels(OpBuilder &b, Location loc, Value x, int64_t group,
                        int64_t channels, int64_t packed, int8_t fill,
                        bool toSigned) {
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> spatial = type.getShape().drop_front(2);
  int64_t n = type.getDimSize(0);
  int64_t rank = 3 + spatial.size();
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  auto shaped = [&](ArrayRef<int64_t> front, Type element) {
    SmallVector<int64_t> shape(front);
    shape.append(spatial.begin(), spatial.end());
    return RankedTensorType::get(shape, element);
  };
  auto offsetsAt = [&](int64_t words) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[2] = b.getIndexAttr(words);
    return offsets;
  };
  auto sizesOf = [&](RankedTensorType t) {
    return getAsIndexOpFoldResult(b.getContext(), t.getShape());
  };
  SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
  // Whole words past the channels (AMX's padding to 16-word steps) are
  // filled in the packed buffer, around the packed words: padding the bytes
  // instead copies the whole input into a padded buffer first.
  int64_t wholeWords = channels % 4 == 0 ? channels / 4 : packed;
  Value grouped = reshapeTo(b, loc, x, shaped({n, group, channels}, i8));
  if (4 * wholeWords > channels) {
    SmallVector<int64_t> low(rank, 0), high(low);
    high[2] = 4 * wholeWords - channels;
    Value padding = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, fill));
    grouped = tensor::PadOp::create(
        b, loc, shaped({n, group, 4 * wholeWords}, i8), grouped,
        getAsIndexOpFoldResult(b.getContext(), low),
        getAsIndexOpFoldResult(b.getContext(), high), padding);
  }
  // Byte j of each output element comes from channel 4 * c4 + j: four
  // strided slices read element-wise (identity maps, so the op vectorizes
  // along the innermost spatial dimension like any element-wise op).
  auto sliceType = shaped({n, group, wholeWords}, i8);
  SmallVector<Value> bytePlanes;
  for (int64_t j = 0; j < 4; ++j) {
    SmallVector<OpFoldResult> strides = unitStrides;
    strides[2] = b.getIndexAttr(4);
    bytePlanes.push_back(tensor::ExtractSliceOp::create(
        b, loc, sliceType, grouped, offsetsAt(j), sizesOf(sliceType), strides));
  }
  // The words are written in place into the padded buffer, filled first
  // (an extract_slice / insert_slice pair of one destination bufferizes to
  // a view; a slice of an empty tensor would fold to a new buffer).
  auto wordsType = shaped({n, group, wholeWords}, i32);
  Value padded = createEmpty(b, loc, shaped({n, group, packed}, i32));
  Value wordsInit = padded;
  if (wholeWords < packed) {
    uint8_t fillByte = uint8_t(fill) ^ (toSigned ? 0x80 : 0);
    Value fillWord = arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(int32_t(0x01010101u * fillByte)));
    padded = linalg::FillOp::create(b, loc, ValueRange{fillWord},
                                    ValueRange{padded})
                 .getResult(0);
    wordsInit = tensor::ExtractSliceOp::create(b, loc, wordsType, padded,
                                               offsetsAt(0), sizesOf(wordsType),
                                               unitStrides);
  }
  SmallVector<AffineMap> maps(
      5, AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  Value words =
      linalg::GenericOp::create(
          b, loc, TypeRange{wordsType}, bytePlanes, ValueRange{wordsInit}, maps,
          getIteratorTypes(rank),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value topBit = toSigned ? arith::ConstantOp::create(
                                          nb, l, nb.getIntegerAttr(i8, -128))
                                    : Value();
            auto byteAt = [&](int64_t j) -> Value {
              Value byte = args[j];
              if (topBit)
                byte = arith::XOrIOp::create(nb, l, byte, topBit);
              return arith::ExtUIOp::create(nb, l, i32, byte);
            };
            Value word = byteAt(0);
            for (int64_t j = 1; j < 4; ++j) {
              Value byte = byteAt(j);
              Value shift = arith::ConstantOp::create(
                  nb, l, nb.getI32IntegerAttr(8 * j));
              word = arith::OrIOp::create(
                  nb, l, word, arith::ShLIOp::create(nb, l, byte, shift));
            }
            linalg::YieldOp::create(nb, l, word);
          })
          .getResult(0);
  if (wholeWords == packed)
    return words;
  return tensor::InsertSliceOp::create(b, loc, words, padded, offsetsAt(0),
                                       sizesOf(wordsType), unitStrides);
}

/// The weights (F, C/G, K...) as (G, F/G, K..., C4) int32, packed like
/// packInputChannels with weight 0 past the last channel. Channel words
/// last: a filter's words for one tap are contiguous, as the rows of an AMX
/// tile must be (the vpdpbusd kernel reads single words, in any layout).
SmallVector<int64_t> packWeightChannels(ArrayRef<int64_t> weights,
                                        int64_t filters, int64_t channels,
                                        int64_t packed, int64_t window) {
  SmallVector<int64_t> result(filters * packed * window, 0);
  for (int64_t f = 0; f < filters; ++f)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t k = 0; k < window; ++k) {
        uint64_t byte = uint8_t(int8_t(weights[(f * channels + c) * window + k]));
        result[(f * window + k) * packed + c / 4] |= int64_t(byte << (8 * (c % 4)));
      }
  return result;
}

/// acc + the 4-way dot product of the bytes of `a` (u8, or s8 when
/// `signedInput`) and `w` (s8).
Value dot4(OpBuilder &b, Location loc, Value a, Value w, Value acc,
           bool signedInput) {
  Type i32 = b.getI32Type();
  auto quad = VectorType::get({4}, b.getI8Type());
  auto wide = VectorType::get({4}, i32);
  auto bytes = [&](Value word) {
    Value one = vector::BroadcastOp::create(b, loc, VectorType::get({1}, i32), word);
    return vector::BitCastOp::create(b, loc, quad, one);
  };
  Value input = signedInput
                    ? Value(arith::ExtSIOp::create(b, loc, wide, bytes(a)))
                    : Value(arith::ExtUIOp::create(b, loc, wide, bytes(a)));
  Value products = arith::MulIOp::create(
      b, loc, input, arith::ExtSIOp::create(b, loc, wide, bytes(w)));
  Value sum = vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                          products);
  return arith::AddIOp::create(b, loc, acc, sum);
}

/// The packed form `dot` gives a convolution of these weights and input:
/// u8 activations, s8 weights without zero point, three or more input
/// channels per group; else None (the widening form).
Int8DotProduct packsFor(Int8DotProduct dot, RankedTensorType wType,
                        RankedTensorType xType, bool wideWeights) {
  if (!xType.getElementType().isUnsignedInteger(8) || wideWeights ||
      wType.getDimSize(1) < 3)
    return Int8DotProduct::None;
  return dot;
}

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
    Value w = createConstant(
        rewriter, loc,
        RankedTensorType::get(wType.getShape(),
                              wideWeights ? rewriter.getI16Type() : i8),
        *weights);
    auto accType = RankedTensorType::get(yType.getShape(), i32);
    Value initPerFilter =
        createConstant(rewriter, loc, RankedTensorType::get({filters}, i32), init);
    int64_t channels = wType.getDimSize(1);
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
    Value y;
    if (packing != Int8DotProduct::None) {
      bool toSigned = packing == Int8DotProduct::SDot;
      int64_t packed = llvm::divideCeil(channels, 4);
      // Whole AMX steps: words past the last hold weight 0 and the zero
      // point, adding nothing.
      int64_t positions = ShapedType::getNumElements(yType.getShape().drop_front(2));
      if (packing == Int8DotProduct::AMX && packed >= kAMXMinWords &&
          filters / op.getGroup() >= kAMXMinFilters && positions >= 16 &&
          llvm::all_of(g->strides, [](int64_t s) { return s == 1; }))
        packed = llvm::alignTo(packed, 16);
      int64_t window = perFilter / channels;
      SmallVector<int64_t> packedShape = {op.getGroup(), filters / op.getGroup()};
      packedShape.append(wType.getShape().begin() + 2, wType.getShape().end());
      packedShape.push_back(packed);
      Value packedWeights = createConstant(
          rewriter, loc, RankedTensorType::get(packedShape, i32),
          packWeightChannels(*weights, filters, channels, packed, window));
      Value input = packInputChannels(rewriter, loc, x, op.getGroup(), channels,
                                      packed, int8_t(xZeroPoint), toSigned);
      y = convolveGrouped(
          rewriter, loc, input, packedWeights, accType, initPerFilter,
          op.getGroup(), *g, vectorBits,
          [&](OpBuilder &nb, Location l, Value a, Value w, Value sum) {
            return dot4(nb, l, a, w, sum, toSigned);
          },
          requantize, /*channelsLastWeights=*/true);
    } else {
      y = convolve(rewriter, loc, x, w, accType, initPerFilter, op.getGroup(),
                   *g, vectorBits, MultiplyAdd{xUnsigned, /*rhsUnsigned=*/false},
                   requantize);
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateQLinearConvToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options) {
  patterns.add<QLinearConvPattern>(converter, patterns.getContext(), options);
}
