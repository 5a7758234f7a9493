//===- OpsetHandlers.cpp - which handler imports which opset's form -------===//

#include "OpsetHandlers.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

std::optional<SmallVector<int64_t>> mlir::onnxq::takeInts(ImportedNode &node,
                                                          StringRef name) {
  auto array = dyn_cast_or_null<ArrayAttr>(node.attributes.erase(name));
  if (!array)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (Attribute a : array)
    values.push_back(cast<IntegerAttr>(a).getInt());
  return values;
}

std::optional<double> mlir::onnxq::takeFloat(ImportedNode &node,
                                             StringRef name) {
  auto value = dyn_cast_or_null<FloatAttr>(node.attributes.erase(name));
  return value ? std::optional(value.getValueAsDouble()) : std::nullopt;
}

std::optional<int64_t> mlir::onnxq::takeInt(ImportedNode &node,
                                            StringRef name) {
  auto value = dyn_cast_or_null<IntegerAttr>(node.attributes.erase(name));
  return value ? std::optional(value.getInt()) : std::nullopt;
}

std::optional<StringRef> mlir::onnxq::takeString(ImportedNode &node,
                                                 StringRef name) {
  auto value = dyn_cast_or_null<StringAttr>(node.attributes.erase(name));
  return value ? std::optional(value.getValue()) : std::nullopt;
}

Value mlir::onnxq::getInput(const ImportedNode &node, size_t slot) {
  return slot < node.operands.size() ? node.operands[slot] : Value();
}

void mlir::onnxq::setInput(ImportedNode &node, size_t slot, Value value) {
  if (node.operands.size() <= slot)
    node.operands.resize(slot + 1);
  node.operands[slot] = value;
}

void mlir::onnxq::intsToInput(GraphImporter &importer, ImportedNode &node,
                              StringRef name, size_t slot) {
  if (std::optional<SmallVector<int64_t>> values = takeInts(node, name))
    setInput(node, slot, importer.createI64Vector(*values, node.loc));
}

Type mlir::onnxq::getDataElementType(const ImportedNode &node) {
  return getElementTypeOrSelf(node.operands[0].getType());
}

// Constant: every value_* form becomes the `value` tensor.
LogicalResult mlir::onnxq::importConstant(GraphImporter &importer,
                                          ImportedNode &node,
                                          SmallVectorImpl<Value> &results) {
  if (node.attributes.getAttrs().size() != 1)
    return importer.emitNodeError(node) << "expects exactly one attribute";
  NamedAttribute attr = *node.attributes.begin();
  StringRef name = attr.getName().getValue();
  OpBuilder &b = importer.getBuilder();
  ElementsAttr value;
  auto vectorOf = [&](Type elementType, int64_t size) {
    return RankedTensorType::get({size}, elementType);
  };
  if (name == "value") {
    value = dyn_cast<ElementsAttr>(attr.getValue());
  } else if (name == "value_float") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   attr.getValue());
  } else if (name == "value_int") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   attr.getValue());
  } else if (auto array = dyn_cast<ArrayAttr>(attr.getValue());
             array && (name == "value_floats" || name == "value_ints")) {
    Type elementType = name == "value_floats" ? Type(b.getF32Type())
                                               : Type(b.getI64Type());
    value = DenseElementsAttr::get(vectorOf(elementType, array.size()),
                                   array.getValue());
  }
  if (!value)
    return importer.emitNodeError(node)
           << "attribute '" << name << "' is not supported";
  results.push_back(importer.createConstant(value, node.loc));
  return success();
}

// Cast: the target type must be one the dialect has (not float8, int4 or
// string); Cast-19 added `saturate`, which only float8 targets read.
LogicalResult mlir::onnxq::importCast(GraphImporter &importer,
                                      ImportedNode &node,
                                      SmallVectorImpl<Value> &results) {
  takeInt(node, "saturate");
  auto to = dyn_cast_or_null<IntegerAttr>(node.attributes.get("to"));
  if (to && !getElementType(importer.getBuilder().getContext(), to.getInt())) {
    // libonnx 1.12 names the types up to bfloat16 (16), not float8 or int4.
    auto type = ONNX_NAMESPACE::TensorProto::DataType(to.getInt());
    return importer.emitNodeError(node)
           << "Cast to "
           << (ONNX_NAMESPACE::TensorProto::DataType_IsValid(type)
                   ? ONNX_NAMESPACE::TensorProto::DataType_Name(type)
                   : "data type " + std::to_string(to.getInt()))
           << ": a type onnx-quant does not support";
  }
  return importer.buildGeneric(node, results);
}

namespace {
struct OpsetHandlerEntry {
  StringRef opType;
  /// The handler applies to nodes of opsets in [fromOpset, beforeOpset).
  int64_t fromOpset, beforeOpset;
  OpsetHandler handler;
};
} // namespace

static const OpsetHandlerEntry kHandlers[] = {
    {"BatchNormalization", 0, 14, importBatchNorm9},
    {"Cast", 0, INT64_MAX, importCast},
    {"Clip", 0, 11, importClip6},
    {"Constant", 0, INT64_MAX, importConstant},
    {"Dropout", 0, 12, importDropout7},
    {"GroupNormalization", 18, 21, importGroupNormalization18},
    {"MatMulNBits", 0, INT64_MAX, importMatMulNBits},
    {"Hardmax", 0, 13, importSoftmax11},
    {"LogSoftmax", 0, 13, importSoftmax11},
    {"Pad", 0, 11, importPad2},
    {"Pad", 18, INT64_MAX, importPad18},
    {"PRelu", 0, 9, importPRelu7},
    {"QuantizeLinear", 19, INT64_MAX, importQuantizeLinear19},
    {"ReduceL1", 18, INT64_MAX, importReduce18},
    {"ReduceL2", 18, INT64_MAX, importReduce18},
    {"ReduceLogSum", 18, INT64_MAX, importReduce18},
    {"ReduceLogSumExp", 18, INT64_MAX, importReduce18},
    {"ReduceMax", 18, INT64_MAX, importReduce18},
    {"ReduceMean", 18, INT64_MAX, importReduce18},
    {"ReduceMin", 18, INT64_MAX, importReduce18},
    {"ReduceProd", 18, INT64_MAX, importReduce18},
    {"ReduceSum", 0, 13, importAxesAttr},
    {"ReduceSum", 13, INT64_MAX, importReduceSum13},
    {"ReduceSumSquare", 18, INT64_MAX, importReduce18},
    {"Resize", 0, 11, importResize10},
    {"Resize", 11, 18, importResize11},
    {"Resize", 18, INT64_MAX, importResize18},
    {"Slice", 0, 10, importSlice1},
    {"Softmax", 0, 13, importSoftmax11},
    {"Split", 0, 13, importSplit11},
    {"Split", 18, INT64_MAX, importSplit18},
    {"Squeeze", 0, 13, importAxesAttr},
    {"TopK", 0, 10, importTopK1},
    {"Unsqueeze", 0, 13, importAxesAttr},
};

OpsetHandler mlir::onnxq::lookupOpsetHandler(StringRef opType, int64_t opset) {
  for (const OpsetHandlerEntry &entry : kHandlers)
    if (entry.opType == opType && entry.fromOpset <= opset &&
        opset < entry.beforeOpset)
      return entry.handler;
  return nullptr;
}
