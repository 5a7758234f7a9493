//===- Einsum.cpp - onnx.Einsum to one linalg.generic ---------------------===//
//
// One loop per label of the equation: the result's labels first (parallel),
// then the summed ones (reduction). Each input is read at its labels' loops
// (a repeated label, as in "ii->i", reads the diagonal; a broadcast axis of
// size 1 reads index 0), and the body adds the inputs' product.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/EinsumEquation.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct EinsumPattern : StaticShapePattern<EinsumOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(EinsumOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> ranks;
    for (Value input : op.getInputs())
      ranks.push_back(getTensorType(input).getRank());
    std::string error;
    FailureOr<EinsumEquation> eq =
        parseEinsumEquation(op.getEquation(), ranks, error);
    if (failed(eq))
      return rewriter.notifyMatchFailure(op, error);
    // Loops: the result's labels, then the others in order of appearance.
    SmallVector<int> loopOf(eq->numLabels, -1);
    SmallVector<int64_t> extent;
    auto resultType = convertTensorType(getTensorType(op.getOutput()));
    for (auto [axis, label] : llvm::enumerate(eq->result)) {
      loopOf[label] = axis;
      extent.push_back(resultType.getDimSize(axis));
    }
    int64_t parallel = extent.size();
    for (auto [input, labels] : llvm::zip(op.getInputs(), eq->operands))
      for (auto [dim, label] : llvm::zip(getTensorType(input).getShape(), labels)) {
        if (loopOf[label] < 0) {
          loopOf[label] = extent.size();
          extent.push_back(dim);
        } else if (extent[loopOf[label]] == 1) {
          extent[loopOf[label]] = dim;
        }
      }
    int64_t loops = extent.size();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps;
    for (auto [input, labels] : llvm::zip(op.getInputs(), eq->operands)) {
      SmallVector<AffineExpr> exprs;
      for (auto [dim, label] : llvm::zip(getTensorType(input).getShape(), labels))
        exprs.push_back(dim == 1 && extent[loopOf[label]] != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(loopOf[label], ctx));
      maps.push_back(AffineMap::get(loops, 0, exprs, ctx));
    }
    SmallVector<AffineExpr> resultExprs;
    for (int64_t d = 0; d < parallel; ++d)
      resultExprs.push_back(getAffineDimExpr(d, ctx));
    maps.push_back(AffineMap::get(loops, 0, resultExprs, ctx));
    SmallVector<int64_t> reduced;
    for (int64_t d = parallel; d < loops; ++d)
      reduced.push_back(d);
    Type elementType = resultType.getElementType();
    bool isFloat = isa<FloatType>(elementType);
    Location loc = op.getLoc();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, adaptor.getInputs(),
        ValueRange{createFilled(rewriter, loc, resultType, 0.0)}, maps,
        getIteratorTypes(loops, reduced),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = args[0];
          for (Value v : args.drop_front().drop_back())
            product = isFloat ? Value(arith::MulFOp::create(b, l, product, v))
                              : Value(arith::MulIOp::create(b, l, product, v));
          Value acc = args.back();
          linalg::YieldOp::create(
              b, l, isFloat ? Value(arith::AddFOp::create(b, l, acc, product))
                            : Value(arith::AddIOp::create(b, l, acc, product)));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateEinsumToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<EinsumPattern>(converter, patterns.getContext());
}
