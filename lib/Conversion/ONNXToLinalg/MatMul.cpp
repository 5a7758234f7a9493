//===- MatMul.cpp - onnx.Gemm and onnx.MatMul to linalg contractions ------===//
//
// Both become one `linalg.generic` contraction whose indexing maps encode the
// transposes (Gemm) and the batch broadcasting (MatMul), so no transposed
// copy of a weight is ever made. Later kernel stages specialize them.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct GemmPattern : StaticShapePattern<GemmOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(GemmOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType yType = getTensorType(op.getY());
    if (!isa<FloatType>(yType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float Gemm only");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
               k = getAffineDimExpr(2, ctx);
    // Constant weights stored (N, K) are transposed once, at compile time,
    // so the innermost loop (over N) reads them contiguously.
    Value b = adaptor.getB();
    bool transB = op.getTransB();
    if (transB) {
      std::optional<SmallVector<float>> data;
      if (getElementTypeOrSelf(op.getB()).isF32())
        data = getConstantFloats(op.getB());
      if (data) {
        auto bType = cast<RankedTensorType>(op.getB().getType());
        int64_t rows = bType.getDimSize(0), cols = bType.getDimSize(1);
        SmallVector<float> transposed(data->size());
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            transposed[c * rows + r] = (*data)[r * cols + c];
        b = createConstant(
            rewriter, loc,
            RankedTensorType::get({cols, rows}, bType.getElementType()),
            transposed);
        transB = false;
      }
    }
    AffineMap aMap = AffineMap::get(3, 0, op.getTransA() ? ArrayRef{k, m} : ArrayRef{m, k}, ctx);
    AffineMap bMap = AffineMap::get(3, 0, transB ? ArrayRef{n, k} : ArrayRef{k, n}, ctx);
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    Value c = beta != 0.0 ? adaptor.getC() : Value();
    Type elementType = yType.getElementType();
    auto scaled = [&](OpBuilder &b, Location l, Value v, double factor) {
      return factor == 1.0 ? v
                           : Value(arith::MulFOp::create(
                                 b, l, v, createScalar(b, l, elementType, factor)));
    };
    Value init;
    if (c && alpha == 1.0)
      init = createElementwise(rewriter, loc, yType, c,
                               [&](OpBuilder &b, Location l, ValueRange args) {
                                 return scaled(b, l, args[0], beta);
                               });
    else
      init = createFilled(rewriter, loc, yType, 0.0);
    Value result = createContraction(rewriter, loc, adaptor.getA(), b, init,
                                     aMap, bMap);
    if (alpha != 1.0) {
      SmallVector<Value> inputs = {result};
      if (c)
        inputs.push_back(c);
      result = createElementwise(
          rewriter, loc, yType, inputs, [&](OpBuilder &b, Location l, ValueRange args) {
            Value v = scaled(b, l, args[0], alpha);
            return c ? Value(arith::AddFOp::create(b, l, v, scaled(b, l, args[1], beta)))
                     : v;
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MatMulPattern : StaticShapePattern<MatMulOp> {
  using StaticShapePattern::StaticShapePattern;
  LogicalResult
  matchAndRewriteStatic(MatMulOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = getTensorType(op.getA());
    RankedTensorType bType = getTensorType(op.getB());
    RankedTensorType yType = getTensorType(op.getY());
    if (!isa<FloatType>(yType.getElementType()))
      return rewriter.notifyMatchFailure(op, "float MatMul only");
    Location loc = op.getLoc();
    Type elementType = yType.getElementType();
    // Vectors become matrices: A (K) -> (1, K), B (K) -> (K, 1).
    SmallVector<int64_t> aShape(aType.getShape()), bShape(bType.getShape());
    if (aShape.size() == 1)
      aShape.insert(aShape.begin(), 1);
    if (bShape.size() == 1)
      bShape.push_back(1);
    Value a = reshapeTo(rewriter, loc, adaptor.getA(),
                        RankedTensorType::get(aShape, elementType));
    Value b = reshapeTo(rewriter, loc, adaptor.getB(),
                        RankedTensorType::get(bShape, elementType));
    int64_t batchRank = std::max(aShape.size(), bShape.size()) - 2;
    SmallVector<int64_t> outShape;
    for (int64_t i = 0; i < batchRank; ++i) {
      auto dimOf = [&](ArrayRef<int64_t> s) {
        int64_t j = i - (batchRank - int64_t(s.size() - 2));
        return j >= 0 ? s[j] : 1;
      };
      outShape.push_back(std::max(dimOf(aShape), dimOf(bShape)));
    }
    int64_t m = aShape[aShape.size() - 2], n = bShape.back();
    outShape.append({m, n});
    MLIRContext *ctx = rewriter.getContext();
    int64_t loops = batchRank + 3;
    // Batch dims of size 1 that broadcast are dropped from the operand, so
    // every map is a projected permutation.
    auto operandMap = [&](Value &operand, ArrayRef<int64_t> shape, AffineExpr row,
                          AffineExpr col) {
      SmallVector<AffineExpr> exprs;
      SmallVector<int64_t> kept;
      int64_t offset = batchRank - int64_t(shape.size() - 2);
      for (int64_t j = 0; j < int64_t(shape.size()) - 2; ++j) {
        if (shape[j] == 1 && outShape[j + offset] != 1)
          continue;
        exprs.push_back(getAffineDimExpr(j + offset, ctx));
        kept.push_back(shape[j]);
      }
      kept.append({shape[shape.size() - 2], shape.back()});
      operand = reshapeTo(rewriter, loc, operand,
                          RankedTensorType::get(kept, elementType));
      exprs.append({row, col});
      return AffineMap::get(loops, 0, exprs, ctx);
    };
    AffineExpr mExpr = getAffineDimExpr(batchRank, ctx),
               nExpr = getAffineDimExpr(batchRank + 1, ctx),
               kExpr = getAffineDimExpr(batchRank + 2, ctx);
    auto outType = RankedTensorType::get(outShape, elementType);
    AffineMap aMap = operandMap(a, aShape, mExpr, kExpr);
    AffineMap bMap = operandMap(b, bShape, kExpr, nExpr);
    Value result = createContraction(
        rewriter, loc, a, b, createFilled(rewriter, loc, outType, 0.0), aMap, bMap);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, result, yType));
    return success();
  }
};

} // namespace

Value mlir::onnxq::MultiplyAdd::build(OpBuilder &b, Location loc, Value lhs,
                                      Value rhs, Value acc) const {
  Type accType = acc.getType();
  if (isa<FloatType>(accType))
    return arith::AddFOp::create(b, loc, acc, arith::MulFOp::create(b, loc, lhs, rhs));
  auto extend = [&](Value v, bool isUnsigned) -> Value {
    if (v.getType() == accType)
      return v;
    return isUnsigned ? Value(arith::ExtUIOp::create(b, loc, accType, v))
                      : Value(arith::ExtSIOp::create(b, loc, accType, v));
  };
  Value product = arith::MulIOp::create(b, loc, extend(lhs, lhsUnsigned),
                                        extend(rhs, rhsUnsigned));
  return arith::AddIOp::create(b, loc, acc, product);
}

Value mlir::onnxq::createContraction(OpBuilder &b, Location loc, Value lhs,
                                     Value rhs, Value init, AffineMap lhsMap,
                                     AffineMap rhsMap, MultiplyAdd step) {
  auto initType = cast<RankedTensorType>(init.getType());
  int64_t loops = initType.getRank() + 1;
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < loops - 1; ++d)
    outExprs.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {lhsMap, rhsMap,
                                 AffineMap::get(loops, 0, outExprs, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{initType}, ValueRange{lhs, rhs}, ValueRange{init},
             maps, getIteratorTypes(loops, {loops - 1}),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l,
                                       step.build(nb, l, args[0], args[1], args[2]));
             })
      .getResult(0);
}

void mlir::onnxq::populateMatMulToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<GemmPattern, MatMulPattern>(converter, patterns.getContext());
}
