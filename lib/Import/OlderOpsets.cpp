//===- OlderOpsets.cpp - opsets 7-16 forms to the dialect's form ----------===//
//
// Each handler rewrites one form older than the dialect's (opset 17), mostly
// attributes that later became inputs, and then builds the op.
//
//===----------------------------------------------------------------------===//

#include "OpsetHandlers.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxq;

// Clip-6: `min`/`max` attributes; Clip-11 made them optional inputs.
LogicalResult mlir::onnxq::importClip6(GraphImporter &importer,
                                       ImportedNode &node,
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
LogicalResult mlir::onnxq::importAxesAttr(GraphImporter &importer,
                                          ImportedNode &node,
                                          SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "axes", 1);
  return importer.buildGeneric(node, results);
}

// Split-2/11: `split` attribute; an input from opset 13.
LogicalResult mlir::onnxq::importSplit11(GraphImporter &importer,
                                         ImportedNode &node,
                                         SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "split", 1);
  return importer.buildGeneric(node, results);
}

// TopK-1: the `k` attribute; an input `K` (a 1-element vector) from opset 10.
LogicalResult mlir::onnxq::importTopK1(GraphImporter &importer,
                                       ImportedNode &node,
                                       SmallVectorImpl<Value> &results) {
  if (std::optional<int64_t> k = takeInt(node, "k"))
    setInput(node, 1, importer.createI64Vector({*k}, node.loc));
  return importer.buildGeneric(node, results);
}

// Slice-1: `starts`, `ends`, `axes` attributes; inputs from opset 10.
LogicalResult mlir::onnxq::importSlice1(GraphImporter &importer,
                                        ImportedNode &node,
                                        SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "starts", 1);
  intsToInput(importer, node, "ends", 2);
  intsToInput(importer, node, "axes", 3);
  return importer.buildGeneric(node, results);
}

// Pad-2: `pads` and `value` attributes; inputs from opset 11.
LogicalResult mlir::onnxq::importPad2(GraphImporter &importer,
                                      ImportedNode &node,
                                      SmallVectorImpl<Value> &results) {
  intsToInput(importer, node, "pads", 1);
  double value = takeFloat(node, "value").value_or(0.0);
  setInput(node, 2,
           importer.createScalar(getDataElementType(node), value, node.loc));
  return importer.buildGeneric(node, results);
}

// Dropout-7/10: `ratio` attribute; an input from opset 12.
LogicalResult mlir::onnxq::importDropout7(GraphImporter &importer,
                                          ImportedNode &node,
                                          SmallVectorImpl<Value> &results) {
  if (std::optional<double> ratio = takeFloat(node, "ratio"))
    setInput(node, 1,
             importer.createScalar(importer.getBuilder().getF32Type(), *ratio,
                                   node.loc));
  return importer.buildGeneric(node, results);
}

// BatchNormalization-7/9: `spatial` (7 only) and up to four training outputs.
LogicalResult mlir::onnxq::importBatchNorm9(GraphImporter &importer,
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
LogicalResult mlir::onnxq::importResize10(GraphImporter &importer,
                                          ImportedNode &node,
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
LogicalResult mlir::onnxq::importSoftmax11(GraphImporter &importer,
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
LogicalResult mlir::onnxq::importPRelu7(GraphImporter &importer,
                                        ImportedNode &node,
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
