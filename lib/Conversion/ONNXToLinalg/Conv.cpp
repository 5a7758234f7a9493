//===- Conv.cpp - onnx.Conv to linalg convolutions ------------------------===//
//
// A KHxKW convolution is the sum of KH*KW 1x1 convolutions, each reading a
// strided window of the padded input: one `linalg.generic` contraction per
// kernel tap, all accumulating into the same tensor (initialized with the
// bias). Every indexing map is then a projected permutation, so the loops
// can be reordered and vectorized along the output width. 1-D convolutions
// are lowered as 2-D with a height of 1; groups (and depthwise) add a group
// loop.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// `shape` with a 1 inserted before its last dimension (1-D as 2-D).
SmallVector<int64_t> insertUnitHeight(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape);
  result.insert(result.end() - 1, 1);
  return result;
}

/// result += (1x1 convolution of the input window of tap (i, j) with
/// w[:, :, i, j]), over loops (n, g, f, oh, ow, c).
Value accumulateTap(OpBuilder &b, Location loc, Value x, Value w, Value acc,
                    int64_t group, int64_t i, int64_t j,
                    const WindowGeometry &g, MultiplyAdd step) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto accType = cast<RankedTensorType>(acc.getType());
  Type xElement = xType.getElementType(), wElement = wType.getElementType(),
       accElement = accType.getElementType();
  int64_t n = accType.getDimSize(0), m = accType.getDimSize(1),
          oh = accType.getDimSize(2), ow = accType.getDimSize(3),
          c = xType.getDimSize(1), cg = wType.getDimSize(1);
  // The window: x[:, :, i*dh + oh*sh, j*dw + ow*sw].
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(0),
                                       b.getIndexAttr(i * g.dilations[0]),
                                       b.getIndexAttr(j * g.dilations[1])};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(n), b.getIndexAttr(c),
                                     b.getIndexAttr(oh), b.getIndexAttr(ow)};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       b.getIndexAttr(g.strides[0]),
                                       b.getIndexAttr(g.strides[1])};
  auto windowType = RankedTensorType::get({n, c, oh, ow}, xElement);
  Value window = tensor::ExtractSliceOp::create(b, loc, windowType, x, offsets,
                                                sizes, strides);
  SmallVector<OpFoldResult> tapOffsets = {b.getIndexAttr(0), b.getIndexAttr(0),
                                          b.getIndexAttr(i), b.getIndexAttr(j)};
  SmallVector<OpFoldResult> tapSizes = {b.getIndexAttr(m), b.getIndexAttr(cg),
                                        b.getIndexAttr(1), b.getIndexAttr(1)};
  SmallVector<OpFoldResult> ones(4, b.getIndexAttr(1));
  Value tap = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({m, cg, 1, 1}, wElement), w, tapOffsets,
      tapSizes, ones);

  // Grouped views: window (n, g, c/g, oh, ow), tap (g, m/g, c/g),
  // accumulator (n, g, m/g, oh, ow).
  window = reshapeTo(b, loc, window,
                     RankedTensorType::get({n, group, cg, oh, ow}, xElement));
  tap = reshapeTo(b, loc, tap, RankedTensorType::get({group, m / group, cg}, wElement));
  Value groupedAcc = reshapeTo(
      b, loc, acc, RankedTensorType::get({n, group, m / group, oh, ow}, accElement));
  MLIRContext *ctx = b.getContext();
  AffineExpr dn, dg, df, dh, dw, dc;
  bindDims(ctx, dn, dg, df, dh, dw, dc);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {dn, dg, dc, dh, dw}, ctx),
      AffineMap::get(6, 0, {dg, df, dc}, ctx),
      AffineMap::get(6, 0, {dn, dg, df, dh, dw}, ctx)};
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{groupedAcc.getType()}, ValueRange{window, tap},
          ValueRange{groupedAcc}, maps, getIteratorTypes(6, {5}),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l,
                                    step.build(nb, l, args[0], args[1], args[2]));
          })
          .getResult(0);
  return reshapeTo(b, loc, result, accType);
}

struct ConvPattern : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType xType = getStaticType(op.getX());
    RankedTensorType wType = getStaticType(op.getW());
    RankedTensorType yType = getStaticType(op.getY());
    if (!xType || !wType || !yType)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    if (!isa<FloatType>(yType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float convolutions only");
    FailureOr<Conv2DShapes> shapes =
        getConv2DShapes(xType, wType, yType, op.getPadsAttr(),
                        op.getStridesAttr(), op.getDilationsAttr(), op.getAutoPad());
    if (failed(shapes))
      return rewriter.notifyMatchFailure(op, "1-D and 2-D convolutions only");
    Location loc = op.getLoc();
    Type elementType = yType.getElementType();
    auto type4d = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, elementType);
    };
    Value x = reshapeTo(rewriter, loc, adaptor.getX(), type4d(shapes->x));
    Value w = reshapeTo(rewriter, loc, adaptor.getW(), type4d(shapes->w));
    x = padSpatial(rewriter, loc, x, shapes->g.padBegin, shapes->g.padEnd, 0.0);

    RankedTensorType outType = type4d(shapes->y);
    Value init;
    if (Value bias = adaptor.getB()) {
      Value bias3d =
          reshapeTo(rewriter, loc, bias, type4d({shapes->w[0], 1, 1}));
      init = createElementwise(rewriter, loc, outType, bias3d,
                               [](OpBuilder &, Location, ValueRange args) {
                                 return args[0];
                               });
    } else {
      init = createFilled(rewriter, loc, outType, 0.0);
    }
    Value result = convolve(rewriter, loc, x, w, init, op.getGroup(), shapes->g);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, result, yType));
    return success();
  }
};

} // namespace

FailureOr<Conv2DShapes> mlir::onnxq::getConv2DShapes(
    RankedTensorType xType, RankedTensorType wType, RankedTensorType yType,
    ArrayAttr pads, ArrayAttr strides, ArrayAttr dilations, StringRef autoPad) {
  int64_t rank = xType.getRank();
  if (rank != 3 && rank != 4)
    return failure();
  Conv2DShapes shapes;
  shapes.x.assign(xType.getShape().begin(), xType.getShape().end());
  shapes.w.assign(wType.getShape().begin(), wType.getShape().end());
  shapes.y.assign(yType.getShape().begin(), yType.getShape().end());
  if (rank == 3) {
    Builder b(xType.getContext());
    shapes.x = insertUnitHeight(shapes.x);
    shapes.w = insertUnitHeight(shapes.w);
    shapes.y = insertUnitHeight(shapes.y);
    auto prepend = [&](ArrayAttr attr, int64_t extra) -> ArrayAttr {
      if (!attr)
        return nullptr;
      SmallVector<int64_t> values = {extra};
      for (int64_t v : getIntsOr(attr, 0, 0))
        values.push_back(v);
      return b.getI64ArrayAttr(values);
    };
    SmallVector<int64_t> p = getIntsOr(pads, 2, 0);
    pads = pads ? b.getI64ArrayAttr({0, p[0], 0, p[1]}) : nullptr;
    strides = prepend(strides, 1);
    dilations = prepend(dilations, 1);
  }
  std::optional<WindowGeometry> g = computeWindowGeometry(
      shapes.x, ArrayRef<int64_t>(shapes.w).drop_front(2), pads, strides,
      dilations, autoPad, /*ceilMode=*/false);
  if (!g || ArrayRef<int64_t>(g->output) != ArrayRef<int64_t>(shapes.y).drop_front(2))
    return failure();
  shapes.g = std::move(*g);
  return shapes;
}

Value mlir::onnxq::convolve(OpBuilder &b, Location loc, Value x, Value w,
                            Value init, int64_t group, const WindowGeometry &g,
                            MultiplyAdd step) {
  auto wType = cast<RankedTensorType>(w.getType());
  Value result = init;
  for (int64_t i = 0; i < wType.getDimSize(2); ++i)
    for (int64_t j = 0; j < wType.getDimSize(3); ++j)
      result = accumulateTap(b, loc, x, w, result, group, i, j, g, step);
  return result;
}

void mlir::onnxq::populateConvToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ConvPattern>(converter, patterns.getContext());
}
