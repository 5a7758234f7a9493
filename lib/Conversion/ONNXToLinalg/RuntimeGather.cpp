//===- RuntimeGather.cpp - Slice and Pad with runtime parameters ----------===//
//
// The constant forms are tensor.extract_slice/tensor.pad (Tensor.cpp). The
// others have a static result shape but starts/axes/steps or pads known only
// at run time (or negative steps, or edge/reflect padding): per dimension an
// index map is computed from the runtime inputs, and a linalg.generic reads
// the data element by element (tensor.extract).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Element `i` of a 1-D integer tensor as an index.
Value extractIndex(OpBuilder &b, Location loc, Value vector, int64_t i) {
  Value element = tensor::ExtractOp::create(
      b, loc, vector, ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
}

struct SliceGatherPattern : StaticShapePattern<SliceOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(SliceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getOutput());
    RankedTensorType startsType = getTensorType(op.getStarts());
    if (startsType.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "needs 1-D starts");
    Location loc = op.getLoc();
    int64_t rank = inType.getRank(), count = startsType.getDimSize(0);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // starts[i] applies to dim axes[i] (default i), with step steps[i]
    // (default 1). A negative start counts from the end; the start is then
    // clamped to [0, dim] (step > 0) or [0, dim - 1] (step < 0).
    SmallVector<Value> firsts(rank, zero), steps(rank, one);
    for (int64_t i = 0; i < count; ++i) {
      Value start = extractIndex(rewriter, loc, adaptor.getStarts(), i);
      Value step = adaptor.getSteps() ? extractIndex(rewriter, loc, adaptor.getSteps(), i)
                                      : one;
      Value axis = adaptor.getAxes()
                       ? extractIndex(rewriter, loc, adaptor.getAxes(), i)
                       : arith::ConstantIndexOp::create(rewriter, loc, i);
      Value negativeAxis = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                                 axis, zero);
      axis = arith::SelectOp::create(
          rewriter, loc, negativeAxis,
          arith::AddIOp::create(rewriter, loc, axis,
                                arith::ConstantIndexOp::create(rewriter, loc, rank)),
          axis);
      Value negativeStep = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                                 step, zero);
      for (int64_t d = 0; d < rank; ++d) {
        int64_t dim = inType.getDimSize(d);
        Value negativeStart = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, start, zero);
        Value s = arith::SelectOp::create(
            rewriter, loc, negativeStart,
            arith::AddIOp::create(rewriter, loc, start,
                                  arith::ConstantIndexOp::create(rewriter, loc, dim)),
            start);
        s = arith::SelectOp::create(rewriter, loc, negativeStep,
                                    clampIndex(rewriter, loc, s, 0, dim - 1),
                                    clampIndex(rewriter, loc, s, 0, dim));
        Value here = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, axis,
            arith::ConstantIndexOp::create(rewriter, loc, d));
        firsts[d] = arith::SelectOp::create(rewriter, loc, here, s, firsts[d]);
        steps[d] = arith::SelectOp::create(rewriter, loc, here, step, steps[d]);
      }
    }
    auto resultType = convertTensorType(outType);
    Value data = adaptor.getData();
    Value gathered = createFromIndices(
        rewriter, loc, resultType, [&](OpBuilder &b, Location l) -> Value {
          // Clamped: run-time starts or steps that disagree with the
          // compiled output shape must not read outside `data`.
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(clampIndex(
                b, l,
                arith::AddIOp::create(
                    b, l, firsts[d],
                    arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, d),
                                          steps[d])),
                0, inType.getDimSize(d) - 1));
          return tensor::ExtractOp::create(b, l, data, indices);
        });
    rewriter.replaceOp(op, gathered);
    return success();
  }
};

/// Pad: output index o reads data[o - pad_begin], mapped back into range by
/// the mode (edge: clamp; reflect: mirror without repeating the edge; wrap:
/// modulo the dim; constant: the padding value outside).
struct PadGatherPattern : StaticShapePattern<PadOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(PadOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getTensorType(op.getData());
    RankedTensorType outType = getTensorType(op.getOutput());
    StringRef mode = op.getMode();
    if (inType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "nothing to pad");
    if (mode != "constant" && mode != "edge" && mode != "reflect" &&
        mode != "wrap")
      return rewriter.notifyMatchFailure(op, "unknown mode");
    int64_t rank = inType.getRank();
    // One reflection covers pads up to dim - 1 on each side; of runtime
    // pads only the total (out - in) is known.
    if (mode == "reflect") {
      std::optional<SmallVector<int64_t>> pads = getConstantIntegers(op.getPads());
      for (int64_t d = 0; d < rank; ++d) {
        int64_t limit = inType.getDimSize(d) - 1;
        bool fits = pads ? (*pads)[d] <= limit && (*pads)[d + rank] <= limit
                         : outType.getDimSize(d) - inType.getDimSize(d) <= limit;
        if (!fits)
          return rewriter.notifyMatchFailure(op, "reflect pads must be smaller than the dim");
      }
    }
    Location loc = op.getLoc();
    SmallVector<Value> begins;
    for (int64_t d = 0; d < rank; ++d)
      begins.push_back(extractIndex(rewriter, loc, adaptor.getPads(), d));
    auto resultType = convertTensorType(outType);
    Type elementType = resultType.getElementType();
    Value padValue;
    if (mode == "constant")
      padValue = adaptor.getConstantValue()
                     ? Value(tensor::ExtractOp::create(
                           rewriter, loc,
                           reshapeTo(rewriter, loc, adaptor.getConstantValue(),
                                     RankedTensorType::get({}, elementType)),
                           ValueRange{}))
                     : createScalar(rewriter, loc, elementType, 0);
    Value data = adaptor.getData();
    Value gathered = createFromIndices(
        rewriter, loc, resultType, [&](OpBuilder &b, Location l) -> Value {
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value inside = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t last = inType.getDimSize(d) - 1;
            Value i = arith::SubIOp::create(b, l, linalg::IndexOp::create(b, l, d),
                                            begins[d]);
            if (mode == "reflect") {
              // -i below 0, 2 * last - i above the last index.
              Value below = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, zero);
              i = arith::SelectOp::create(b, l, below, arith::SubIOp::create(b, l, zero, i), i);
              Value above = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sgt, i,
                  arith::ConstantIndexOp::create(b, l, last));
              i = arith::SelectOp::create(
                  b, l, above,
                  arith::SubIOp::create(b, l,
                                        arith::ConstantIndexOp::create(b, l, 2 * last), i),
                  i);
            } else if (mode == "wrap") {
              // i mod dim, in [0, dim) for negative i too.
              Value dim = arith::ConstantIndexOp::create(b, l, last + 1);
              Value r = arith::RemSIOp::create(b, l, i, dim);
              Value negative =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero);
              i = arith::SelectOp::create(b, l, negative,
                                          arith::AddIOp::create(b, l, r, dim), r);
            } else if (mode == "constant") {
              Value ok = arith::AndIOp::create(
                  b, l,
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, i, zero),
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, i,
                                        arith::ConstantIndexOp::create(b, l, last)));
              inside = arith::AndIOp::create(b, l, inside, ok);
            }
            // Edge clamps; constant reads in bounds and then selects.
            indices.push_back(clampIndex(b, l, i, 0, last));
          }
          Value v = tensor::ExtractOp::create(b, l, data, indices);
          if (padValue)
            v = arith::SelectOp::create(b, l, inside, v, padValue);
          return v;
        });
    rewriter.replaceOp(op, gathered);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateRuntimeGatherToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  // Below the extract_slice/tensor.pad patterns of the constant forms.
  patterns.add<SliceGatherPattern, PadGatherPattern>(
      converter, patterns.getContext(), /*benefit=*/0);
}
