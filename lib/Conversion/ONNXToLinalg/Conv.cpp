//===- Conv.cpp - onnx.Conv to linalg convolutions ------------------------===//
//
// A convolution is one `linalg.generic` contraction over the padded input:
// loops (n, g, f, o..., c, k...), the input read at `o * stride + k *
// dilation`, accumulating into a tensor initialized with the bias. The
// kernel stage (onnxq-contraction-kernels) keeps a register tile of outputs
// over all input channels and taps and stores it once. Any number of
// spatial dims; groups (and depthwise) add a group loop. Maps whose rows are
// short for the target's vectors are computed with their rows flattened into
// one loop, over the padded width or, strided, over the input rows each tap
// row reads, gathered (chooseFlatRows).
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct ConvPattern : StaticShapePattern<ConvOp> {
  ConvPattern(const TypeConverter &converter, MLIRContext *ctx,
              unsigned vectorBits)
      : StaticShapePattern(converter, ctx), vectorBits(vectorBits) {}
  unsigned vectorBits;

  LogicalResult
  matchAndRewriteStatic(ConvOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    std::optional<WindowGeometry> g =
        getConvGeometry(op, op.getX(), op.getW(), op.getY());
    if (!g)
      return rewriter.notifyMatchFailure(op, "needs static shapes that match");
    RankedTensorType yType = getStaticType(op.getY());
    if (!isa<FloatType>(yType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float convolutions only");
    Location loc = op.getLoc();
    Value x = padSpatial(rewriter, loc, adaptor.getX(), g->padBegin, g->padEnd,
                         rewriter.getZeroAttr(yType.getElementType()));
    rewriter.replaceOp(op, convolve(rewriter, loc, x, adaptor.getW(), yType,
                                    adaptor.getB(), op.getGroup(), *g,
                                    vectorBits));
    return success();
  }
};

} // namespace

Value mlir::onnxq::accumulateGroupedPointwise(OpBuilder &b, Location loc,
                                              Value input, Value weights,
                                              Value acc, bool weightsInputMajor,
                                              MultiplyAdd step) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t spatial = accType.getRank() - 3;
  MLIRContext *ctx = b.getContext();
  int64_t loops = 4 + spatial;
  AffineExpr dn = getAffineDimExpr(0, ctx), dg = getAffineDimExpr(1, ctx),
             df = getAffineDimExpr(2, ctx), dc = getAffineDimExpr(loops - 1, ctx);
  SmallVector<AffineExpr> inputExprs = {dn, dg, dc}, accExprs = {dn, dg, df};
  for (int64_t d = 0; d < spatial; ++d) {
    inputExprs.push_back(getAffineDimExpr(3 + d, ctx));
    accExprs.push_back(getAffineDimExpr(3 + d, ctx));
  }
  AffineMap weightMap = AffineMap::get(
      loops, 0, weightsInputMajor ? ArrayRef{dg, dc, df} : ArrayRef{dg, df, dc}, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inputExprs, ctx),
                                 weightMap, AffineMap::get(loops, 0, accExprs, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{accType}, ValueRange{input, weights},
             ValueRange{acc}, maps, getIteratorTypes(loops, {loops - 1}),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, step.build(nb, l, args[0], args[1], args[2]));
             })
      .getResult(0);
}

namespace {

/// How a convolution's last two output dims are laid out for the kernel
/// stage. Flattened (pitch > 0), output pixel (oh, ow) sits at flat position
/// p = oh * pitch + ow of an accumulator whose rows are `pitch` wide, and
/// reads the input at flat position sw * p + kh * tapRowStride + kw * dw: a
/// single loop across rows, so the kernel's vectors run along it instead of
/// along rows narrower than a vector (a 7x7 map fills 7 of 16 lanes per row,
/// 49 of 64 flat). That needs sw * pitch input elements per output row:
/// sh * Wp over the padded input (Wp its width), or, for a strided
/// convolution, over `gatheredWidth` columns of rows gathered per tap row,
/// (KH, OH, W') with row (kh, oh) the input's row sh * oh + kh * dh (over
/// the padded input a stride-2 map would compute twice its columns).
/// Columns ow >= OW are computed and dropped.
struct FlatRows {
  int64_t pitch = 0;         ///< 0: the rows are kept
  int64_t gatheredWidth = 0; ///< W' > 0: reads input rows gathered per tap row
};

/// Filters per group below which gathering tap rows costs more than it saves.
constexpr int64_t kGatherMinFilters = 8;

/// The layout that takes the fewest vectors of `vectorBits` (0: rows kept).
/// At a tie the flat loop still gives the kernel's tiles their full width,
/// and the padded input needs no copy.
FlatRows chooseFlatRows(RankedTensorType inputType, RankedTensorType resultType,
                        int64_t filtersPerGroup, const WindowGeometry &g,
                        unsigned vectorBits) {
  int64_t spatial = g.kernel.size();
  if (spatial < 2 || vectorBits == 0)
    return {};
  int64_t lanes = vectorBits / resultType.getElementTypeBitWidth();
  int64_t sh = g.strides[spatial - 2], sw = g.strides[spatial - 1];
  int64_t width = inputType.getShape().back();
  int64_t rows = g.output[spatial - 2], columns = g.output[spatial - 1];
  // The kernel stage walks its vector loop with stride 1 or 2.
  if (lanes < 2 || sw > 2)
    return {};
  auto vectorsFor = [&](int64_t pitch) -> int64_t {
    return llvm::divideCeil((rows - 1) * pitch + columns, lanes);
  };
  int64_t best = rows * llvm::divideCeil(columns, lanes);
  FlatRows choice;
  if ((sh * width) % sw == 0) {
    int64_t pitch = sh * width / sw;
    if (pitch > columns && vectorsFor(pitch) <= best) {
      choice = {pitch, 0};
      best = vectorsFor(pitch);
    }
  }
  // Gathering copies KH / sh of the input, a cost the filters of a group
  // share: worth it only where rows fit in one vector, where flat saves the
  // most (7x7: 7 vectors -> 4) and gives the tiles their second vector, and
  // where a register tile's worth of filters reads the copy. ResNet-18's
  // stride-2 28x28 output (2 vectors a row, 56 -> 51 flat) got slower, int8
  // 0.161 -> 0.180 ms, and so did MobileNetV2's depthwise ones.
  if (sh > 1 && columns <= lanes && filtersPerGroup >= kGatherMinFilters) {
    // The columns a row's window reads, rounded up to whole strides.
    int64_t used = sw * (columns - 1) + g.dilations[spatial - 1] *
                                            (g.kernel[spatial - 1] - 1) + 1;
    int64_t gathered = llvm::alignTo(used, sw);
    int64_t pitch = gathered / sw;
    if (gathered <= width && vectorsFor(pitch) <= best &&
        (!choice.pitch || vectorsFor(pitch) < best))
      choice = {pitch, gathered};
  }
  return choice;
}

/// The rows of the padded `input` (N, G, C', I..., Hp, Wp) each tap row of
/// the window reads, as (N, G, C', I..., KH, OH, `width`): element (kh, oh,
/// w) is the input's (sh * oh + kh * dh, w).
Value gatherTapRows(OpBuilder &b, Location loc, Value input,
                    const WindowGeometry &g, int64_t width) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t spatial = g.kernel.size();
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> shape(inputType.getShape().drop_back(2));
  shape.append({g.kernel[spatial - 2], g.output[spatial - 2], width});
  auto type = RankedTensorType::get(shape, inputType.getElementType());
  MLIRContext *ctx = b.getContext();
  int64_t loops = rank + 1;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank - 2; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  AffineExpr kh = getAffineDimExpr(rank - 2, ctx),
             oh = getAffineDimExpr(rank - 1, ctx), w = getAffineDimExpr(rank, ctx);
  exprs.push_back(oh * g.strides[spatial - 2] + kh * g.dilations[spatial - 2]);
  exprs.push_back(w);
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, exprs, ctx),
                                 AffineMap::getMultiDimIdentityMap(loops, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input},
             ValueRange{createEmpty(b, loc, type)}, maps, getIteratorTypes(loops),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// `type` with its dims from `first` on collapsed into one (row-major).
RankedTensorType collapseFrom(RankedTensorType type, int64_t first) {
  SmallVector<int64_t> shape(type.getShape().take_front(first));
  shape.push_back(ShapedType::getNumElements(type.getShape().drop_front(first)));
  return RankedTensorType::get(shape, type.getElementType());
}

/// The accumulator's start, of the grouped `type` (N, G, F/G, ...): the
/// filter's element of `perFilter` (F), or zero.
Value createConvolutionInit(OpBuilder &b, Location loc, RankedTensorType type,
                            Value perFilter) {
  if (!perFilter)
    return createFilled(b, loc, type, 0.0);
  SmallVector<int64_t> broadcastable(type.getRank() - 1, 1);
  broadcastable[0] = type.getDimSize(1);
  broadcastable[1] = type.getDimSize(2);
  Value filters = reshapeTo(
      b, loc, perFilter, RankedTensorType::get(broadcastable, type.getElementType()));
  return createBroadcast(b, loc, type, filters);
}

/// The contraction of a convolution over `maps` (input, weights, output;
/// `reduced` the reduction loops) into `outType`, each step `step`, from the
/// per-filter start, then `epilogue`.
Value createConvolution(OpBuilder &b, Location loc, Value input, Value weights,
                        RankedTensorType outType, Value perFilter,
                        ArrayRef<AffineMap> maps, ArrayRef<int64_t> reduced,
                        WindowStep step, ConvolutionEpilogue epilogue) {
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{outType}, ValueRange{input, weights},
          ValueRange{createConvolutionInit(b, loc, outType, perFilter)}, maps,
          getIteratorTypes(maps.front().getNumDims(), reduced),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, step(nb, l, args[0], args[1], args[2]));
          })
          .getResult(0);
  return epilogue ? epilogue(b, loc, result) : result;
}

/// `data` (G, F', R) as (G, R, F').
template <typename T>
SmallVector<T> transposeFilters(ArrayRef<T> data, int64_t groups,
                                int64_t filters) {
  int64_t rest = data.size() / (groups * filters);
  SmallVector<T> result(data.size());
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t f = 0; f < filters; ++f)
      for (int64_t r = 0; r < rest; ++r)
        result[(g * rest + r) * filters + f] = data[(g * filters + f) * rest + r];
  return result;
}

/// `weights` (G, F/G, C', K...) as (G, C', K..., F/G): transposed at compile
/// time when they are a constant (through reshapes; `dense_resource` blobs,
/// which MLIR's constant folding leaves alone, included), else by a generic
/// copy.
Value transposeFiltersLast(OpBuilder &b, Location loc, Value weights) {
  auto type = cast<RankedTensorType>(weights.getType());
  SmallVector<int64_t> permutation = {0};
  for (int64_t d = 2; d < type.getRank(); ++d)
    permutation.push_back(d);
  permutation.push_back(1);
  SmallVector<int64_t> shape;
  for (int64_t d : permutation)
    shape.push_back(type.getDimSize(d));
  auto resultType = RankedTensorType::get(shape, type.getElementType());

  Value source = weights;
  while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
      source.getDefiningOp()))
    source = source.getDefiningOp()->getOperand(0);
  if (ElementsAttr constant = getConstantValue(source)) {
    int64_t groups = type.getDimSize(0), filters = type.getDimSize(1);
    // Read as float, which holds f32 and f16 exactly.
    if (type.getElementType().isF32() || type.getElementType().isF16())
      if (std::optional<SmallVector<float>> data = getFloatValues(constant))
        return createConstant(b, loc, resultType,
                              transposeFilters<float>(*data, groups, filters));
    if (isa<IntegerType>(type.getElementType()))
      if (std::optional<SmallVector<int64_t>> data = getIntegerValues(constant))
        return createConstant(b, loc, resultType,
                              transposeFilters<int64_t>(*data, groups, filters));
  }

  // Result dim i is weights dim permutation[i]: the weights' map is the
  // inverse permutation.
  MLIRContext *ctx = b.getContext();
  SmallVector<unsigned> inverse(permutation.size());
  for (auto [i, d] : llvm::enumerate(permutation))
    inverse[d] = i;
  SmallVector<AffineMap> maps = {
      AffineMap::getPermutationMap(inverse, ctx),
      AffineMap::getMultiDimIdentityMap(permutation.size(), ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{weights},
             ValueRange{createEmpty(b, loc, resultType)}, maps,
             getIteratorTypes(permutation.size()),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// convolveGrouped for a single output position: loops (n, g, f, c, k...),
/// the input read at `k * dilation`, the weights filter-minor.
Value convolveSinglePosition(OpBuilder &b, Location loc, Value input,
                             Value weights, RankedTensorType resultType,
                             Value perFilter, int64_t group,
                             const WindowGeometry &g, WindowStep step,
                             ConvolutionEpilogue epilogue,
                             bool channelsLastWeights) {
  int64_t spatial = g.kernel.size();
  auto outType = RankedTensorType::get(
      {resultType.getDimSize(0), group, resultType.getDimSize(1) / group},
      resultType.getElementType());
  MLIRContext *ctx = b.getContext();
  int64_t loops = 4 + spatial;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inputExprs = {dim(0), dim(1), dim(3)},
                          weightExprs = {dim(1), dim(3)};
  for (int64_t d = 0; d < spatial; ++d) {
    inputExprs.push_back(dim(4 + d) * g.dilations[d]);
    weightExprs.push_back(dim(4 + d));
  }
  if (channelsLastWeights)
    std::rotate(weightExprs.begin() + 1, weightExprs.begin() + 2, weightExprs.end());
  weightExprs.push_back(dim(2));
  SmallVector<AffineMap> maps = {
      AffineMap::get(loops, 0, inputExprs, ctx),
      AffineMap::get(loops, 0, weightExprs, ctx),
      AffineMap::get(loops, 0, {dim(0), dim(1), dim(2)}, ctx)};
  SmallVector<int64_t> reduced = llvm::to_vector(llvm::seq<int64_t>(3, loops));
  Value result = createConvolution(b, loc, input,
                                   transposeFiltersLast(b, loc, weights), outType,
                                   perFilter, maps, reduced, step, epilogue);
  Type elementType = cast<RankedTensorType>(result.getType()).getElementType();
  return reshapeTo(b, loc, result,
                   RankedTensorType::get(resultType.getShape(), elementType));
}

} // namespace

Value mlir::onnxq::convolveGrouped(OpBuilder &b, Location loc, Value input,
                                   Value weights, RankedTensorType resultType,
                                   Value perFilter, int64_t group,
                                   const WindowGeometry &g, unsigned vectorBits,
                                   WindowStep step, ConvolutionEpilogue epilogue,
                                   bool channelsLastWeights) {
  // One output position per filter (a squeeze-and-excitation convolution
  // after global pooling, a classifier as a convolution): a matrix-vector
  // product, whose only long parallel loop is the filters', so the kernel's
  // vectors run along them.
  int64_t filtersPerGroup = resultType.getDimSize(1) / group;
  if (filtersPerGroup > 1 &&
      llvm::all_of(g.output, [](int64_t size) { return size == 1; }))
    return convolveSinglePosition(b, loc, input, weights, resultType, perFilter,
                                  group, g, step, epilogue, channelsLastWeights);

  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t spatial = g.kernel.size();
  FlatRows flat =
      chooseFlatRows(inputType, resultType, filtersPerGroup, g, vectorBits);
  int64_t pitch = flat.pitch;
  // Spatial dims with a loop of their own: all, or all but the flattened
  // rows and columns.
  int64_t kept = pitch ? spatial - 2 : spatial;

  // The contraction's output (N, G, F/G, O...): flattened, the last two O
  // become the flat positions up to the last row's last real column.
  SmallVector<int64_t> outShape = {resultType.getDimSize(0), group,
                                   resultType.getDimSize(1) / group};
  outShape.append(resultType.getShape().begin() + 2,
                  resultType.getShape().begin() + 2 + kept);
  if (pitch)
    outShape.push_back((g.output[spatial - 2] - 1) * pitch + g.output[spatial - 1]);
  auto outType = RankedTensorType::get(outShape, resultType.getElementType());

  // Loops (n, g, f, o..., c, k...): every tap and input channel accumulates
  // into the same output element, so the kernel keeps its accumulators in
  // registers over the whole window and stores each output once. Flattened,
  // the last two o loops are one, p.
  MLIRContext *ctx = b.getContext();
  int64_t firstChannel = 3 + kept + (pitch ? 1 : 0);
  int64_t loops = firstChannel + 1 + spatial;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  AffineExpr dn = dim(0), dg = dim(1), df = dim(2), dc = dim(firstChannel);
  SlidingWindowMaps maps{/*input=*/{dn, dg, dc}, /*window=*/{dg, df, dc},
                         /*output=*/{dn, dg, df}, /*reduced=*/{firstChannel}};
  maps.appendSpatial(g, /*firstOutputLoop=*/3, /*firstTapLoop=*/firstChannel + 1,
                     ctx, /*outputDims=*/kept);
  if (channelsLastWeights)
    std::rotate(maps.window.begin() + 2, maps.window.begin() + 3, maps.window.end());
  if (pitch) {
    AffineExpr p = dim(3 + kept);
    AffineExpr kh = dim(firstChannel + spatial - 1), kw = dim(firstChannel + spatial);
    // Input elements from one tap row to the next.
    int64_t tapRowStride = g.dilations[spatial - 2] * inputType.getShape().back();
    if (flat.gatheredWidth) {
      input = gatherTapRows(b, loc, input, g, flat.gatheredWidth);
      tapRowStride = g.output[spatial - 2] * flat.gatheredWidth;
    }
    maps.input.push_back(p * g.strides[spatial - 1] + kh * tapRowStride +
                         kw * g.dilations[spatial - 1]);
    maps.output.push_back(p);
    input = reshapeTo(b, loc, input,
                      collapseFrom(cast<RankedTensorType>(input.getType()),
                                   3 + kept));
  }
  Value result =
      createConvolution(b, loc, input, weights, outType, perFilter,
                        maps.getMaps(loops, ctx), maps.reduced, step, epilogue);
  Type elementType = cast<RankedTensorType>(result.getType()).getElementType();
  auto finalType = RankedTensorType::get(resultType.getShape(), elementType);
  if (!pitch)
    return reshapeTo(b, loc, result, finalType);

  // Back to (N, F, O..., OH, Wp) through a tensor as wide as the padded
  // input (its columns past OW are never read), less those columns.
  SmallVector<int64_t> wideShape(resultType.getShape());
  wideShape.back() = pitch;
  auto wideType = RankedTensorType::get(wideShape, elementType);
  SmallVector<int64_t> flatShape(outShape);
  flatShape.back() = g.output[spatial - 2] * pitch;
  auto zeros = [&](int64_t rank) {
    return SmallVector<OpFoldResult>(rank, b.getIndexAttr(0));
  };
  auto ones = [&](int64_t rank) {
    return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
  };
  auto sizesOf = [&](ArrayRef<int64_t> shape) {
    return getAsIndexOpFoldResult(ctx, shape);
  };
  Value wide = createEmpty(b, loc, RankedTensorType::get(flatShape, elementType));
  result = tensor::InsertSliceOp::create(b, loc, result, wide, zeros(outShape.size()),
                                         sizesOf(outShape), ones(outShape.size()));
  result = reshapeTo(b, loc, result, wideType);
  return tensor::ExtractSliceOp::create(b, loc, finalType, result,
                                        zeros(wideShape.size()),
                                        sizesOf(resultType.getShape()),
                                        ones(wideShape.size()));
}

Value mlir::onnxq::convolve(OpBuilder &b, Location loc, Value x, Value w,
                            RankedTensorType resultType, Value perFilter,
                            int64_t group, const WindowGeometry &g,
                            unsigned vectorBits, MultiplyAdd step,
                            ConvolutionEpilogue epilogue) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t n = xType.getDimSize(0), f = wType.getDimSize(0),
          cg = wType.getDimSize(1);
  // Grouped views: input (N, G, C/G, I...), weights (G, F/G, C/G, K...).
  auto grouped = [&](Value v, ArrayRef<int64_t> front, ArrayRef<int64_t> rest) {
    SmallVector<int64_t> shape(front);
    shape.append(rest.begin(), rest.end());
    auto type = cast<RankedTensorType>(v.getType());
    return reshapeTo(b, loc, v, RankedTensorType::get(shape, type.getElementType()));
  };
  Value input = grouped(x, {n, group, cg}, xType.getShape().drop_front(2));
  Value weights = grouped(w, {group, f / group, cg}, wType.getShape().drop_front(2));
  return convolveGrouped(b, loc, input, weights, resultType, perFilter, group, g,
                         vectorBits,
                         [&](OpBuilder &nb, Location l, Value a, Value k,
                             Value acc) { return step.build(nb, l, a, k, acc); },
                         epilogue);
}

void mlir::onnxq::populateConvToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               unsigned vectorBits) {
  patterns.add<ConvPattern>(converter, patterns.getContext(), vectorBits);
}
