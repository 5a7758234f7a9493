//===- QuantOps.cpp - QDQ and QOperator ops -------------------------------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

LogicalResult QuantizeLinearOp::verify() {
  if (failed(verifyInt8Or16Element(*this, getY(), "a result")))
    return failure();
  if (getYZeroPoint() &&
      failed(verifySameElementType(*this, getYZeroPoint(), "y_zero_point",
                                   getY(), "the result")))
    return failure();
  return verifyQuantParams(*this, getX(), getYScale(), getYZeroPoint(),
                           getAxis());
}

LogicalResult QLinearConcatOp::verify() {
  OperandRange inputs = getInputs();
  if (inputs.empty() || inputs.size() % 3 != 0)
    return emitOpError() << "expects (tensor, scale, zero point) triples, got "
                         << inputs.size() << " inputs";
  Type elementType = getElementTypeOrSelf(getY().getType());
  SmallVector<Value> data;
  for (size_t i = 0; i < inputs.size(); i += 3)
    data.push_back(inputs[i]);
  if (failed(verifyConcatShapes(*this, data, getAxis(), getY())))
    return failure();
  for (size_t i = 0; i < inputs.size(); i += 3)
    if (getElementTypeOrSelf(inputs[i].getType()) != elementType ||
        getElementTypeOrSelf(inputs[i + 2].getType()) != elementType)
      return emitOpError() << "expects input " << i / 3
                           << " and its zero point of the result's element "
                              "type "
                           << elementType << ", got " << inputs[i].getType()
                           << " and " << inputs[i + 2].getType();
  return verifyInt8Or16Element(*this, getY(), "a result");
}

LogicalResult DynamicQuantizeLinearOp::verify() {
  if (!getElementTypeOrSelf(getX().getType()).isF32())
    return emitOpError() << "expects an f32 input, got " << getX().getType();
  auto u8 = IntegerType::get(getContext(), 8, IntegerType::Unsigned);
  for (auto [value, name] : {std::pair{getY(), "y"},
                             std::pair{getYZeroPoint(), "y_zero_point"}})
    if (getElementTypeOrSelf(value.getType()) != u8)
      return emitOpError() << "expects " << name << " of ui8, got "
                           << value.getType();
  if (!getElementTypeOrSelf(getYScale().getType()).isF32())
    return emitOpError() << "expects y_scale of f32, got "
                         << getYScale().getType();
  for (Value scalar : {getYScale(), getYZeroPoint()})
    if (auto ranked = dyn_cast<RankedTensorType>(scalar.getType());
        ranked && ranked.getRank() != 0)
      return emitOpError() << "expects a rank-0 y_scale and y_zero_point, got "
                           << scalar.getType();
  return success();
}

/// block_size > 0: the scale has x's rank and one entry per block along the
/// axis.
static LogicalResult verifyBlockedParams(DequantizeLinearOp op) {
  int64_t block = op.getBlockSize();
  if (block < 0)
    return op.emitOpError() << "expects a positive block_size, got " << block;
  auto scaleType = dyn_cast<ShapedType>(op.getXScale().getType());
  if (op.getXZeroPoint() && scaleType &&
      op.getXZeroPoint().getType() !=
          scaleType.clone(getElementTypeOrSelf(op.getX().getType())))
    return op.emitOpError() << "expects a zero point of the scale's shape, got "
                         << op.getXZeroPoint().getType();
  std::optional<int64_t> rank = getRank(op.getX());
  std::optional<int64_t> scaleRank = getRank(op.getXScale());
  if (!rank || !scaleRank)
    return success();
  if (*scaleRank != *rank)
    return op.emitOpError() << "expects a blocked scale of x's rank " << *rank
                         << ", got rank " << *scaleRank;
  if (failed(verifyAxis(op, op.getAxis(), *rank)))
    return failure();
  int64_t axis = normalizeAxis(op.getAxis(), *rank);
  for (int64_t d = 0; d < *rank; ++d) {
    std::optional<int64_t> dim = getStaticDim(op.getX(), d);
    std::optional<int64_t> scaleDim = getStaticDim(op.getXScale(), d);
    if (!dim || !scaleDim)
      continue;
    int64_t expected = d == axis ? llvm::divideCeil(*dim, block) : *dim;
    if (*scaleDim != expected)
      return op.emitOpError() << "expects a blocked scale with dimension " << d
                           << " of " << expected << " (block_size " << block
                           << " along axis " << axis << "), got " << *scaleDim;
  }
  return success();
}

LogicalResult DequantizeLinearOp::verify() {
  auto xType = dyn_cast<IntegerType>(getElementTypeOrSelf(getX().getType()));
  if (!xType || xType.isSigned() ||
      !llvm::is_contained({4u, 8u, 16u, 32u}, xType.getWidth()))
    return emitOpError() << "expects x with i4, ui4, i8, ui8, i16, ui16 or "
                            "i32 elements, got "
                         << getX().getType();
  if (!isa<FloatType>(getElementTypeOrSelf(getY().getType())))
    return emitOpError() << "expects a floating-point result, got "
                         << getY().getType();
  if (getXZeroPoint() &&
      failed(verifySameElementType(*this, getXZeroPoint(), "x_zero_point",
                                   getX(), "x")))
    return failure();
  if (getBlockSize() != 0)
    return verifyBlockedParams(*this);
  return verifyQuantParams(*this, getX(), getXScale(), getXZeroPoint(),
                           getAxis());
}


/// Each (data, scale, zero point) triple of a QLinear op: 8-bit data, a
/// zero point of the data's element type.
static LogicalResult verifyQuantizedOperand(Operation *op, Value data,
                                            StringRef name, Value zeroPoint) {
  if (failed(verifyInt8Element(op, data, name)))
    return failure();
  if (zeroPoint && failed(verifySameElementType(op, zeroPoint, "its zero point",
                                                data, name)))
    return failure();
  return success();
}

LogicalResult QLinearConvOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getX(), "x", getXZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getW(), "w", getWZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getY(), "y", getYZeroPoint())) ||
      failed(verifyScalar(*this, getXScale(), "x_scale")) ||
      failed(verifyScalar(*this, getYScale(), "y_scale")) ||
      failed(verifyQuantParams(*this, getW(), getWScale(), getWZeroPoint(), 0)))
    return failure();
  WindowAttrs window = getWindowAttrs(*this);
  return verifyConvolution(*this, getX(), getW(), getGroup(), window);
}

LogicalResult QLinearMatMulOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getA(), "a", getAZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getB(), "b", getBZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getY(), "y", getYZeroPoint())) ||
      failed(verifyScalar(*this, getAScale(), "a_scale")) ||
      failed(verifyScalar(*this, getYScale(), "y_scale")))
    return failure();
  return success();
}

LogicalResult QLinearAddOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getA(), "A", getAZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getB(), "B", getBZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getC(), "C", getCZeroPoint())))
    return failure();
  const StringRef names[] = {"A_scale", "B_scale", "C_scale"};
  Value values[] = {getAScale(), getBScale(), getCScale()};
  for (auto [scale, name] : llvm::zip(values, names))
    if (failed(verifyScalar(*this, scale, name)))
      return failure();
  return verifyBroadcastable(*this, getA(), getB());
}

LogicalResult QLinearGlobalAveragePoolOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getX(), "X", getXZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getY(), "Y", getYZeroPoint())))
    return failure();
  if (getChannelsLast() != 0 && getChannelsLast() != 1)
    return emitOpError() << "expects channels_last 0 or 1, got "
                         << getChannelsLast();
  return verifyMinRank(*this, getX(), 3, "an input");
}

LogicalResult QGemmOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getA(), "A", getAZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getB(), "B", getBZeroPoint())) ||
      failed(verifyScalar(*this, getAScale(), "a_scale")) ||
      failed(verifyMinRank(*this, getA(), 2, "A")) ||
      failed(verifyMinRank(*this, getB(), 2, "B")))
    return failure();
  if (getC() && !getElementTypeOrSelf(getC().getType()).isInteger(32))
    return emitOpError() << "expects an i32 bias C, got " << getC().getType();
  if (!getYScale()) {
    if (getYZeroPoint())
      return emitOpError() << "expects y_scale with y_zero_point";
    if (!isa<FloatType>(getElementTypeOrSelf(getY().getType())))
      return emitOpError() << "expects a float result without y_scale";
    return success();
  }
  if (failed(verifyScalar(*this, getYScale(), "y_scale")))
    return failure();
  return verifyQuantizedOperand(*this, getY(), "Y", getYZeroPoint());
}

static LogicalResult verifyInt32Result(Operation *op, Value result) {
  if (!getElementTypeOrSelf(result.getType()).isInteger(32))
    return op->emitOpError() << "expects an i32 result, got "
                             << result.getType();
  return success();
}

LogicalResult MatMulIntegerOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getA(), "A", getAZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getB(), "B", getBZeroPoint())))
    return failure();
  return verifyInt32Result(*this, getY());
}

LogicalResult ConvIntegerOp::verify() {
  if (failed(verifyQuantizedOperand(*this, getX(), "x", getXZeroPoint())) ||
      failed(verifyQuantizedOperand(*this, getW(), "w", getWZeroPoint())) ||
      failed(verifyInt32Result(*this, getY())))
    return failure();
  WindowAttrs window = getWindowAttrs(*this);
  return verifyConvolution(*this, getX(), getW(), getGroup(), window);
}

//===----------------------------------------------------------------------===//
// Shape rules: the float op's shape; the element type of the output zero
// point (uint8 without one, as ONNX defaults), int32 for ...Integer ops.
//===----------------------------------------------------------------------===//

/// The quantized type a zero point gives, or ONNX's default uint8.
static Type getQuantizedElementType(Value zeroPoint, MLIRContext *ctx) {
  return zeroPoint ? getElementTypeOf(zeroPoint)
                   : IntegerType::get(ctx, 8, IntegerType::Unsigned);
}

LogicalResult QuantizeLinearOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferSameShape(
      getX(), getQuantizedElementType(getYZeroPoint(), getContext()), types);
}

LogicalResult
DynamicQuantizeLinearOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  auto u8 = IntegerType::get(getContext(), 8, IntegerType::Unsigned);
  if (failed(inferSameShape(getX(), u8, types)))
    return failure();
  types.push_back(RankedTensorType::get({}, Float32Type::get(getContext())));
  types.push_back(RankedTensorType::get({}, u8));
  return success();
}

LogicalResult
DequantizeLinearOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return inferSameShape(getX(), getElementTypeOf(getXScale()), types);
}

LogicalResult QLinearConvOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(
      convolutionShape(getX(), getW(), getWindowAttrs(*this)),
      getElementTypeOf(getYZeroPoint()), types);
}

LogicalResult QLinearMatMulOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(matmulShape(getA(), getB()),
                          getElementTypeOf(getYZeroPoint()), types);
}

LogicalResult QLinearAddOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getCZeroPoint() ? getElementTypeOf(getCZeroPoint())
                                     : getElementTypeOf(getA());
  return inferBroadcast({getA(), getB()}, elementType, types);
}

LogicalResult
QLinearGlobalAveragePoolOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(globalPoolingShape(getX(), getChannelsLast()),
                          getElementTypeOf(getYZeroPoint()), types);
}

LogicalResult QLinearConcatOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  SmallVector<Value> data;
  for (size_t i = 0; i < getInputs().size(); i += 3)
    data.push_back(getInputs()[i]);
  if (data.empty())
    return failure();
  return inferConcat(data, getAxis(), getElementTypeOf(getYZeroPoint()), types);
}

LogicalResult QGemmOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<int64_t>> shape =
      gemmShape(getA(), getB(), getTransA(), getTransB());
  if (failed(shape))
    return failure();
  Type elementType = getYScale()
                         ? getQuantizedElementType(getYZeroPoint(), getContext())
                         : getElementTypeOf(getAScale());
  types.push_back(RankedTensorType::get(*shape, elementType));
  return success();
}

LogicalResult MatMulIntegerOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(matmulShape(getA(), getB()),
                          IntegerType::get(getContext(), 32), types);
}

LogicalResult ConvIntegerOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  return appendResultType(
      convolutionShape(getX(), getW(), getWindowAttrs(*this)),
      IntegerType::get(getContext(), 32), types);
}
