//===- WidenF16.cpp - compute float16 graphs in float32 -------------------===//

#include "onnx-quant/Codegen/Passes.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_WIDENF16PASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

Type widen(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getElementType().isF16())
    return type;
  return tensor.clone(Float32Type::get(type.getContext()));
}

/// The f16 constant as f32 (dense or resource data), or null.
ElementsAttr widenConstant(ElementsAttr value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto wideType = cast<RankedTensorType>(widen(type));
  SmallVector<float> data;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    for (APFloat v : dense.getValues<APFloat>())
      data.push_back(v.convertToFloat());
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return nullptr;
    ArrayRef<char> bytes = blob->getData();
    for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
      uint16_t bits = uint8_t(bytes[i]) | uint16_t(uint8_t(bytes[i + 1])) << 8;
      data.push_back(APFloat(APFloat::IEEEhalf(), APInt(16, bits)).convertToFloat());
    }
  } else {
    return nullptr;
  }
  if (data.size() * sizeof(float) > 1024)
    return DenseResourceElementsAttr::get(
        wideType, "widened", HeapAsmResourceBlob::allocateAndCopyInferAlign(
                                 ArrayRef<float>(data)));
  return DenseElementsAttr::get(wideType, ArrayRef<float>(data));
}

struct WidenF16Pass : onnxq::impl::WidenF16PassBase<WidenF16Pass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &body = func.getBody().front();
    OpBuilder b(func.getContext());
    constexpr int64_t kFloat = int64_t(ONNXDataType::Float);

    // Inside the body everything is f32 ...
    WalkResult walk = func.walk([&](Operation *op) {
      if (auto constant = dyn_cast<ConstantOp>(op)) {
        if (constant.getType().getElementType().isF16()) {
          ElementsAttr wide = widenConstant(constant.getValue());
          if (!wide) {
            op->emitError("cannot widen this float16 constant");
            return WalkResult::interrupt();
          }
          constant.setValueAttr(wide);
        }
      }
      if (auto cast = dyn_cast<CastOp>(op);
          cast && cast.getTo() == int64_t(ONNXDataType::Float16))
        cast.setTo(kFloat);
      for (Value result : op->getResults())
        result.setType(widen(result.getType()));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    // ... while the interface keeps its float16 types.
    b.setInsertionPointToStart(&body);
    for (BlockArgument arg : body.getArguments()) {
      if (widen(arg.getType()) == arg.getType())
        continue;
      auto cast = CastOp::create(b, arg.getLoc(), widen(arg.getType()), arg, kFloat);
      arg.replaceAllUsesExcept(cast.getResult(), cast);
    }
    Operation *terminator = body.getTerminator();
    b.setInsertionPoint(terminator);
    for (OpOperand &operand : terminator->getOpOperands()) {
      Type expected = func.getFunctionType().getResult(operand.getOperandNumber());
      if (operand.get().getType() == expected)
        continue;
      operand.set(CastOp::create(b, terminator->getLoc(), expected, operand.get(),
                                 int64_t(ONNXDataType::Float16)));
    }
  }
};

} // namespace
