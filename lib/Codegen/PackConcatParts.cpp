//===- PackConcatParts.cpp - pack a concatenation's parts on their own ----===//
//
// A convolution that reads 8-bit channel words (vpdpbusd) after a Concat
// along channels (SqueezeNet's Fire modules, Inception blocks) packs the
// concatenation: the parts are written into it, read back and packed, two
// passes over memory. Packed part by part, into the words' slices, each
// part's packing reads only its producer's result, which the contraction
// kernels then store as words themselves (ChannelWords.h): the
// concatenation, its copies and its packing go.
//
//===----------------------------------------------------------------------===//

#include "ChannelWords.h"

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_PACKCONCATPARTSPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;

namespace {

/// A part of a concatenation: `source` at `offset` along its dimension.
struct ConcatPart {
  Value source;
  int64_t offset, size;
};

/// The parts of `value` when it is a concatenation along `dim`: a chain of
/// insert_slices, each the only use of the one it inserts into, whose
/// static unit-stride sources cover the result whole, each all of it but
/// along `dim`. Sorted by offset; none otherwise.
std::optional<SmallVector<ConcatPart>> getConcatParts(Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<ConcatPart> parts;
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    if ((!parts.empty() && !insert->hasOneUse()) ||
        insert.getSourceType().getRank() != type.getRank() ||
        !llvm::all_of(insert.getStaticStrides(), [](int64_t s) { return s == 1; }))
      return std::nullopt;
    for (auto [d, offset, size] : llvm::enumerate(insert.getStaticOffsets(),
                                                  insert.getStaticSizes()))
      if (d != static_cast<size_t>(dim) &&
          (offset != 0 || size != type.getDimSize(d)))
        return std::nullopt;
    int64_t offset = insert.getStaticOffsets()[dim];
    int64_t size = insert.getStaticSizes()[dim];
    if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(size))
      return std::nullopt;
    parts.push_back({insert.getSource(), offset, size});
    value = insert.getDest();
  }
  llvm::sort(parts, [](const ConcatPart &a, const ConcatPart &b) {
    return a.offset < b.offset;
  });
  int64_t covered = 0;
  for (const ConcatPart &part : parts) {
    if (part.offset != covered)
      return std::nullopt;
    covered += part.size;
  }
  if (parts.size() < 2 || covered != type.getDimSize(dim))
    return std::nullopt;
  return parts;
}

/// The offsets, sizes and strides of the slice of a tensor of `shape` that
/// takes every `step`-th element from `first` along `dim` (`size` of them),
/// all of the other dimensions.
struct SliceAlong {
  SmallVector<OpFoldResult> offsets, sizes, strides;

  SliceAlong(Builder &b, ArrayRef<int64_t> shape, int64_t dim, int64_t first,
             int64_t size, int64_t step)
      : offsets(shape.size(), b.getIndexAttr(0)),
        strides(shape.size(), b.getIndexAttr(1)) {
    for (int64_t extent : shape)
      sizes.push_back(b.getIndexAttr(extent));
    offsets[dim] = b.getIndexAttr(first);
    sizes[dim] = b.getIndexAttr(size);
    strides[dim] = b.getIndexAttr(step);
  }
};

/// pack(concat(a, b, ...)) -> concat(pack(a), pack(b), ...) along the
/// words' channel groups, when every part starts and ends at a multiple of 4
/// channels. The packing's inputs are its source's channels 4g + byte
/// (extract_slices of stride 4), the source the concatenation itself or
/// a reshape of it that only adds unit dimensions around the channels.
struct PackConcatParts : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp pack,
                                PatternRewriter &rewriter) const override {
    std::optional<std::array<unsigned, 4>> bytes = onnxq::getChannelWordBytes(pack);
    if (!bytes || !pack.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(pack, "not a packing into channel words");
    // Byte b of word g is element 4g + b along one dimension of the source.
    Value source;
    std::optional<int64_t> channelDim;
    for (auto [byte, input] : llvm::enumerate(*bytes)) {
      auto slice = pack.getDpsInputs()[input].getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice || !slice->hasOneUse() || (source && slice.getSource() != source))
        return rewriter.notifyMatchFailure(pack, "inputs not slices of one tensor");
      source = slice.getSource();
      auto sourceType = slice.getSourceType();
      if (slice.getResultType().getRank() != sourceType.getRank())
        return failure();
      for (int64_t d = 0, e = sourceType.getRank(); d < e; ++d) {
        int64_t offset = slice.getStaticOffsets()[d];
        int64_t size = slice.getStaticSizes()[d];
        int64_t stride = slice.getStaticStrides()[d];
        bool channels = stride == 4 && offset == static_cast<int64_t>(byte) &&
                        size * 4 == sourceType.getDimSize(d);
        if (channels && (!channelDim || *channelDim == d))
          channelDim = d;
        else if (offset != 0 || stride != 1 || size != sourceType.getDimSize(d))
          return rewriter.notifyMatchFailure(pack, "not a slice of channel bytes");
      }
    }
    if (!channelDim || std::distance(source.use_begin(), source.use_end()) != 4)
      return failure();
    // Through a reshape that only adds unit dimensions beside the channels.
    Value concat = source;
    int64_t concatDim = *channelDim;
    auto expand = source.getDefiningOp<tensor::ExpandShapeOp>();
    if (expand) {
      if (!expand.getSrcType().hasStaticShape() || !expand.getSrc().hasOneUse())
        return failure();
      concat = expand.getSrc();
      for (auto [group, dims] : llvm::enumerate(expand.getReassociationIndices())) {
        if (!llvm::is_contained(dims, *channelDim))
          continue;
        concatDim = group;
        for (int64_t d : dims)
          if (d != *channelDim && expand.getResultType().getDimSize(d) != 1)
            return rewriter.notifyMatchFailure(pack, "reshape splits the channels");
      }
    }
    std::optional<SmallVector<ConcatPart>> parts = getConcatParts(concat, concatDim);
    if (!parts || llvm::any_of(*parts, [](const ConcatPart &part) {
          return part.offset % 4 != 0 || part.size % 4 != 0;
        }))
      return rewriter.notifyMatchFailure(pack, "not a concatenation of whole words");

    Location loc = pack.getLoc();
    auto sourceType = cast<RankedTensorType>(source.getType());
    Value words = pack.getDpsInits()[0];
    auto wordType = cast<RankedTensorType>(words.getType()).getElementType();
    for (const ConcatPart &part : *parts) {
      SmallVector<int64_t> partShape(sourceType.getShape());
      partShape[*channelDim] = part.size;
      Value partSource = part.source;
      if (expand)
        partSource = tensor::ExpandShapeOp::create(
            rewriter, loc, RankedTensorType::get(partShape, sourceType.getElementType()),
            partSource, expand.getReassociationIndices());
      SmallVector<Value> inputs(4);
      for (auto [byte, input] : llvm::enumerate(*bytes)) {
        SliceAlong bytesOf(rewriter, partShape, *channelDim, byte, part.size / 4, 4);
        inputs[input] = tensor::ExtractSliceOp::create(
            rewriter, loc, partSource, bytesOf.offsets, bytesOf.sizes, bytesOf.strides);
      }
      SmallVector<int64_t> partWordShape(partShape);
      partWordShape[*channelDim] = part.size / 4;
      Value init = tensor::EmptyOp::create(rewriter, loc, partWordShape, wordType);
      auto partPack = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init},
          pack.getIndexingMapsArray(), pack.getIteratorTypesArray());
      rewriter.cloneRegionBefore(pack.getRegion(), partPack.getRegion(),
                                 partPack.getRegion().end());
      SliceAlong slot(rewriter, partWordShape, *channelDim, part.offset / 4, part.size / 4, 1);
      words = tensor::InsertSliceOp::create(rewriter, loc, partPack.getResult(0), words,
                                            slot.offsets, slot.sizes, slot.strides);
    }
    rewriter.replaceOp(pack, words);
    return success();
  }
};

struct PackConcatPartsPass
    : onnxq::impl::PackConcatPartsPassBase<PackConcatPartsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PackConcatParts>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
