//===- PackedBytes.cpp - 8-bit operands packed four to an int32 -----------===//

#include "PackedBytes.h"
#include "Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::onnxq;

/// The int32 of the four i8 `bytes`, byte j in bits 8j..8j+7; with
/// `toSigned` each byte's top bit flipped first (u8 x as the s8 x - 128).
static Value packWord(OpBuilder &b, Location loc, ValueRange bytes, bool toSigned) {
  Type i32 = b.getI32Type();
  Value topBit = toSigned
                     ? arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI8Type(), -128))
                     : Value();
  Value word;
  for (auto [j, byte] : llvm::enumerate(bytes)) {
    Value v = topBit ? arith::XOrIOp::create(b, loc, byte, topBit) : byte;
    v = arith::ExtUIOp::create(b, loc, i32, v);
    if (j > 0)
      v = arith::ShLIOp::create(
          b, loc, v, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(8 * j)));
    word = word ? Value(arith::OrIOp::create(b, loc, word, v)) : v;
  }
  return word;
}

Value mlir::onnxq::createPackedBuffer(OpBuilder &b, Location loc, RankedTensorType type,
                                      int64_t dataWords, int8_t fill, bool toSigned) {
  Value buffer = createEmpty(b, loc, type);
  if (dataWords >= type.getDimSize(2))
    return buffer;
  uint8_t fillByte = uint8_t(fill) ^ (toSigned ? 0x80 : 0);
  Value fillWord = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(int32_t(0x01010101u * fillByte)));
  return linalg::FillOp::create(b, loc, ValueRange{fillWord}, ValueRange{buffer})
      .getResult(0);
}

Value mlir::onnxq::packInputChannels(OpBuilder &b, Location loc, Value x,
                                     int64_t group, int64_t channels,
                                     int64_t packed, int8_t fill, bool toSigned) {
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> spatial = type.getShape().drop_front(2);
  int64_t n = type.getDimSize(0);
  int64_t rank = 3 + spatial.size();
  MLIRContext *ctx = b.getContext();
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  auto shaped = [&](int64_t words, Type element) {
    SmallVector<int64_t> shape = {n, group, words};
    shape.append(spatial.begin(), spatial.end());
    return RankedTensorType::get(shape, element);
  };
  auto offsetsAt = [&](int64_t words) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[2] = b.getIndexAttr(words);
    return offsets;
  };
  auto sizesOf = [&](RankedTensorType t) { return getAsIndexOpFoldResult(ctx, t.getShape()); };
  SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
  Value grouped = reshapeTo(b, loc, x, shaped(channels, i8));

  // The words are written in place into the packed buffer, filled first
  // where words past the channels (AMX's padding to 16-word steps) need it
  // (an extract_slice / insert_slice pair of one destination bufferizes to
  // a view; a slice of an empty tensor would fold to a new buffer).
  int64_t fullWords = channels / 4, partialBytes = channels % 4;
  int64_t dataWords = fullWords + (partialBytes ? 1 : 0);
  Value result = createPackedBuffer(b, loc, shaped(packed, i32), dataWords, fill, toSigned);
  // Words [first, first + words): byte j of each from channel
  // 4 * (first + w) + j, read as `bytes` strided slices element-wise
  // (identity maps, so the op vectorizes along the innermost spatial
  // dimension like any element-wise op); bytes past them are `fill`, so a
  // last partial word reads no padded copy of the input.
  auto packWords = [&](int64_t first, int64_t words, int64_t bytes) {
    auto sliceType = shaped(words, i8);
    SmallVector<Value> planes;
    for (int64_t j = 0; j < bytes; ++j) {
      SmallVector<OpFoldResult> strides = unitStrides;
      strides[2] = b.getIndexAttr(4);
      planes.push_back(tensor::ExtractSliceOp::create(
          b, loc, sliceType, grouped, offsetsAt(4 * first + j), sizesOf(sliceType),
          strides));
    }
    auto wordsType = shaped(words, i32);
    Value init = tensor::ExtractSliceOp::create(b, loc, wordsType, result, offsetsAt(first),
                                                sizesOf(wordsType), unitStrides);
    SmallVector<AffineMap> maps(bytes + 1, AffineMap::getMultiDimIdentityMap(rank, ctx));
    Value packedWords =
        linalg::GenericOp::create(
            b, loc, TypeRange{wordsType}, planes, ValueRange{init}, maps,
            getIteratorTypes(rank),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              SmallVector<Value> wordBytes(args.take_front(bytes));
              while (wordBytes.size() < 4)
                wordBytes.push_back(
                    arith::ConstantOp::create(nb, l, nb.getIntegerAttr(i8, fill)));
              linalg::YieldOp::create(nb, l, packWord(nb, l, wordBytes, toSigned));
            })
            .getResult(0);
    result = tensor::InsertSliceOp::create(b, loc, packedWords, result, offsetsAt(first),
                                           sizesOf(wordsType), unitStrides);
  };
  if (fullWords)
    packWords(0, fullWords, 4);
  if (partialBytes)
    packWords(fullWords, 1, partialBytes);
  return result;
}

SmallVector<int64_t> mlir::onnxq::packWeightChannels(ArrayRef<int64_t> weights,
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

Value mlir::onnxq::createWeightWords(OpBuilder &b, Location loc,
                                     RankedTensorType type, ArrayRef<int64_t> words) {
  // Fewer words are not worth an op.
  constexpr int64_t kNibblesFrom = 64;
  auto fitsNibbles = [](int64_t word) {
    for (int j = 0; j < 4; ++j) {
      int8_t byte = int8_t(uint8_t(uint64_t(word) >> (8 * j)));
      if (byte < -8 || byte > 7)
        return false;
    }
    return true;
  };
  if (int64_t(words.size()) < kNibblesFrom || !llvm::all_of(words, fitsNibbles))
    return createConstant(b, loc, type, words);
  SmallVector<int64_t> nibbles;
  for (int64_t word : words) {
    uint16_t packed = 0;
    for (int j = 0; j < 4; ++j)
      packed |= uint16_t((uint64_t(word) >> (8 * j)) & 0xF) << (4 * j);
    nibbles.push_back(int16_t(packed));
  }
  Value stored = createConstant(b, loc, type.clone(b.getI16Type()), nibbles);
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, stored, init,
             SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
             getIteratorTypes(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               // Byte j: nibble j moved to the top and back down, signed.
               Type i32 = nb.getI32Type();
               Value x = arith::ExtUIOp::create(nb, l, i32, args[0]);
               Value word = createScalar(nb, l, i32, 0);
               for (int j = 0; j < 4; ++j) {
                 Value top = arith::ShLIOp::create(nb, l, x, createScalar(nb, l, i32, 28 - 4 * j));
                 Value byte = arith::AndIOp::create(
                     nb, l, arith::ShRSIOp::create(nb, l, top, createScalar(nb, l, i32, 28)),
                     createScalar(nb, l, i32, 0xFF));
                 word = arith::OrIOp::create(
                     nb, l, word, arith::ShLIOp::create(nb, l, byte, createScalar(nb, l, i32, 8 * j)));
               }
               linalg::YieldOp::create(nb, l, word);
             })
      .getResult(0);
}

Value mlir::onnxq::dot4(OpBuilder &b, Location loc, Value a, Value w, Value acc,
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

Int8DotProduct mlir::onnxq::packsFor(Int8DotProduct dot, RankedTensorType wType,
                                     RankedTensorType xType, bool wideWeights) {
  if (!xType.getElementType().isUnsignedInteger(8) || wideWeights ||
      wType.getDimSize(1) < 3)
    return Int8DotProduct::None;
  return dot;
}

namespace {

/// Columns of one AMX result tile.
constexpr int64_t kTileColumns = 16;

/// The u8 matrix `a` (M, K) as (M, W) int32 words, byte j of word w from
/// column 4 * w + j (0 past K): four strided slices, one per byte, combined
/// element-wise.
Value packRowWords(OpBuilder &b, Location loc, Value a, int64_t words) {
  auto type = cast<RankedTensorType>(a.getType());
  int64_t m = type.getDimSize(0), k = type.getDimSize(1);
  MLIRContext *ctx = b.getContext();
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  if (4 * words > k) {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, 0));
    a = tensor::PadOp::create(
        b, loc, RankedTensorType::get({m, 4 * words}, i8), a,
        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{0, 0}),
        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{0, 4 * words - k}), zero);
  }
  auto sliceType = RankedTensorType::get({m, words}, i8);
  SmallVector<Value> bytePlanes;
  for (int64_t j = 0; j < 4; ++j)
    bytePlanes.push_back(tensor::ExtractSliceOp::create(
        b, loc, sliceType, a, getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{0, j}),
        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{m, words}),
        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{1, 4})));
  return createElementwise(
      b, loc, RankedTensorType::get({m, words}, i32), bytePlanes,
      [&](OpBuilder &nb, Location l, ValueRange bytes) {
        return packWord(nb, l, bytes, /*toSigned=*/false);
      });
}

/// The weights (K, N) as (W, N) int32 words, byte j of word (w, n) from
/// row 4 * w + j (0 past K).
SmallVector<int64_t> packColumnWords(ArrayRef<int64_t> weights, int64_t k,
                                     int64_t n, int64_t words) {
  SmallVector<int64_t> packed(words * n, 0);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < n; ++c) {
      uint64_t byte = uint8_t(int8_t(weights[r * n + c]));
      packed[(r / 4) * n + c] |= int64_t(byte << (8 * (r % 4)));
    }
  return packed;
}

} // namespace

Value mlir::onnxq::multiplyPackedBytes(OpBuilder &b, Location loc, Value a,
                                       ArrayRef<int64_t> weights, int64_t k,
                                       int64_t n, Value columnStart,
                                       Int8DotProduct dot) {
  int64_t m = cast<RankedTensorType>(a.getType()).getDimSize(0);
  int64_t words = llvm::divideCeil(k, 4);
  // Tiles of the activation rows (kAMXMinFilters of them at least, as a
  // convolution's filters) against 16 columns: whole steps of words.
  if (dot == Int8DotProduct::AMX && m >= kAMXMinFilters && n >= kTileColumns)
    words = getAMXChannelWords(words);
  Type i32 = b.getI32Type();
  Value packedA = packRowWords(b, loc, a, words);
  Value w = createWeightWords(b, loc, RankedTensorType::get({words, n}, i32),
                              packColumnWords(weights, k, n, words));
  MLIRContext *ctx = b.getContext();
  AffineExpr mm = getAffineDimExpr(0, ctx), nn = getAffineDimExpr(1, ctx),
             kk = getAffineDimExpr(2, ctx);
  auto outType = RankedTensorType::get({m, n}, i32);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {mm, kk}, ctx),
                                 AffineMap::get(3, 0, {kk, nn}, ctx),
                                 AffineMap::get(3, 0, {mm, nn}, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{packedA, w},
             ValueRange{createBroadcast(b, loc, outType, columnStart)}, maps,
             getIteratorTypes(3, {2}),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               // Operand 0 (the u8 one) first, as the kernel stage expects.
               linalg::YieldOp::create(
                   nb, l, dot4(nb, l, args[0], args[1], args[2], /*signedInput=*/false));
             })
      .getResult(0);
}
