//===- TensorOps.cpp - constants, shapes and data movement ops ------------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

LogicalResult CastOp::verify() {
  Type expected = onnxq::getElementType(getContext(), getTo());
  if (!expected)
    return emitOpError() << "expects `to` to be a supported ONNX data type, got "
                         << getTo() << " (" << getONNXDataTypeName(getTo())
                         << ")";
  Type actual = getElementTypeOrSelf(getOutput().getType());
  if (actual != expected)
    return emitOpError() << "expects a result of element type " << expected
                         << " for to = " << getONNXDataTypeName(getTo())
                         << ", got " << actual;
  return success();
}

LogicalResult ShapeOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getShape().getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isInteger(64))
    return emitOpError() << "expects a 1-D i64 result, got "
                         << getShape().getType();
  return success();
}

std::pair<int64_t, int64_t> ShapeOp::getDimRange(int64_t rank) {
  auto clamp = [&](int64_t v) {
    return std::clamp<int64_t>(normalizeAxis(v, rank), 0, rank);
  };
  return {clamp(getStart()), getEnd() ? clamp(*getEnd()) : rank};
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifyIntegerVector(*this, getShape(), "shape")))
    return failure();
  auto in = dyn_cast<RankedTensorType>(getData().getType());
  auto out = dyn_cast<RankedTensorType>(getReshaped().getType());
  if (in && out && in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError() << "expects the same number of elements, got " << in
                         << " and " << out;
  return success();
}

LogicalResult FlattenOp::verify() {
  if (failed(verifyRank(*this, getOutput(), 2, "a result")))
    return failure();
  std::optional<int64_t> rank = getRank(getInput());
  return rank ? verifyAxis(*this, getAxis(), *rank, "axis", /*allowEnd=*/true)
              : success();
}

LogicalResult TransposeOp::verify() {
  std::optional<int64_t> rank = getRank(getData());
  if (!rank || !getPerm())
    return success();
  SmallVector<int64_t> perm = getI64Values(*getPerm());
  if (perm.size() != size_t(*rank))
    return emitOpError() << "expects perm to be a permutation of [0, " << *rank
                         << ")";
  SmallVector<bool> seen(*rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= *rank || seen[p])
      return emitOpError() << "expects perm to be a permutation of [0, "
                           << *rank << ")";
    seen[p] = true;
  }
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  return verifyConcatShapes(*this, getInputs(), getAxis(), getConcatResult());
}

LogicalResult SplitOp::verify() {
  if (getOutputs().empty())
    return emitOpError("expects at least one result");
  if (getSplit() && failed(verifyIntegerVector(*this, getSplit(), "split")))
    return failure();
  std::optional<int64_t> rank = getRank(getInput());
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}

LogicalResult SliceOp::verify() {
  const StringRef names[] = {"starts", "ends"};
  Value values[] = {getStarts(), getEnds()};
  for (auto [value, name] : llvm::zip(values, names))
    if (failed(verifyIntegerVector(*this, value, name)))
      return failure();
  if (getAxes() && failed(verifyIntegerVector(*this, getAxes(), "axes")))
    return failure();
  if (getSteps() && failed(verifyIntegerVector(*this, getSteps(), "steps")))
    return failure();
  std::optional<int64_t> starts = getStaticDim(getStarts(), 0);
  std::optional<int64_t> ends = getStaticDim(getEnds(), 0);
  if (starts && ends && *starts != *ends)
    return emitOpError() << "expects starts and ends of the same length, got "
                         << *starts << " and " << *ends;
  return success();
}

LogicalResult SqueezeOp::verify() {
  return getAxes() ? verifyIntegerVector(*this, getAxes(), "axes") : success();
}

LogicalResult UnsqueezeOp::verify() {
  if (failed(verifyIntegerVector(*this, getAxes(), "axes")))
    return failure();
  std::optional<int64_t> in = getRank(getData()), out = getRank(getExpanded());
  std::optional<int64_t> added = getStaticDim(getAxes(), 0);
  if (in && out && added && *out != *in + *added)
    return emitOpError() << "expects a result of rank " << *in + *added
                         << ", got rank " << *out;
  return success();
}

LogicalResult PadOp::verify() {
  // wrap is Pad-19's (an extension of the opset 17 form).
  if (!llvm::is_contained({"constant", "reflect", "edge", "wrap"}, getMode()))
    return emitOpError() << "expects mode constant, reflect, edge or wrap, got '"
                         << getMode() << "'";
  if (failed(verifyIntegerVector(*this, getPads(), "pads")))
    return failure();
  if (getConstantValue() &&
      failed(verifyScalar(*this, getConstantValue(), "constant_value")))
    return failure();
  std::optional<int64_t> rank = getRank(getData());
  std::optional<int64_t> pads = getStaticDim(getPads(), 0);
  if (rank && pads && *pads != 2 * *rank)
    return emitOpError() << "expects " << 2 * *rank << " pads for rank "
                         << *rank << ", got " << *pads;
  return success();
}

LogicalResult GatherOp::verify() {
  if (!getElementTypeOrSelf(getIndices().getType()).isInteger())
    return emitOpError() << "expects integer indices, got "
                         << getIndices().getType();
  std::optional<int64_t> rank = getRank(getData());
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}

LogicalResult GatherElementsOp::verify() {
  if (!getElementTypeOrSelf(getIndices().getType()).isInteger())
    return emitOpError() << "expects integer indices, got "
                         << getIndices().getType();
  std::optional<int64_t> rank = getRank(getData());
  std::optional<int64_t> indexRank = getRank(getIndices());
  if (rank && indexRank && *rank != *indexRank)
    return emitOpError() << "expects indices of the data's rank " << *rank
                         << ", got " << getIndices().getType();
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}

/// The checks ScatterND and ScatterElements share: integer indices, updates
/// of the data's element type, a known reduction.
static LogicalResult verifyScatter(Operation *op, Value data, Value indices,
                                   Value updates, StringRef reduction) {
  if (!getElementTypeOrSelf(indices.getType()).isInteger())
    return op->emitOpError() << "expects integer indices, got "
                             << indices.getType();
  if (failed(verifySameElementType(op, data, "data", updates, "updates")))
    return failure();
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return op->emitOpError() << "expects reduction none, add, mul, max or "
                                "min, got '"
                             << reduction << "'";
  return success();
}

LogicalResult ScatterNDOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates(),
                           getReduction())))
    return failure();
  std::optional<SmallVector<int64_t>> data = getShapeOf(getData());
  std::optional<SmallVector<int64_t>> indices = getShapeOf(getIndices());
  std::optional<SmallVector<int64_t>> updates = getShapeOf(getUpdates());
  if (indices && indices->empty())
    return emitOpError() << "expects indices of rank 1 or more";
  if (!data || !indices || !updates || ShapedType::isDynamic(indices->back()))
    return success();
  // updates: indices' shape without the tuple dim, then the slice's dims.
  int64_t tuple = indices->back();
  if (tuple > int64_t(data->size()))
    return emitOpError() << "expects index tuples of at most the data's rank "
                         << data->size();
  SmallVector<int64_t> expected(indices->begin(), indices->end() - 1);
  expected.append(data->begin() + tuple, data->end());
  if (updates->size() != expected.size() ||
      llvm::any_of(llvm::zip(*updates, expected), [](auto pair) {
        auto [u, e] = pair;
        return !ShapedType::isDynamic(u) && !ShapedType::isDynamic(e) && u != e;
      }))
    return emitOpError() << "expects updates of shape "
                         << formatShape(expected) << ", got "
                         << formatShape(*updates);
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates(),
                           getReduction())))
    return failure();
  std::optional<int64_t> rank = getRank(getData());
  std::optional<SmallVector<int64_t>> indices = getShapeOf(getIndices());
  std::optional<SmallVector<int64_t>> updates = getShapeOf(getUpdates());
  if (rank && indices && int64_t(indices->size()) != *rank)
    return emitOpError() << "expects indices of the data's rank " << *rank
                         << ", got " << getIndices().getType();
  if (indices && updates && *indices != *updates)
    return emitOpError() << "expects updates of the indices' shape "
                         << formatShape(*indices) << ", got "
                         << formatShape(*updates);
  return rank ? verifyAxis(*this, getAxis(), *rank) : success();
}

LogicalResult TileOp::verify() {
  if (failed(verifyIntegerVector(*this, getRepeats(), "repeats")))
    return failure();
  std::optional<int64_t> rank = getRank(getInput());
  std::optional<int64_t> count = getStaticDim(getRepeats(), 0);
  if (rank && count && *rank != *count)
    return emitOpError() << "expects one repeat per axis (" << *rank
                         << "), got " << *count;
  if (std::optional<SmallVector<int64_t>> repeats =
          getConstantIntegers(getRepeats()))
    if (llvm::any_of(*repeats, [](int64_t r) { return r < 0; }))
      return emitOpError() << "expects repeats of at least 0";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (ShapedType::isDynamic(d))
      return ShapedType::kDynamic;
    n *= d;
  }
  return n;
}

LogicalResult ConstantOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getValue().getType());
  return success();
}

LogicalResult CastOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = onnxq::getElementType(getContext(), getTo());
  if (!elementType)
    return failure();
  return inferSameShape(getInput(), elementType, types);
}

LogicalResult ShapeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type i64 = IntegerType::get(getContext(), 64);
  std::optional<int64_t> rank = getRank(getData());
  if (!rank) {
    types.push_back(getDynamicTensorType(1, i64));
    return success();
  }
  auto [start, end] = getDimRange(*rank);
  types.push_back(RankedTensorType::get({std::max<int64_t>(0, end - start)}, i64));
  return success();
}

LogicalResult ReshapeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> target = getConstantIntegers(getShape());
  if (!target) {
    std::optional<int64_t> rank = getStaticDim(getShape(), 0);
    types.push_back(rank ? getDynamicTensorType(*rank, elementType)
                         : UnrankedTensorType::get(elementType));
    return success();
  }
  std::optional<SmallVector<int64_t>> in = getShapeOf(getData());
  SmallVector<int64_t> shape;
  int64_t inferred = -1;
  for (auto [i, d] : llvm::enumerate(*target)) {
    if (d == 0 && !getAllowzero()) {
      // 0 copies the input's dimension.
      if (in && i >= in->size())
        return failure();
      shape.push_back(in ? (*in)[i] : ShapedType::kDynamic);
    } else if (d == -1) {
      if (inferred >= 0)
        return failure();
      inferred = i;
      shape.push_back(ShapedType::kDynamic);
    } else if (d < 0) {
      return failure();
    } else {
      shape.push_back(d);
    }
  }
  int64_t total = in ? product(*in) : ShapedType::kDynamic;
  if (inferred >= 0 && !ShapedType::isDynamic(total)) {
    SmallVector<int64_t> others(shape);
    others.erase(others.begin() + inferred);
    int64_t known = product(others);
    if (!ShapedType::isDynamic(known)) {
      if (known == 0 || total % known != 0)
        return failure();
      shape[inferred] = total / known;
    }
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult FlattenOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getInput());
  std::optional<SmallVector<int64_t>> in = getShapeOf(getInput());
  if (!in) {
    types.push_back(getDynamicTensorType(2, elementType));
    return success();
  }
  int64_t rank = in->size();
  int64_t axis = normalizeAxis(getAxis(), rank);
  if (axis < 0 || axis > rank)
    return failure();
  types.push_back(RankedTensorType::get(
      {product(ArrayRef(*in).take_front(axis)),
       product(ArrayRef(*in).drop_front(axis))},
      elementType));
  return success();
}

LogicalResult TransposeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> in =
      getShapeOrAppendUnranked(getData(), types);
  if (!in)
    return success();
  int64_t rank = in->size();
  SmallVector<int64_t> perm =
      getPerm() ? getI64Values(*getPerm())
                : llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(rank)));
  if (int64_t(perm.size()) != rank)
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank)
      return failure();
    shape.push_back((*in)[p]);
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult ConcatOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  if (getInputs().empty())
    return failure();
  return inferConcat(getInputs(), getAxis(),
                     getElementTypeOf(getInputs().front()), types);
}

LogicalResult mlir::onnxq::detail::inferConcat(ValueRange inputs, int64_t axis,
                                               Type elementType,
                                               SmallVectorImpl<Type> &types) {
  std::optional<SmallVector<int64_t>> shape;
  for (Value input : inputs) {
    std::optional<SmallVector<int64_t>> in = getShapeOf(input);
    if (in && (shape ? shape->size() != in->size() : false))
      return failure();
    if (in && !shape)
      shape = in;
  }
  if (!shape) {
    types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  int64_t rank = shape->size();
  axis = normalizeAxis(axis, rank);
  if (axis < 0 || axis >= rank)
    return failure();
  int64_t total = 0;
  for (Value input : inputs) {
    std::optional<SmallVector<int64_t>> in = getShapeOf(input);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t dim = in ? (*in)[d] : ShapedType::kDynamic;
      if (d == axis) {
        total = ShapedType::isDynamic(dim) || ShapedType::isDynamic(total)
                    ? ShapedType::kDynamic
                    : total + dim;
      } else if (ShapedType::isDynamic((*shape)[d])) {
        (*shape)[d] = dim;
      } else if (!ShapedType::isDynamic(dim) && dim != (*shape)[d]) {
        return failure();
      }
    }
  }
  (*shape)[axis] = total;
  types.push_back(RankedTensorType::get(*shape, elementType));
  return success();
}

LogicalResult SplitOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getInput());
  std::optional<SmallVector<int64_t>> in = getShapeOf(getInput());
  int64_t parts = getNumResults();
  if (!in) {
    types.append(parts, UnrankedTensorType::get(elementType));
    return success();
  }
  int64_t rank = in->size();
  int64_t axis = normalizeAxis(getAxis(), rank);
  if (axis < 0 || axis >= rank)
    return failure();
  int64_t dim = (*in)[axis];
  SmallVector<int64_t> sizes(parts, ShapedType::kDynamic);
  if (getSplit()) {
    if (std::optional<SmallVector<int64_t>> split = getConstantIntegers(getSplit())) {
      if (int64_t(split->size()) != parts)
        return failure();
      sizes = *split;
    }
  } else if (!ShapedType::isDynamic(dim)) {
    if (dim % parts != 0)
      return failure();
    sizes.assign(parts, dim / parts);
  }
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(*in);
    shape[axis] = size;
    types.push_back(RankedTensorType::get(shape, elementType));
  }
  return success();
}

LogicalResult SliceOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> in =
      getShapeOrAppendUnranked(getData(), types);
  if (!in)
    return success();
  int64_t rank = in->size();
  std::optional<SmallVector<int64_t>> starts = getConstantIntegers(getStarts());
  std::optional<SmallVector<int64_t>> ends = getConstantIntegers(getEnds());
  // Without `axes` the starts' positions are the axes.
  std::optional<SmallVector<int64_t>> axes =
      getAxes() ? getConstantIntegers(getAxes())
      : starts  ? std::optional(llvm::to_vector(llvm::seq<int64_t>(starts->size())))
                : std::nullopt;
  std::optional<SmallVector<int64_t>> steps =
      getConstantIntegers(getSteps());
  SmallVector<int64_t> shape(*in);
  if (!axes) {
    // Unknown axes: any dimension may be sliced.
    types.push_back(getDynamicTensorType(rank, elementType));
    return success();
  }
  if (!starts || !ends || (getSteps() && !steps)) {
    for (int64_t axis : *axes)
      if (axis >= -rank && axis < rank)
        shape[normalizeAxis(axis, rank)] = ShapedType::kDynamic;
    types.push_back(RankedTensorType::get(shape, elementType));
    return success();
  }
  if (starts->size() != ends->size() || axes->size() != starts->size() ||
      (steps && steps->size() != starts->size()))
    return failure();
  for (size_t i = 0; i < axes->size(); ++i) {
    int64_t axis = normalizeAxis((*axes)[i], rank);
    int64_t step = steps ? (*steps)[i] : 1;
    if (axis < 0 || axis >= rank || step == 0)
      return failure();
    int64_t dim = (*in)[axis];
    if (!ShapedType::isDynamic(dim))
      shape[axis] = sliceDim((*starts)[i], (*ends)[i], step, dim).size;
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult SqueezeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> in = getShapeOf(getData());
  std::optional<SmallVector<int64_t>> axes =
      getAxes() ? getConstantIntegers(getAxes()) : std::optional(SmallVector<int64_t>());
  if (!in || !axes) {
    types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  int64_t rank = in->size();
  SmallVector<bool> removed(rank, false);
  for (int64_t axis : *axes) {
    if (axis < -rank || axis >= rank)
      return failure();
    removed[normalizeAxis(axis, rank)] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = (*in)[d];
    if (axes->empty() && ShapedType::isDynamic(dim)) {
      // Whether it is 1 decides the rank.
      types.push_back(UnrankedTensorType::get(elementType));
      return success();
    }
    if (axes->empty() ? dim == 1 : removed[d])
      continue;
    shape.push_back(dim);
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult UnsqueezeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> in =
      getShapeOrAppendUnranked(getData(), types);
  if (!in)
    return success();
  std::optional<SmallVector<int64_t>> axes = getConstantIntegers(getAxes());
  std::optional<int64_t> added = getStaticDim(getAxes(), 0);
  int64_t rank = in->size() + (axes ? axes->size() : added.value_or(0));
  if (!axes) {
    types.push_back(added ? getDynamicTensorType(rank, elementType)
                          : UnrankedTensorType::get(elementType));
    return success();
  }
  SmallVector<bool> inserted(rank, false);
  for (int64_t axis : *axes) {
    if (axis < -rank || axis >= rank)
      return failure();
    inserted[normalizeAxis(axis, rank)] = true;
  }
  SmallVector<int64_t> shape;
  auto next = in->begin();
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(inserted[d] ? 1 : *next++);
  if (next != in->end())
    return failure();
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult PadOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> in =
      getShapeOrAppendUnranked(getData(), types);
  if (!in)
    return success();
  int64_t rank = in->size();
  std::optional<SmallVector<int64_t>> pads = getConstantIntegers(getPads());
  if (!pads) {
    types.push_back(getDynamicTensorType(rank, elementType));
    return success();
  }
  if (int64_t(pads->size()) != 2 * rank)
    return failure();
  SmallVector<int64_t> shape(*in);
  for (int64_t d = 0; d < rank; ++d)
    if (!ShapedType::isDynamic(shape[d]))
      shape[d] += (*pads)[d] + (*pads)[d + rank];
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult GatherOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> data = getShapeOf(getData());
  std::optional<SmallVector<int64_t>> indices = getShapeOf(getIndices());
  if (!data || !indices) {
    types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  int64_t rank = data->size();
  int64_t axis = normalizeAxis(getAxis(), rank);
  if (axis < 0 || axis >= rank)
    return failure();
  SmallVector<int64_t> shape(ArrayRef(*data).take_front(axis));
  llvm::append_range(shape, *indices);
  llvm::append_range(shape, ArrayRef(*data).drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult
GatherElementsOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getData());
  std::optional<SmallVector<int64_t>> indices = getShapeOf(getIndices());
  types.push_back(indices ? Type(RankedTensorType::get(*indices, elementType))
                          : Type(UnrankedTensorType::get(elementType)));
  return success();
}

LogicalResult ScatterNDOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getData().getType());
  return success();
}

LogicalResult
ScatterElementsOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(getData().getType());
  return success();
}

LogicalResult TileOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getInput());
  std::optional<SmallVector<int64_t>> input = getShapeOf(getInput());
  std::optional<SmallVector<int64_t>> repeats =
      getConstantIntegers(getRepeats());
  if (!input) {
    types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  SmallVector<int64_t> shape(input->size(), ShapedType::kDynamic);
  if (repeats) {
    if (repeats->size() != input->size())
      return failure();
    for (auto [dim, in, repeat] : llvm::zip(shape, *input, *repeats))
      dim = ShapedType::isDynamic(in) ? in : in * repeat;
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

//===----------------------------------------------------------------------===//
// Tensors generated from shapes
//===----------------------------------------------------------------------===//

LogicalResult ConstantOfShapeOp::verify() {
  if (failed(verifyIntegerVector(*this, getInput(), "input")))
    return failure();
  if (std::optional<ElementsAttr> value = getValue()) {
    if (value->getNumElements() != 1)
      return emitOpError() << "expects a one-element value, got "
                           << value->getShapedType();
    if (value->getElementType() != getElementTypeOf(getOutput()))
      return emitOpError() << "expects a result of the value's element type "
                           << value->getElementType() << ", got "
                           << getOutput().getType();
  }
  return success();
}

LogicalResult
ConstantOfShapeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getValue() ? getValue()->getElementType()
                                : Float32Type::get(getContext());
  if (std::optional<SmallVector<int64_t>> shape = getConstantIntegers(getInput())) {
    if (llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
      return failure();
    types.push_back(RankedTensorType::get(*shape, elementType));
    return success();
  }
  std::optional<int64_t> rank = getStaticDim(getInput(), 0);
  types.push_back(rank ? getDynamicTensorType(*rank, elementType)
                       : UnrankedTensorType::get(elementType));
  return success();
}

LogicalResult RangeOp::verify() {
  for (auto [value, name] : {std::pair(getStart(), "start"),
                             std::pair(getLimit(), "limit"),
                             std::pair(getDelta(), "delta")})
    if (failed(verifyScalar(*this, value, name)))
      return failure();
  if (failed(verifySameElementType(*this, getStart(), "start", getLimit(),
                                   "limit")) ||
      failed(verifySameElementType(*this, getStart(), "start", getDelta(),
                                   "delta")))
    return failure();
  return verifyRank(*this, getOutput(), 1, "result");
}

std::optional<int64_t> RangeOp::getConstantLength() {
  auto number = [](Value value) -> std::optional<double> {
    if (std::optional<SmallVector<float>> f = getConstantFloats(value);
        f && f->size() == 1)
      return (*f)[0];
    if (std::optional<SmallVector<int64_t>> i = getConstantIntegers(value);
        i && i->size() == 1)
      return double((*i)[0]);
    return std::nullopt;
  };
  std::optional<double> start = number(getStart()), limit = number(getLimit()),
                        delta = number(getDelta());
  if (!start || !limit || !delta || *delta == 0)
    return std::nullopt;
  return std::max<int64_t>(int64_t(std::ceil((*limit - *start) / *delta)), 0);
}

LogicalResult RangeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  std::optional<int64_t> length = getConstantLength();
  types.push_back(RankedTensorType::get(
      {length ? *length : ShapedType::kDynamic}, getElementTypeOf(getStart())));
  return success();
}

LogicalResult ExpandOp::verify() {
  return verifyIntegerVector(*this, getShape(), "shape");
}

LogicalResult ExpandOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  Type elementType = getElementTypeOf(getInput());
  std::optional<SmallVector<int64_t>> input = getShapeOf(getInput());
  std::optional<SmallVector<int64_t>> target = getConstantIntegers(getShape());
  if (!input || !target) {
    std::optional<int64_t> length = getStaticDim(getShape(), 0);
    if (input && length)
      types.push_back(getDynamicTensorType(
          std::max<int64_t>(input->size(), *length), elementType));
    else
      types.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  // Numpy broadcasting of the two shapes, right-aligned; a 1 in either
  // takes the other's dimension.
  size_t rank = std::max(input->size(), target->size());
  SmallVector<int64_t> shape(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    auto dimOf = [&](ArrayRef<int64_t> s) -> int64_t {
      return i + s.size() >= rank ? s[i + s.size() - rank] : 1;
    };
    int64_t a = dimOf(*input), b = dimOf(*target);
    if (b < 0)
      return failure();
    if (ShapedType::isDynamic(a))
      shape[i] = b == 1 ? a : b;
    else if (a == 1 || a == b)
      shape[i] = b;
    else if (b == 1)
      shape[i] = a;
    else
      return failure();
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult SizeOp::inferResultTypes(SmallVectorImpl<Type> &types) {
  types.push_back(RankedTensorType::get({}, IntegerType::get(getContext(), 64)));
  return success();
}
