//===- Matchers.cpp - Q/DQ ops the QDQ rewrites can take ------------------===//

#include "Matchers.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

using namespace mlir;
using namespace mlir::onnxq;

DequantizeLinearOp mlir::onnxq::getDequantize(Value value, bool allowPerAxis) {
  auto dq = value.getDefiningOp<DequantizeLinearOp>();
  if (!dq || !getConstantValue(dq.getXScale()) ||
      (dq.getXZeroPoint() && !getConstantValue(dq.getXZeroPoint())))
    return nullptr;
  auto scaleType = cast<ShapedType>(dq.getXScale().getType());
  if (!allowPerAxis && (!scaleType.hasStaticShape() || scaleType.getNumElements() != 1))
    return nullptr;
  return dq;
}

bool mlir::onnxq::isPerTensorQuantize(QuantizeLinearOp q) {
  auto scaleType = cast<ShapedType>(q.getYScale().getType());
  return scaleType.hasStaticShape() && scaleType.getNumElements() == 1 &&
         getConstantValue(q.getYScale()) &&
         (!q.getYZeroPoint() || getConstantValue(q.getYZeroPoint()));
}
