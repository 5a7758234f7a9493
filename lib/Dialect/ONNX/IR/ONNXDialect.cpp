//===- ONNXDialect.cpp - the onnx dialect ---------------------------------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXDialect.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

using namespace mlir;
using namespace mlir::onnxq;

#include "onnx-quant/Dialect/ONNX/IR/ONNXOpsDialect.cpp.inc"

void ONNXDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.cpp.inc"
      >();
}

Operation *ONNXDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

LogicalResult ONNXDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  return verifyGraphAttribute(op, attr, std::nullopt, std::nullopt);
}

LogicalResult ONNXDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  return verifyGraphAttribute(op, attr, argIndex, std::nullopt);
}

LogicalResult ONNXDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  return verifyGraphAttribute(op, attr, std::nullopt, resultIndex);
}

StringRef mlir::onnxq::getONNXDomain(Operation *op) {
  return op->hasTrait<MicrosoftDomain>() ? "com.microsoft" : "";
}

#define GET_OP_CLASSES
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.cpp.inc"
