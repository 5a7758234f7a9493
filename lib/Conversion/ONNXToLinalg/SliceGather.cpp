//===- SliceGather.cpp - Slice with runtime bounds or negative steps ------===//
//
// The constant, positive-step Slice is a tensor.extract_slice (Tensor.cpp).
// Every other Slice has a static result shape but starts, axes or steps known
// only at run time (or negative steps): per dimension, the first index and
// the step are computed from the runtime inputs with ONNX's clamping rules,
// and a linalg.generic reads data[start + i * step] element by element.
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

Value clampIndex(OpBuilder &b, Location loc, Value v, int64_t lo, int64_t hi) {
  v = arith::MaxSIOp::create(b, loc, v, arith::ConstantIndexOp::create(b, loc, lo));
  return arith::MinSIOp::create(b, loc, v, arith::ConstantIndexOp::create(b, loc, hi));
}

struct SliceGatherPattern : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = getStaticType(op.getData());
    RankedTensorType outType = getStaticType(op.getOutput());
    RankedTensorType startsType = getStaticType(op.getStarts());
    if (!inType || !outType || !startsType || startsType.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
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
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(outType));
    Value data = adaptor.getData();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{},
        ValueRange{createEmpty(rewriter, loc, resultType)},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getIteratorTypes(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(arith::AddIOp::create(
                b, l, firsts[d],
                arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, d),
                                      steps[d])));
          linalg::YieldOp::create(
              b, l, Value(tensor::ExtractOp::create(b, l, data, indices)));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateSliceGatherToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  // Below the extract_slice pattern of constant bounds.
  patterns.add<SliceGatherPattern>(converter, patterns.getContext(),
                                   /*benefit=*/0);
}
