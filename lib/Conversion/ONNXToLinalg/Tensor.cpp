//===- Tensor.cpp - onnx data-movement ops to tensor and linalg -----------===//
//
// Constants, reshapes, transposes, concatenation, slicing, padding, gathers.
// Shape-like operands (Reshape's shape, Slice's starts, Pad's pads...) must be
// compile-time constants; the result types are static.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// A 4-bit constant's `values` as the object keeps them: two a byte, byte i
/// holding values i (low nibble) and i + half (high nibble), spread to the
/// byte each of its converted type (`resultType`, sign-extended for int4)
/// by one element-wise pass when the model runs. The pass's (2, half)
/// result is two contiguous runs, vectorized along them: row 0 shifts each
/// byte up by 4 and down again, row 1 only down, arithmetically for int4.
Value unpack4BitConstant(OpBuilder &b, Location loc, ArrayRef<int64_t> values,
                         bool isUnsigned, RankedTensorType resultType) {
  int64_t count = resultType.getNumElements();
  int64_t half = (count + 1) / 2;
  Type i8 = b.getI8Type();
  SmallVector<int64_t> packed(half, 0);
  for (auto [i, v] : llvm::enumerate(values))
    packed[i % half] |= (v & 0xF) << (4 * (int64_t(i) / half));
  for (int64_t &byte : packed)
    byte = int8_t(uint8_t(byte));
  Value bytes = arith::ConstantOp::create(
      b, loc,
      cast<TypedAttr>(createIntegerElements(RankedTensorType::get({half}, i8), packed)));
  auto spreadType = RankedTensorType::get({2, half}, i8);
  MLIRContext *ctx = b.getContext();
  AffineMap byteMap = AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
  Value init = tensor::EmptyOp::create(b, loc, spreadType.getShape(), i8);
  Value spread =
      linalg::GenericOp::create(
          b, loc, spreadType, bytes, init,
          ArrayRef<AffineMap>{byteMap, b.getMultiDimIdentityMap(2)},
          SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value high = arith::IndexCastOp::create(
                nb, l, i8, linalg::IndexOp::create(nb, l, 0));
            Value four = createScalar(nb, l, i8, 4);
            Value up = arith::ShLIOp::create(
                nb, l, args[0],
                arith::SubIOp::create(nb, l, four,
                                      arith::MulIOp::create(nb, l, high, four)));
            Value down = isUnsigned
                             ? arith::ShRUIOp::create(nb, l, up, four).getResult()
                             : arith::ShRSIOp::create(nb, l, up, four).getResult();
            linalg::YieldOp::create(nb, l, down);
          })
          .getResult(0);
  Value flat = reshapeTo(b, loc, spread, RankedTensorType::get({2 * half}, i8));
  if (2 * half != count)
    flat = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({count}, i8), flat, ValueRange{},
        ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0}),
        b.getDenseI64ArrayAttr({count}), b.getDenseI64ArrayAttr({1}));
  return reshapeTo(b, loc, flat, resultType);
}

struct ConstantPattern : StaticShapePattern<ConstantOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ConstantOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(getTypeConverter()->convertType(op.getType()));
    if (isPacked4Bit(op.getValue().getElementType())) {
      std::optional<SmallVector<int64_t>> values = getIntegerValues(op.getValue());
      if (!values)
        return rewriter.notifyMatchFailure(op, "unreadable 4-bit constant");
      // Packing pays off for weights, not for a zero point or two.
      constexpr int64_t kPackFrom = 64;
      Value result =
          values->size() < kPackFrom
              ? arith::ConstantOp::create(
                    rewriter, op.getLoc(),
                    cast<TypedAttr>(createIntegerElements(type, *values)))
              : unpack4BitConstant(
                    rewriter, op.getLoc(), *values,
                    op.getValue().getElementType().isUnsignedInteger(),
                    cast<RankedTensorType>(type));
      rewriter.replaceOp(op, result);
      return success();
    }
    TypedAttr value = cast<TypedAttr>(op.getValue());
    if (type != value.getType()) {
      // Only the signedness changes (ui8 -> i8): same bytes, new type.
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(type.getElementType());
      else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
        value = DenseResourceElementsAttr::get(type, resource.getRawHandle());
      else
        return rewriter.notifyMatchFailure(op, "unsupported constant");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// Ops that are the identity at inference time.
template <typename OpTy>
struct ForwardPattern : StaticShapePattern<OpTy> {
  using StaticShapePattern<OpTy>::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<OpTy, DropoutOp>) {
      // Inference only: a training_mode that is not a constant false would
      // make Dropout random.
      if (Value training = op.getTrainingMode()) {
        std::optional<SmallVector<int64_t>> mode = getConstantIntegers(training);
        if (!mode || llvm::any_of(*mode, [](int64_t v) { return v != 0; }))
          return rewriter.notifyMatchFailure(
              op, "training_mode must be a constant false");
      }
    }
    SmallVector<Value> results = {adaptor.getOperands()[0]};
    for (Value extra : op->getResults().drop_front()) {
      auto type = getStaticType(extra);
      if (!type)
        return rewriter.notifyMatchFailure(op, "needs a static mask type");
      // Dropout's mask: nothing is dropped at inference time.
      results.push_back(createFilled(rewriter, op.getLoc(), type, 1.0));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Reshape-like ops whose result is fully described by the static result type.
template <typename OpTy>
struct ReshapePattern : StaticShapePattern<OpTy> {
  using StaticShapePattern<OpTy>::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op->getResult(0));
    auto resultType = this->convertTensorType(type);
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getOperands()[0],
                                     resultType));
    return success();
  }
};

struct TransposePattern : StaticShapePattern<TransposeOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(TransposeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getTransposed());
    auto resultType = convertTensorType(type);
    SmallVector<int64_t> perm;
    if (op.getPerm())
      perm = getIntsOr(*op.getPerm(), 0, 0);
    else
      for (int64_t d = type.getRank() - 1; d >= 0; --d)
        perm.push_back(d);
    Value result = linalg::TransposeOp::create(rewriter, op.getLoc(), adaptor.getData(),
                                               createEmpty(rewriter, op.getLoc(), resultType),
                                               perm)
                       .getResult()[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConcatPattern : StaticShapePattern<ConcatOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ConcatOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getConcatResult());
    auto resultType = convertTensorType(type);
    Location loc = op.getLoc();
    int64_t rank = type.getRank(), axis = normalizeAxis(op.getAxis(), rank);
    Value result = createEmpty(rewriter, loc, resultType);
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(rewriter.getIndexAttr(inputType.getDimSize(d)));
      offsets[axis] = rewriter.getIndexAttr(offset);
      offset += inputType.getDimSize(axis);
      // An empty input (a 0x4 initializer, valid ONNX) adds nothing; its
      // slice's offset may lie past the end, which insert_slice refuses.
      if (inputType.getNumElements() == 0)
        continue;
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result, offsets,
                                             sizes, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitPattern : StaticShapePattern<SplitOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(SplitOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getInput());
    Location loc = op.getLoc();
    int64_t rank = inType.getRank(), axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<Value> results;
    int64_t offset = 0;
    for (Value output : op.getOutputs()) {
      auto outType = convertTensorType(output.getType());
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), sizes,
          strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(rewriter.getIndexAttr(outType.getDimSize(d)));
      offsets[axis] = rewriter.getIndexAttr(offset);
      offset += outType.getDimSize(axis);
      results.push_back(tensor::ExtractSliceOp::create(rewriter, loc, outType,
                                                       adaptor.getInput(), offsets,
                                                       sizes, strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SlicePattern : StaticShapePattern<SliceOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(SliceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getOutput());
    auto starts = getConstantIntegers(op.getStarts());
    auto ends = getConstantIntegers(op.getEnds());
    if (!starts || !ends)
      return rewriter.notifyMatchFailure(op, "needs constant bounds");
    int64_t rank = inType.getRank();
    SmallVector<int64_t> axes, steps(starts->size(), 1);
    if (op.getAxes()) {
      auto constAxes = getConstantIntegers(op.getAxes());
      if (!constAxes)
        return rewriter.notifyMatchFailure(op, "axes must be constant");
      axes = *constAxes;
    } else {
      for (size_t i = 0; i < starts->size(); ++i)
        axes.push_back(i);
    }
    if (op.getSteps()) {
      auto constSteps = getConstantIntegers(op.getSteps());
      if (!constSteps)
        return rewriter.notifyMatchFailure(op, "steps must be constant");
      steps = *constSteps;
    }
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), sizes,
        strides(rank, rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(rewriter.getIndexAttr(inType.getDimSize(d)));
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t axis = normalizeAxis(axes[i], rank), dim = inType.getDimSize(axis);
      if (steps[i] <= 0)
        return rewriter.notifyMatchFailure(op, "negative steps are not supported");
      int64_t start = (*starts)[i], end = (*ends)[i];
      start = std::clamp<int64_t>(start < 0 ? start + dim : start, 0, dim);
      end = std::clamp<int64_t>(end < 0 ? end + dim : end, 0, dim);
      offsets[axis] = rewriter.getIndexAttr(start);
      sizes[axis] = rewriter.getIndexAttr(outType.getDimSize(axis));
      strides[axis] = rewriter.getIndexAttr(steps[i]);
    }
    auto resultType = convertTensorType(outType);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(op, resultType, adaptor.getData(),
                                                        offsets, sizes, strides);
    return success();
  }
};

struct PadPattern : StaticShapePattern<PadOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(PadOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType outType = getTensorType(op.getOutput());
    auto pads = getConstantIntegers(op.getPads());
    if (!pads)
      return rewriter.notifyMatchFailure(op, "needs constant pads");
    if (op.getMode() != "constant")
      return rewriter.notifyMatchFailure(op, "only constant padding is supported");
    if (llvm::any_of(*pads, [](int64_t p) { return p < 0; }))
      return rewriter.notifyMatchFailure(op, "negative pads are not supported");
    Location loc = op.getLoc();
    auto resultType = convertTensorType(outType);
    Value padValue;
    if (Value constant = adaptor.getConstantValue())
      padValue = tensor::ExtractOp::create(
          rewriter, loc,
          reshapeTo(rewriter, loc, constant,
                    RankedTensorType::get({}, resultType.getElementType())),
          ValueRange{});
    else
      padValue = createScalar(rewriter, loc, resultType.getElementType(), 0.0);
    int64_t rank = outType.getRank();
    SmallVector<int64_t> low(pads->begin(), pads->begin() + rank);
    SmallVector<int64_t> high(pads->begin() + rank, pads->end());
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, resultType, adaptor.getData(), getAsIndexOpFoldResult(getContext(), low),
        getAsIndexOpFoldResult(getContext(), high), padValue);
    return success();
  }
};

struct GatherPattern : StaticShapePattern<GatherOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(GatherOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType dataType = getTensorType(op.getData());
    RankedTensorType indicesType = getTensorType(op.getIndices());
    RankedTensorType outType = getTensorType(op.getOutput());
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = convertTensorType(outType);
    int64_t axis = normalizeAxis(op.getAxis(), dataType.getRank());
    int64_t indexRank = indicesType.getRank(), outRank = outType.getRank();
    // out[i..., j..., k...] = data[i..., indices[j...], k...]
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indexRank; ++d)
      indexExprs.push_back(getAffineDimExpr(axis + d, ctx));
    Value data = adaptor.getData();
    int64_t axisSize = dataType.getDimSize(axis);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{adaptor.getIndices()},
        ValueRange{createEmpty(rewriter, loc, resultType)},
        SmallVector<AffineMap>{AffineMap::get(outRank, 0, indexExprs, ctx),
                               rewriter.getMultiDimIdentityMap(outRank)},
        getIteratorTypes(outRank), [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = getReadIndex(b, l, args[0], axisSize);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          coords.push_back(index);
          for (int64_t d = axis + indexRank; d < outRank; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          linalg::YieldOp::create(b, l, tensor::ExtractOp::create(b, l, data, coords).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// out[i...] = data[i... with i_axis = indices[i...]] (negative indices
/// count from the end).
struct GatherElementsPattern : StaticShapePattern<GatherElementsOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(GatherElementsOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType dataType = getTensorType(op.getData());
    auto resultType = convertTensorType(getTensorType(op.getOutput()));
    int64_t rank = resultType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t axisSize = dataType.getDimSize(axis);
    Value data = adaptor.getData();
    Location loc = op.getLoc();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{adaptor.getIndices()},
        ValueRange{createEmpty(rewriter, loc, resultType)},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
        getIteratorTypes(rank), [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = getReadIndex(b, l, args[0], axisSize);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(d == axis ? index : Value(linalg::IndexOp::create(b, l, d)));
          linalg::YieldOp::create(b, l,
                                  tensor::ExtractOp::create(b, l, data, coords).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// out[o...] = input[o_i mod in_i...]: a gather whose addresses come from the
/// loop indices (the repeats only give the result shape).
struct TilePattern : StaticShapePattern<TileOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(TileOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getInput());
    auto resultType = convertTensorType(getTensorType(op.getOutput()));
    Value input = adaptor.getInput();
    Value tiled = createFromIndices(
        rewriter, op.getLoc(), resultType, [&](OpBuilder &b, Location l) -> Value {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < inType.getRank(); ++d) {
            Value i = linalg::IndexOp::create(b, l, d);
            int64_t in = inType.getDimSize(d);
            coords.push_back(in == resultType.getDimSize(d)
                                 ? i
                                 : Value(arith::RemUIOp::create(
                                       b, l, i, arith::ConstantIndexOp::create(b, l, in))));
          }
          return tensor::ExtractOp::create(b, l, input, coords);
        });
    rewriter.replaceOp(op, tiled);
    return success();
  }
};

struct ShapePattern : StaticShapePattern<ShapeOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ShapeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getShape());
    int64_t rank = inType.getRank();
    int64_t start = std::clamp<int64_t>(normalizeAxis(op.getStart(), rank), 0, rank);
    int64_t end = op.getEnd() ? std::clamp<int64_t>(normalizeAxis(*op.getEnd(), rank), 0, rank)
                              : rank;
    SmallVector<int64_t> dims(inType.getShape().begin() + start,
                              inType.getShape().begin() + std::max(start, end));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseIntElementsAttr::get(outType, dims));
    return success();
  }
};

/// Any onnx op whose results all have zero elements computes nothing: they
/// become `tensor.empty`. This comes before the op's own pattern, which may
/// not build on zero sizes (an extract_slice at offset 0 of a size-0 dim does
/// not verify).
struct ZeroElementResultsPattern : ConversionPattern {
  ZeroElementResultsPattern(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<ONNXDialect>(op->getDialect()) || op->getNumResults() == 0)
      return failure();
    SmallVector<Value> empties;
    for (Type type : op->getResultTypes()) {
      auto tensorType = dyn_cast_or_null<RankedTensorType>(
          getTypeConverter()->convertType(type));
      if (!tensorType || !tensorType.hasStaticShape() ||
          tensorType.getNumElements() != 0)
        return rewriter.notifyMatchFailure(op, "a result holds data");
      empties.push_back(createEmpty(rewriter, op->getLoc(), tensorType));
    }
    rewriter.replaceOp(op, empties);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateTensorToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ZeroElementResultsPattern>(converter, ctx);
  patterns.add<ConstantPattern, ForwardPattern<IdentityOp>, ForwardPattern<DropoutOp>,
               ReshapePattern<ReshapeOp>, ReshapePattern<FlattenOp>,
               ReshapePattern<SqueezeOp>, ReshapePattern<UnsqueezeOp>,
               TransposePattern, ConcatPattern, SplitPattern, SlicePattern,
               PadPattern, GatherPattern, GatherElementsPattern, TilePattern,
               ShapePattern>(converter, ctx);
}
