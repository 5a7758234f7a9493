//===- NewerOpsets.cpp - opsets 18-22 forms to the dialect's form ---------===//
//
// Each handler rewrites one form newer than the dialect's (opset 17): inputs
// that used to be attributes go back to attributes, or are spelled out over
// every axis, when they are constant (shape computations are folded as the
// graph is imported, so computed axes and sizes are constants here too); new
// attributes are dropped at their defaults and refused, naming the node,
// where the dialect has no equivalent. Opsets 19-22 otherwise only added
// element types (float8, int4, bfloat16), which the type importer checks.
//
//===----------------------------------------------------------------------===//

#include "OpsetHandlers.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"
#include "onnx-quant/Dialect/ONNX/IR/ShapeInference.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::onnxq;

/// Names, in `error`, the graph inputs `value` is computed from when it is
/// not one itself.
static InFlightDiagnostic appendGraphInputs(InFlightDiagnostic &&error,
                                            Value value) {
  SmallVector<std::string> inputs = getGraphInputsFeeding(value);
  if (!inputs.empty() && !isa<BlockArgument>(value))
    error << " (it is computed from graph input"
          << (inputs.size() > 1 ? "s '" : " '") << llvm::join(inputs, "', '")
          << "')";
  return std::move(error);
}

/// The input at `slot` as constant integers, or an error naming it.
static FailureOr<SmallVector<int64_t>>
getConstantInput(GraphImporter &importer, ImportedNode &node, size_t slot,
                 StringRef what) {
  if (std::optional<SmallVector<int64_t>> values =
          getConstantIntegers(getInput(node, slot)))
    return *values;
  return appendGraphInputs(importer.emitNodeError(node)
                               << what << " (input #" << slot
                               << ") must be a constant or computed from shapes",
                           getInput(node, slot));
}

/// The rank of input 0, or an error.
static FailureOr<int64_t> getInputRank(GraphImporter &importer,
                                       ImportedNode &node) {
  if (auto type = dyn_cast<RankedTensorType>(node.operands[0].getType()))
    return type.getRank();
  return importer.emitNodeError(node) << "needs the rank of input #0";
}

/// `axes` (ONNX axes, possibly negative) normalized to [0, rank), or an
/// error naming the first one out of range or repeated.
static FailureOr<SmallVector<int64_t>>
normalizeAxes(GraphImporter &importer, ImportedNode &node,
              ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes) {
    int64_t a = normalizeAxis(axis, rank);
    if (a < 0 || a >= rank || llvm::is_contained(normalized, a))
      return importer.emitNodeError(node)
             << "axis " << axis << " is out of range or repeated for rank "
             << rank;
    normalized.push_back(a);
  }
  return normalized;
}

/// `values` given per axis of `axes`, spelled out over all `rank` axes (the
/// others take `fill(axis)`), `groups` times over (pads and roi list begins,
/// then ends).
template <typename T, typename Fill>
static SmallVector<T> spreadOverAxes(ArrayRef<T> values,
                                     ArrayRef<int64_t> axes, int64_t rank,
                                     int groups, Fill fill) {
  SmallVector<T> full;
  for (int g = 0; g < groups; ++g)
    for (int64_t axis = 0; axis < rank; ++axis) {
      const auto *it = llvm::find(axes, axis);
      full.push_back(it == axes.end()
                         ? fill(g, axis)
                         : values[g * axes.size() + (it - axes.begin())]);
    }
  return full;
}

/// Drops an attribute that a later opset added, when it has its default
/// (`isDefault`); otherwise refuses the node.
template <typename T, typename IsDefault>
static LogicalResult dropDefault(GraphImporter &importer, ImportedNode &node,
                                 std::optional<T> value, StringRef name,
                                 IsDefault isDefault) {
  if (!value || isDefault(*value))
    return success();
  return importer.emitNodeError(node)
         << "attribute '" << name << "' = " << *value
         << " is not supported (the dialect has opset 17 semantics)";
}

static bool isZero(int64_t v) { return v == 0; }

// QuantizeLinear-19 added `saturate` (float8 only); -21 added `block_size`
// (blocked scales) and `output_dtype` (the result type when there is no
// zero point, which becomes an explicit zero of that type).
LogicalResult
mlir::onnxq::importQuantizeLinear19(GraphImporter &importer, ImportedNode &node,
                                    SmallVectorImpl<Value> &results) {
  takeInt(node, "saturate");
  if (failed(dropDefault(importer, node, takeInt(node, "block_size"),
                         "block_size", isZero)))
    return failure();
  std::optional<int64_t> outputType = takeInt(node, "output_dtype");
  if (outputType && *outputType != 0 && !getInput(node, 2)) {
    Type elementType = getElementType(importer.getBuilder().getContext(),
                                      *outputType);
    if (!elementType || !elementType.isInteger(8))
      return importer.emitNodeError(node)
             << "output_dtype " << *outputType
             << " is not supported (uint8 or int8 are)";
    setInput(node, 2, importer.createScalar(elementType, 0, node.loc));
  }
  return importer.buildGeneric(node, results);
}

// Pad-18 added the `axes` input (pads then list begins and ends of those
// axes only); -19 added mode "wrap", which the op's verifier refuses.
LogicalResult mlir::onnxq::importPad18(GraphImporter &importer,
                                       ImportedNode &node,
                                       SmallVectorImpl<Value> &results) {
  if (!getInput(node, 3))
    return importer.buildGeneric(node, results);
  FailureOr<SmallVector<int64_t>> axes =
      getConstantInput(importer, node, 3, "axes");
  if (failed(axes))
    return failure();
  FailureOr<SmallVector<int64_t>> pads =
      getConstantInput(importer, node, 1, "pads");
  FailureOr<int64_t> rank = getInputRank(importer, node);
  if (failed(pads) || failed(rank))
    return failure();
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeAxes(importer, node, *axes, *rank);
  if (failed(normalized))
    return failure();
  if (pads->size() != 2 * axes->size())
    return importer.emitNodeError(node)
           << "has " << pads->size() << " pads for " << axes->size()
           << " axes (expected twice as many)";
  SmallVector<int64_t> full = spreadOverAxes<int64_t>(
      *pads, *normalized, *rank, 2, [](int, int64_t) { return int64_t(0); });
  node.operands.resize(3);
  node.operands[1] = importer.createI64Vector(full, node.loc);
  return importer.buildGeneric(node, results);
}

// ReduceMean/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare-18 take `axes` as
// an optional input, with `noop_with_empty_axes`; the dialect keeps opset
// 13's `axes` attribute (ReduceSum made the same change in opset 13, and
// the dialect has that form).
LogicalResult mlir::onnxq::importReduce18(GraphImporter &importer,
                                          ImportedNode &node,
                                          SmallVectorImpl<Value> &results) {
  bool noop = takeInt(node, "noop_with_empty_axes").value_or(0) != 0;
  SmallVector<int64_t> axes;
  if (getInput(node, 1)) {
    FailureOr<SmallVector<int64_t>> given =
        getConstantInput(importer, node, 1, "axes");
    if (failed(given))
      return failure();
    axes = *given;
  }
  node.operands.resize(1);
  if (axes.empty() && noop)
    return importer.buildGeneric(node, results, "Identity");
  if (!axes.empty())
    node.attributes.set("axes", importer.getBuilder().getI64ArrayAttr(axes));
  return importer.buildGeneric(node, results);
}

/// Resize's scales (and its roi, which only tf_crop_and_resize reads) set
/// the coordinates the lowering computes at compile time, so they must be
/// known; sizes may come at run time when the result type fixes the shape.
static LogicalResult checkResizeInputs(GraphImporter &importer,
                                       ImportedNode &node) {
  auto mode = dyn_cast_or_null<StringAttr>(
      node.attributes.get("coordinate_transformation_mode"));
  bool readsRoi = mode && mode.getValue() == "tf_crop_and_resize";
  for (auto [slot, name] :
       {std::pair<size_t, StringRef>{1, "roi"}, {2, "scales"}}) {
    Value input = getInput(node, slot);
    if (input && (slot == 2 || readsRoi) && !getConstantFloats(input))
      return appendGraphInputs(
          importer.emitNodeError(node)
              << name << " (input #" << slot
              << ") must be a constant or computed from shapes",
          input);
  }
  return success();
}

// Resize-11 to -17: the dialect's form, with the check above.
LogicalResult mlir::onnxq::importResize11(GraphImporter &importer,
                                          ImportedNode &node,
                                          SmallVectorImpl<Value> &results) {
  if (failed(checkResizeInputs(importer, node)))
    return failure();
  return importer.buildGeneric(node, results);
}

// GroupNormalization-18 scales and shifts per group; opset 21 (the
// dialect's form) per channel: each group's value is repeated for its
// channels.
LogicalResult mlir::onnxq::importGroupNormalization18(
    GraphImporter &importer, ImportedNode &node,
    SmallVectorImpl<Value> &results) {
  auto x = dyn_cast<RankedTensorType>(node.operands[0].getType());
  auto groupsAttr =
      dyn_cast_or_null<IntegerAttr>(node.attributes.get("num_groups"));
  if (!x || x.getRank() < 2 || ShapedType::isDynamic(x.getDimSize(1)) ||
      !groupsAttr || groupsAttr.getInt() < 1 ||
      x.getDimSize(1) % groupsAttr.getInt() != 0)
    return importer.emitNodeError(node)
           << "needs a static channel count that num_groups divides";
  int64_t groups = groupsAttr.getInt(), channels = x.getDimSize(1);
  OpBuilder &b = importer.getBuilder();
  for (size_t slot : {1, 2}) {
    Value v = node.operands[slot];
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getShape() != ArrayRef<int64_t>{groups})
      return importer.emitNodeError(node)
             << "expects a scale and bias of num_groups (" << groups
             << ") elements";
    if (groups == channels)
      continue;
    Value column = ReshapeOp::create(
        b, node.loc, type.clone({groups, 1}), v,
        importer.createI64Vector({groups, 1}, node.loc), /*allowzero=*/0);
    Value spread = ExpandOp::create(
        b, node.loc, type.clone({groups, channels / groups}), column,
        importer.createI64Vector({groups, channels / groups}, node.loc));
    node.operands[slot] = ReshapeOp::create(
        b, node.loc, type.clone({channels}), spread,
        importer.createI64Vector({channels}, node.loc), /*allowzero=*/0);
  }
  return importer.buildGeneric(node, results);
}

// ReduceSum-13 made `axes` an input, the dialect's form; the lowering reads
// it at compile time.
LogicalResult mlir::onnxq::importReduceSum13(GraphImporter &importer,
                                             ImportedNode &node,
                                             SmallVectorImpl<Value> &results) {
  if (getInput(node, 1) &&
      failed(getConstantInput(importer, node, 1, "axes")))
    return failure();
  return importer.buildGeneric(node, results);
}

// Resize-18 added `axes` (scales, sizes and roi given for those axes only),
// `antialias` and `keep_aspect_ratio_policy`; -19 added the coordinate mode
// "half_pixel_symmetric", which the op's verifier refuses.
LogicalResult mlir::onnxq::importResize18(GraphImporter &importer,
                                          ImportedNode &node,
                                          SmallVectorImpl<Value> &results) {
  if (failed(dropDefault(importer, node, takeInt(node, "antialias"),
                         "antialias", isZero)) ||
      failed(dropDefault(importer, node,
                         takeString(node, "keep_aspect_ratio_policy"),
                         "keep_aspect_ratio_policy",
                         [&](StringRef policy) {
                           return policy == "stretch" || !getInput(node, 3);
                         })))
    return failure();
  std::optional<SmallVector<int64_t>> axes = takeInts(node, "axes");
  if (!axes)
    return importResize11(importer, node, results);
  FailureOr<int64_t> rank = getInputRank(importer, node);
  if (failed(rank))
    return failure();
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeAxes(importer, node, *axes, *rank);
  if (failed(normalized))
    return failure();
  OpBuilder &b = importer.getBuilder();
  auto floatVector = [&](ArrayRef<float> values) {
    auto type = RankedTensorType::get({int64_t(values.size())}, b.getF32Type());
    return importer.createConstant(DenseElementsAttr::get(type, values),
                                   node.loc);
  };
  // Each present input is respelled over all axes: roi as (start 0, end 1),
  // scales as 1 on the axes not listed.
  for (auto [slot, name, groups] :
       {std::tuple<size_t, StringRef, int>{1, "roi", 2}, {2, "scales", 1}}) {
    Value input = getInput(node, slot);
    if (!input)
      continue;
    std::optional<SmallVector<float>> values = getConstantFloats(input);
    if (!values)
      return appendGraphInputs(
          importer.emitNodeError(node)
              << name << " (input #" << slot
              << ") must be a constant or computed from shapes",
          input);
    if (values->size() != groups * axes->size())
      return importer.emitNodeError(node)
             << "has " << values->size() << " " << name << " values for "
             << axes->size() << " axes";
    bool isScales = groups == 1;
    node.operands[slot] = floatVector(spreadOverAxes<float>(
        *values, *normalized, *rank, groups, [&](int group, int64_t) {
          return isScales || group ? 1.0f : 0.0f;
        }));
  }
  if (getInput(node, 3)) {
    FailureOr<SmallVector<int64_t>> sizes =
        getConstantInput(importer, node, 3, "sizes");
    if (failed(sizes))
      return failure();
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(node.operands[0].getType()).getShape();
    if (sizes->size() != axes->size())
      return importer.emitNodeError(node)
             << "has " << sizes->size() << " sizes for " << axes->size()
             << " axes";
    SmallVector<int64_t> full = spreadOverAxes<int64_t>(
        *sizes, *normalized, *rank, 1,
        [&](int, int64_t axis) { return shape[axis]; });
    if (llvm::any_of(full, ShapedType::isDynamic))
      return importer.emitNodeError(node)
             << "needs static sizes of the axes it does not resize";
    node.operands[3] = importer.createI64Vector(full, node.loc);
  }
  return importer.buildGeneric(node, results);
}

// Split-18 added `num_outputs`: that many parts, the last one smaller when
// the size does not divide. An even split is the dialect's default; an
// uneven one is spelled out as the `split` input.
LogicalResult mlir::onnxq::importSplit18(GraphImporter &importer,
                                         ImportedNode &node,
                                         SmallVectorImpl<Value> &results) {
  std::optional<int64_t> parts = takeInt(node, "num_outputs");
  if (!parts)
    return importer.buildGeneric(node, results);
  if (getInput(node, 1))
    return importer.emitNodeError(node)
           << "has both a 'split' input and num_outputs";
  if (*parts != int64_t(node.resultTypes.size()) || *parts < 1)
    return importer.emitNodeError(node)
           << "num_outputs = " << *parts << " but the node has "
           << node.resultTypes.size() << " outputs";
  FailureOr<int64_t> rank = getInputRank(importer, node);
  if (failed(rank))
    return failure();
  auto axisAttr = dyn_cast_or_null<IntegerAttr>(node.attributes.get("axis"));
  FailureOr<SmallVector<int64_t>> axis = normalizeAxes(
      importer, node, {axisAttr ? axisAttr.getInt() : 0}, *rank);
  if (failed(axis))
    return failure();
  int64_t size =
      cast<RankedTensorType>(node.operands[0].getType()).getDimSize((*axis)[0]);
  if (!ShapedType::isDynamic(size) && size % *parts == 0)
    return importer.buildGeneric(node, results);
  if (ShapedType::isDynamic(size))
    return importer.emitNodeError(node)
           << "needs a static size along axis " << (*axis)[0]
           << " to split it into " << *parts << " parts";
  int64_t chunk = (size + *parts - 1) / *parts;
  int64_t last = size - chunk * (*parts - 1);
  if (last < 1)
    return importer.emitNodeError(node)
           << "cannot split " << size << " into " << *parts
           << " parts of " << chunk;
  SmallVector<int64_t> sizes(*parts - 1, chunk);
  sizes.push_back(last);
  setInput(node, 1, importer.createI64Vector(sizes, node.loc));
  return importer.buildGeneric(node, results);
}
