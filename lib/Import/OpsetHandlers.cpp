//===- OpsetHandlers.cpp - older ONNX opsets to the dialect's form --------===//
//
// The dialect has opset 17 semantics. Each handler here rewrites one older
// form, mostly attributes that later became inputs, and then builds the op.
// The table at the bottom says which opsets a handler covers.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

/// Removes attribute `name` from the node and returns its integers.
static std::optional<SmallVector<int64_t>> takeInts(ImportedNode &node,
                                                    StringRef name) {
  auto array = dyn_cast_or_null<ArrayAttr>(node.attributes.erase(name));
  if (!array)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (Attribute a : array)
    values.push_back(cast<IntegerAttr>(a).getInt());
  return values;
}

static std::optional<double> takeFloat(ImportedNode &node, StringRef name) {
  auto value = dyn_cast_or_null<FloatAttr>(node.attributes.erase(name));
  return value ? std::optional(value.getValueAsDouble()) : std::nullopt;
}

/// Sets input slot `slot` (growing the operand list with absent inputs).
static void setInput(ImportedNode &node, size_t slot, Value value) {
  if (node.operands.size() <= slot)
    node.operands.resize(slot + 1);
  node.operands[slot] = value;
}

/// Moves an INTS attribute into input slot `slot` as a 1-D i64 constant.
static void intsToInput(GraphImporter &importer, ImportedNode &node,
                        StringRef name, size_t slot) {
  if (std::optional<SmallVector<int64_t>> values = takeInts(node, name))
    setInput(node, slot, importer.createI64Vector(*values, node.loc));
}

static Type getDataElementType(ImportedNode &node) {
  return getElementTypeOrSelf(node.operands[0].getType());
}

// Clip-6: `min`/`max` attributes; Clip-11 made them optional inputs.
static LogicalResult importClip6(GraphImporter &importer, ImportedNode &node,
                                 SmallVectorImpl<Value> &results) {
  Type elementType = getDataElementType(node);
  if (std::optional<double> min = takeFloat(node, "min"))
    setInput(node, 1, importer.createScalar(elementType, *min, node.loc));
  if (std::optional<double> max = takeFloat(node, "max"))
    setInput(node, 2, importer.createScalar(elementType, *max, node.loc));
  return importer.buildGeneric(node, results);
}

// Squeeze-1/11, Unsqueeze-1/11, ReduceSum-1/11: `axes` attribute; an input
// from opset 13.
static LogicalResult importAxesAttr(GraphImporter &importer, ImportedNode &node,
                                    SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "axes", 1);
  return importer.buildGeneric(node, results);
}

// Split-2/11: `split` attribute; an input from opset 13.
static LogicalResult importSplit11(GraphImporter &importer, ImportedNode &node,
                                   SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "split", 1);
  return importer.buildGeneric(node, results);
}

// Slice-1: `starts`, `ends`, `axes` attributes; inputs from opset 10.
static LogicalResult importSlice1(GraphImporter &importer, ImportedNode &node,
                                  SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "starts", 1);
  intsToInput(importer, node, "ends", 2);
  intsToInput(importer, node, "axes", 3);
  return importer.buildGeneric(node, results);
}

// Pad-2: `pads` and `value` attributes; inputs from opset 11.
static LogicalResult importPad2(GraphImporter &importer, ImportedNode &node,
                                SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "pads", 1);
  double value = takeFloat(node, "value").value_or(0.0);
  setInput(node, 2,
           importer.createScalar(getDataElementType(node), value, node.loc));
  return importer.buildGeneric(node, results);
}

// Dropout-7/10: `ratio` attribute; an input from opset 12.
static LogicalResult importDropout7(GraphImporter &importer, ImportedNode &node,
                                    SmallVectorImpl<Value> &results) {
  if (std::optional<double> ratio = takeFloat(node, "ratio"))
    setInput(node, 1,
             importer.createScalar(importer.getBuilder().getF32Type(), *ratio,
                                   node.loc));
  return importer.buildGeneric(node, results);
}

// BatchNormalization-7/9: `spatial` (7 only) and up to four training outputs.
static LogicalResult importBatchNorm9(GraphImporter &importer,
                                      ImportedNode &node,
                                      SmallVectorImpl<Value> &results) {
  if (auto spatial =
          dyn_cast_or_null<IntegerAttr>(node.attributes.erase("spatial"));
      spatial && spatial.getInt() != 1)
    return importer.emitNodeError(node)
           << "spatial = 0 (per-activation statistics) is not supported";
  // Unused optional outputs were already dropped.
  if (node.resultTypes.size() > 1)
    return importer.emitNodeError(node)
           << "training-mode outputs of opset < 14 are not supported";
  return importer.buildGeneric(node, results);
}

// Resize-10: (X, scales) with asymmetric coordinates; opset 11 added roi and
// sizes and the coordinate transformation modes.
static LogicalResult importResize10(GraphImporter &importer, ImportedNode &node,
                                    SmallVectorImpl<Value> &results) {
  Value scales = node.operands.size() > 1 ? node.operands[1] : Value();
  node.operands.resize(1);
  setInput(node, 2, scales);
  OpBuilder &b = importer.getBuilder();
  node.attributes.set("coordinate_transformation_mode",
                      b.getStringAttr("asymmetric"));
  node.attributes.set("nearest_mode", b.getStringAttr("floor"));
  return importer.buildGeneric(node, results);
}

// Softmax-1/11 (and LogSoftmax, Hardmax) coerces its input to 2-D at `axis`
// (default 1) and normalizes each row; opset 13 normalizes along one axis.
// Unless `axis` is already the last one, import as Reshape(2-D) -> op(axis =
// 1) -> Reshape back.
static LogicalResult importSoftmax11(GraphImporter &importer,
                                     ImportedNode &node,
                                     SmallVectorImpl<Value> &results) {
  auto axisAttr = dyn_cast_or_null<IntegerAttr>(node.attributes.erase("axis"));
  int64_t axis = axisAttr ? axisAttr.getInt() : 1;
  auto type = dyn_cast<RankedTensorType>(node.operands[0].getType());
  if (!type || !type.hasStaticShape())
    return importer.emitNodeError(node)
           << "needs a static input shape (Softmax before opset 13 flattens "
              "its input)";
  int64_t rank = type.getRank();
  if (axis < 0)
    axis += rank;
  OpBuilder &b = importer.getBuilder();
  if (axis == rank - 1) {
    node.attributes.set("axis", b.getI64IntegerAttr(-1));
    return importer.buildGeneric(node, results);
  }
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = 1, cols = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? rows : cols) *= shape[i];
  auto flatType = RankedTensorType::get({rows, cols}, type.getElementType());
  Value flat = ReshapeOp::create(
      b, node.loc, flatType, node.operands[0],
      importer.createI64Vector({rows, cols}, node.loc), /*allowzero=*/0);
  OperationState state(node.loc, "onnx." + node.proto.op_type());
  state.addOperands(flat);
  state.addTypes(flatType);
  state.addAttribute("axis", b.getI64IntegerAttr(1));
  Value softmax = b.create(state)->getResult(0);
  Value restored = ReshapeOp::create(
      b, node.loc, node.resultTypes[0], softmax,
      importer.createI64Vector(shape, node.loc), /*allowzero=*/0);
  results.push_back(restored);
  return success();
}

// PRelu-1/6 applied a 1-D slope per channel (dimension 1); libonnx's version
// converter keeps such a slope unchanged, which opset 7's broadcasting then
// rejects. Where numpy broadcasting cannot apply, reshape the slope to
// (C, 1, ..., 1), the only reading that makes the model valid.
static LogicalResult importPRelu7(GraphImporter &importer, ImportedNode &node,
                                  SmallVectorImpl<Value> &results) {
  auto x = dyn_cast<RankedTensorType>(node.operands[0].getType());
  auto slope = dyn_cast<RankedTensorType>(node.operands[1].getType());
  if (x && slope && x.hasStaticShape() && slope.hasStaticShape() &&
      x.getRank() >= 3 && slope.getRank() == 1 &&
      slope.getDimSize(0) == x.getDimSize(1) &&
      slope.getDimSize(0) != x.getDimSize(x.getRank() - 1)) {
    SmallVector<int64_t> shape(x.getRank() - 1, 1);
    shape[0] = slope.getDimSize(0);
    node.operands[1] = ReshapeOp::create(
        importer.getBuilder(), node.loc, slope.clone(shape), node.operands[1],
        importer.createI64Vector(shape, node.loc), /*allowzero=*/0);
  }
  return importer.buildGeneric(node, results);
}

// Constant: every value_* form becomes the `value` tensor.
static LogicalResult importConstant(GraphImporter &importer, ImportedNode &node,
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

namespace {
struct OpsetHandlerEntry {
  StringRef opType;
  /// The handler applies to nodes of opsets below this one.
  int64_t beforeOpset;
  OpsetHandler handler;
};
} // namespace

static const OpsetHandlerEntry kHandlers[] = {
    {"BatchNormalization", 14, importBatchNorm9},
    {"Clip", 11, importClip6},
    {"Constant", INT64_MAX, importConstant},
    {"Dropout", 12, importDropout7},
    {"Hardmax", 13, importSoftmax11},
    {"LogSoftmax", 13, importSoftmax11},
    {"Pad", 11, importPad2},
    {"PRelu", 9, importPRelu7},
    {"ReduceSum", 13, importAxesAttr},
    {"Resize", 11, importResize10},
    {"Slice", 10, importSlice1},
    {"Softmax", 13, importSoftmax11},
    {"Split", 13, importSplit11},
    {"Squeeze", 13, importAxesAttr},
    {"Unsqueeze", 13, importAxesAttr},
};

OpsetHandler mlir::onnxq::lookupOpsetHandler(StringRef opType, int64_t opset) {
  for (const OpsetHandlerEntry &entry : kHandlers)
    if (entry.opType == opType && opset < entry.beforeOpset)
      return entry.handler;
  return nullptr;
}
