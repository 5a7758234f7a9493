//===- ConvTranspose.cpp - onnx.ConvTranspose to per-tap contractions -----===//
//
// A transposed convolution scatters every input position into the output:
// y[n, m, i*s + k*d - pad] += x[n, c, i] * w[c, m, k]. For each kernel tap k
// the contribution of all inputs is one contraction over c, added into a
// strided slice (offset k*d, stride s) of an unpadded full-size accumulator;
// the output is then the window [pad_begin, pad_begin + out) of it, plus the
// bias. Any number of spatial dims; groups add a group loop.
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

/// acc[n, g, f, s*i + k*d] += sum_c x[n, g, c, i] * w[g, c, f, k] for one
/// tap `tap` (a position in the kernel).
Value accumulateTap(OpBuilder &b, Location loc, Value x, Value w, Value acc,
                    int64_t group, ArrayRef<int64_t> tap,
                    const TransposeWindowGeometry &g) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto accType = cast<RankedTensorType>(acc.getType());
  Type elementType = accType.getElementType();
  int64_t spatial = tap.size();
  int64_t n = xType.getDimSize(0), c = xType.getDimSize(1),
          perGroup = wType.getDimSize(1), m = accType.getDimSize(1);
  ArrayRef<int64_t> inSpatial = xType.getShape().drop_front(2);

  // The tap's weights w[:, :, k] as (g, c/g, m/g).
  SmallVector<OpFoldResult> wOffsets(2, b.getIndexAttr(0)), wSizes = {
      b.getIndexAttr(c), b.getIndexAttr(perGroup)};
  for (int64_t k : tap) {
    wOffsets.push_back(b.getIndexAttr(k));
    wSizes.push_back(b.getIndexAttr(1));
  }
  SmallVector<OpFoldResult> ones(spatial + 2, b.getIndexAttr(1));
  SmallVector<int64_t> tapShape = {c, perGroup};
  tapShape.append(spatial, 1);
  Value tapWeights = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(tapShape, elementType), w, wOffsets, wSizes,
      ones);
  tapWeights = reshapeTo(b, loc, tapWeights,
                         RankedTensorType::get({group, c / group, perGroup}, elementType));

  // The strided slice of the accumulator this tap writes.
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0)),
      sizes = {b.getIndexAttr(n), b.getIndexAttr(m)},
      strides(2, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape = {n, m};
  for (int64_t d = 0; d < spatial; ++d) {
    offsets.push_back(b.getIndexAttr(tap[d] * g.dilations[d]));
    sizes.push_back(b.getIndexAttr(inSpatial[d]));
    strides.push_back(b.getIndexAttr(g.strides[d]));
    sliceShape.push_back(inSpatial[d]);
  }
  auto sliceType = RankedTensorType::get(sliceShape, elementType);
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, acc, offsets,
                                               sizes, strides);

  // Grouped views: x (n, g, c/g, i...), slice (n, g, m/g, i...); loops
  // (n, g, f, i..., c).
  SmallVector<int64_t> xGrouped = {n, group, c / group}, sliceGrouped = {
      n, group, perGroup};
  xGrouped.append(inSpatial.begin(), inSpatial.end());
  sliceGrouped.append(inSpatial.begin(), inSpatial.end());
  Value xg = reshapeTo(b, loc, x, RankedTensorType::get(xGrouped, elementType));
  Value sg = reshapeTo(b, loc, slice, RankedTensorType::get(sliceGrouped, elementType));
  Value sum = accumulateGroupedPointwise(b, loc, xg, tapWeights, sg,
                                         /*weightsInputMajor=*/true);
  sum = reshapeTo(b, loc, sum, sliceType);
  return tensor::InsertSliceOp::create(b, loc, sum, acc, offsets, sizes, strides);
}

struct ConvTransposePattern : StaticShapePattern<ConvTransposeOp> {
  using StaticShapePattern::StaticShapePattern;

  LogicalResult
  matchAndRewriteStatic(ConvTransposeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType xType = getTensorType(op.getX());
    RankedTensorType wType = getTensorType(op.getW());
    RankedTensorType yType = getTensorType(op.getY());
    if (xType.getRank() < 3)
      return rewriter.notifyMatchFailure(op, "needs spatial dimensions");
    if (!isa<FloatType>(yType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float convolutions only");
    ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
    std::optional<TransposeWindowGeometry> g = computeTransposeWindowGeometry(
        xType.getShape(), kernel, op.getPadsAttr(), op.getStridesAttr(),
        op.getDilationsAttr(), op.getOutputPaddingAttr(),
        op.getOutputShapeAttr(), op.getAutoPad());
    if (!g)
      return rewriter.notifyMatchFailure(op, "output shape does not match");
    Location loc = op.getLoc();
    Type elementType = yType.getElementType();
    int64_t spatial = kernel.size();

    SmallVector<int64_t> fullShape(yType.getShape().take_front(2));
    fullShape.append(g->full.begin(), g->full.end());
    Value acc = createFilled(rewriter, loc,
                             RankedTensorType::get(fullShape, elementType), 0.0);
    forEachKernelPosition(kernel, [&](ArrayRef<int64_t> tap) {
      acc = accumulateTap(rewriter, loc, adaptor.getX(), adaptor.getW(), acc,
                          op.getGroup(), tap, *g);
    });

    // Crop the pads, then add the bias per output channel.
    SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0)), sizes,
        strides(spatial + 2, rewriter.getIndexAttr(1));
    for (int64_t size : yType.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    for (int64_t begin : g->padBegin)
      offsets.push_back(rewriter.getIndexAttr(begin));
    Value y = tensor::ExtractSliceOp::create(rewriter, loc, yType, acc, offsets,
                                             sizes, strides);
    if (Value bias = adaptor.getB()) {
      SmallVector<int64_t> perChannel(spatial + 1, 1);
      perChannel[0] = yType.getDimSize(1);
      y = createElementwise(
          rewriter, loc, yType,
          {y, reshapeTo(rewriter, loc, bias, RankedTensorType::get(perChannel, elementType))},
          [](OpBuilder &b, Location l, ValueRange args) {
            return arith::AddFOp::create(b, l, args[0], args[1]);
          });
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateConvTransposeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvTransposePattern>(converter, patterns.getContext());
}
