//===- Trilu.cpp - Trilu to a masking linalg.generic ----------------------===//
//
// Keeps x[..., i, j] where j - i >= k (upper) or j - i <= k (lower) and
// writes 0 elsewhere; `k` may be a runtime scalar.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct TriluPattern : StaticShapePattern<TriluOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(TriluOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getOutput());
    auto resultType = convertTensorType(type);
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    SmallVector<Value> inputs = {adaptor.getInput()};
    if (adaptor.getK())
      inputs.push_back(reshapeTo(rewriter, loc, adaptor.getK(),
                                 RankedTensorType::get({}, i64)));
    int64_t rank = type.getRank();
    bool upper = op.getUpper() != 0;
    Value result = createElementwise(
        rewriter, loc, resultType, inputs,
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto indexAt = [&](int64_t d) -> Value {
            return arith::IndexCastOp::create(b, l, i64,
                                              linalg::IndexOp::create(b, l, d));
          };
          Value diagonal = arith::SubIOp::create(b, l, indexAt(rank - 1),
                                                 indexAt(rank - 2));
          Value k = args.size() > 1 ? args[1] : createScalar(b, l, i64, 0);
          Value keep = arith::CmpIOp::create(
              b, l, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
              diagonal, k);
          return arith::SelectOp::create(
              b, l, keep, args[0],
              createScalar(b, l, resultType.getElementType(), 0));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnxq::populateTriluToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<TriluPattern>(converter, patterns.getContext());
}
