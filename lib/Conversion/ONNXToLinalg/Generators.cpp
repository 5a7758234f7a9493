//===- Generators.cpp - tensors generated from shapes and scalars ---------===//
//
// ConstantOfShape (a fill), Range (start + i * delta from the index) and
// Expand (a broadcast). Their shapes come from constants (often computed from
// other shapes and folded by the importer), so the result types are static;
// small results are folded before they get here.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct ConstantOfShapePattern : StaticShapePattern<ConstantOfShapeOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ConstantOfShapeOp op, OpAdaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto resultType = convertTensorType(getTensorType(op.getOutput()));
    Type elementType = resultType.getElementType();
    TypedAttr fill = getScalarAttr(elementType, 0.0);
    if (std::optional<ElementsAttr> value = op.getValue()) {
      if (auto ints = getIntegerValues(*value))
        fill = IntegerAttr::get(elementType, (*ints)[0]);
      else if (auto floats = getFloatValues(*value))
        fill = getScalarAttr(elementType, (*floats)[0]);
      else
        return rewriter.notifyMatchFailure(op, "unreadable value");
    }
    rewriter.replaceOp(op, createFilled(rewriter, op.getLoc(), resultType, fill));
    return success();
  }
};

struct RangePattern : StaticShapePattern<RangeOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(RangeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto resultType = convertTensorType(getTensorType(op.getOutput()));
    Type elementType = resultType.getElementType();
    Location loc = op.getLoc();
    auto scalar = [&](Value v) {
      return reshapeTo(rewriter, loc, v, RankedTensorType::get({}, elementType));
    };
    Value result = createElementwise(
        rewriter, loc, resultType, {scalar(adaptor.getStart()), scalar(adaptor.getDelta())},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value index = linalg::IndexOp::create(b, l, 0);
          if (isa<FloatType>(elementType)) {
            Value i = arith::UIToFPOp::create(
                b, l, elementType,
                arith::IndexCastUIOp::create(b, l, b.getI64Type(), index));
            return arith::AddFOp::create(
                b, l, args[0], arith::MulFOp::create(b, l, i, args[1]));
          }
          Value i = arith::IndexCastOp::create(b, l, elementType, index);
          return arith::AddIOp::create(b, l, args[0],
                                       arith::MulIOp::create(b, l, i, args[1]));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandPattern : StaticShapePattern<ExpandOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(ExpandOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto resultType = convertTensorType(getTensorType(op.getOutput()));
    rewriter.replaceOp(op, createBroadcast(rewriter, op.getLoc(), resultType,
                                           adaptor.getInput()));
    return success();
  }
};

} // namespace

void mlir::onnxq::populateGeneratorsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstantOfShapePattern, RangePattern, ExpandPattern>(
      converter, patterns.getContext());
}
