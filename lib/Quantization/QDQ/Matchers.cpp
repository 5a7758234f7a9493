//===- Matchers.cpp - Q/DQ ops the QDQ rewrites can take ------------------===//

#include "Matchers.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

DequantizeLinearOp mlir::onnxq::getDequantize(Value value, bool allowPerAxis) {
  auto dq = value.getDefiningOp<DequantizeLinearOp>();
  // 16-bit QDQ has no integer kernels (no QLinear op takes it): it stays
  // float arithmetic between a Quantize and Dequantize.
  // Blocked scales (block_size) have no QLinear form either.
  if (!dq || getElementTypeOrSelf(dq.getX().getType()).isInteger(16) ||
      dq.getBlockSize() != 0 ||
      !getConstantValue(dq.getXScale()) ||
      (dq.getXZeroPoint() && !getConstantValue(dq.getXZeroPoint())))
    return nullptr;
  auto scaleType = cast<ShapedType>(dq.getXScale().getType());
  if (!allowPerAxis && (!scaleType.hasStaticShape() || scaleType.getNumElements() != 1))
    return nullptr;
  return dq;
}

bool mlir::onnxq::isPerTensorQuantize(QuantizeLinearOp q) {
  auto scaleType = cast<ShapedType>(q.getYScale().getType());
  return getElementTypeOrSelf(q.getY().getType()).isInteger(8) &&
         scaleType.hasStaticShape() && scaleType.getNumElements() == 1 &&
         getConstantValue(q.getYScale()) &&
         (!q.getYZeroPoint() || getConstantValue(q.getYZeroPoint()));
}
