//===- Folders.cpp - fold and constant-evaluate onnx ops -------------------===//
//
// Two kinds of folds: no-ops (Identity, Cast to the same type, Add of zero, ...)
// fold to an operand, and ops whose operands are all constants are evaluated
// at compile time (the Shape/Gather/Concat/Unsqueeze chains of exported
// models, and constant sub-graphs in general). Evaluation needs a static
// result type; the result keeps the element type and becomes a blob above
// 1 KiB like the importer's initializers.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "VerifyUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;
using namespace mlir::onnxq::detail;

namespace {

/// Tensors above this many elements are not evaluated at compile time.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 24;

/// Casts of 4- or 8-bit integer constants to wider integers above this many
/// elements are not folded (the narrow bytes stay in the object).
constexpr int64_t kMaxWidenedElements = 1024;

/// ConstantOfShape results above this many elements are not folded.
constexpr int64_t kMaxFoldedFills = 64;

ShapedType getStaticResultType(Value result) {
  auto type = dyn_cast<RankedTensorType>(result.getType());
  return type && type.hasStaticShape() &&
                 type.getNumElements() <= kMaxFoldedElements
             ? type
             : nullptr;
}

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// The elements of `source` at `indices` (row-major positions), as a tensor of
/// `type`. Works for float and integer tensors alike.
ElementsAttr gatherElements(ElementsAttr source, ShapedType type,
                            ArrayRef<int64_t> indices) {
  if (auto floats = getFloatValues(source)) {
    SmallVector<float> out;
    out.reserve(indices.size());
    for (int64_t i : indices)
      out.push_back((*floats)[i]);
    return createFloatElements(type, out);
  }
  if (auto ints = getIntegerValues(source)) {
    SmallVector<int64_t> out;
    out.reserve(indices.size());
    for (int64_t i : indices)
      out.push_back((*ints)[i]);
    return createIntegerElements(type, out);
  }
  return nullptr;
}

/// For each element of `result` (static shape), the position of the element of
/// `operand` that numpy broadcasting reads.
SmallVector<int64_t> broadcastIndices(ArrayRef<int64_t> operand,
                                      ArrayRef<int64_t> result) {
  int64_t offset = result.size() - operand.size();
  SmallVector<int64_t> strides = getStrides(operand);
  SmallVector<int64_t> resultStrides = getStrides(result);
  int64_t count = 1;
  for (int64_t d : result)
    count *= d;
  SmallVector<int64_t> indices(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t index = 0;
    for (size_t d = 0; d < operand.size(); ++d) {
      int64_t coord = (i / resultStrides[d + offset]) % result[d + offset];
      index += operand[d] == 1 ? 0 : coord * strides[d];
    }
    indices[i] = index;
  }
  return indices;
}

/// Evaluates an element-wise binary op on two constants with broadcasting;
/// `intFn` may be null (no integer evaluation).
template <typename FloatFn, typename IntFn>
ElementsAttr evaluateBinary(Attribute lhs, Attribute rhs, Value result,
                            FloatFn floatFn, IntFn intFn) {
  auto a = dyn_cast_or_null<ElementsAttr>(lhs);
  auto b = dyn_cast_or_null<ElementsAttr>(rhs);
  ShapedType type = getStaticResultType(result);
  if (!a || !b || !type || a.getElementType() != type.getElementType() ||
      b.getElementType() != type.getElementType())
    return nullptr;
  SmallVector<int64_t> ia = broadcastIndices(a.getShapedType().getShape(),
                                             type.getShape());
  SmallVector<int64_t> ib = broadcastIndices(b.getShapedType().getShape(),
                                             type.getShape());
  Type element = type.getElementType();
  if (element.isF32() || element.isF16()) {
    auto va = getFloatValues(a), vb = getFloatValues(b);
    if (!va || !vb)
      return nullptr;
    SmallVector<float> out(ia.size());
    for (size_t i = 0; i < ia.size(); ++i)
      out[i] = floatFn((*va)[ia[i]], (*vb)[ib[i]]);
    return createFloatElements(type, out);
  }
  if (!element.isSignlessInteger(32) && !element.isSignlessInteger(64))
    return nullptr;
  auto va = getIntegerValues(a), vb = getIntegerValues(b);
  if (!va || !vb)
    return nullptr;
  SmallVector<int64_t> out(ia.size());
  for (size_t i = 0; i < ia.size(); ++i) {
    std::optional<int64_t> v = intFn((*va)[ia[i]], (*vb)[ib[i]]);
    if (!v)
      return nullptr;
    out[i] = *v;
  }
  return createIntegerElements(type, out);
}

/// Evaluates an element-wise unary float op on a constant.
template <typename FloatFn>
ElementsAttr evaluateUnary(Attribute operand, Value result, FloatFn fn) {
  auto a = dyn_cast_or_null<ElementsAttr>(operand);
  ShapedType type = getStaticResultType(result);
  if (!a || !type || a.getShapedType() != type ||
      !(type.getElementType().isF32() || type.getElementType().isF16()))
    return nullptr;
  std::optional<SmallVector<float>> values = getFloatValues(a);
  if (!values)
    return nullptr;
  for (float &v : *values)
    v = fn(v);
  return createFloatElements(type, *values);
}

/// True when `attr` is a constant whose every element equals `value`.
bool isSplatOf(Attribute attr, double value) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements)
    return false;
  if (auto floats = getFloatValues(elements))
    return llvm::all_of(*floats, [&](float v) { return v == value; });
  if (auto ints = getIntegerValues(elements))
    return llvm::all_of(*ints, [&](int64_t v) { return double(v) == value; });
  return false;
}

/// `x op c` is `x` when c is the identity element and broadcasting does not
/// change x's type.
OpFoldResult foldIdentityOperand(Value x, Attribute c, Value result,
                                 double identity) {
  return x.getType() == result.getType() && isSplatOf(c, identity)
             ? OpFoldResult(x)
             : nullptr;
}

/// The constant `attr` with the static type of `result` (a pure reshape).
OpFoldResult foldReshapeOfConstant(Attribute attr, Value result) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  ShapedType type = getStaticResultType(result);
  if (!elements || !type || elements.getElementType() != type.getElementType())
    return nullptr;
  return reshapeElements(elements, type);
}

std::optional<int64_t> checkedDiv(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  // ONNX integer Div truncates toward zero, as C++ does.
  return a / b;
}

} // namespace

//===----------------------------------------------------------------------===//
// No-op folds and reshapes
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  if (type && type.hasStaticShape() && getData().getType() == type)
    return getData();
  return foldReshapeOfConstant(adaptor.getData(), getReshaped());
}

OpFoldResult FlattenOp::fold(FoldAdaptor adaptor) {
  return foldReshapeOfConstant(adaptor.getInput(), getOutput());
}

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeOfConstant(adaptor.getData(), getSqueezed());
}

OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeOfConstant(adaptor.getData(), getExpanded());
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  auto in = dyn_cast<RankedTensorType>(getData().getType());
  if (!in)
    return nullptr;
  SmallVector<int64_t> perm =
      getPerm() ? getI64Values(*getPerm())
                : llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(in.getRank())));
  if (getData().getType() == getType() &&
      llvm::equal(perm, llvm::seq<int64_t>(perm.size())))
    return getData();
  auto source = dyn_cast_or_null<ElementsAttr>(adaptor.getData());
  ShapedType type = getStaticResultType(getTransposed());
  if (!source || !type || !in.hasStaticShape())
    return nullptr;
  SmallVector<int64_t> inStrides = getStrides(in.getShape());
  SmallVector<int64_t> outStrides = getStrides(type.getShape());
  SmallVector<int64_t> indices(type.getNumElements());
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    int64_t index = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      index += (i / outStrides[d]) % type.getDimSize(d) * inStrides[perm[d]];
    indices[i] = index;
  }
  return gatherElements(source, type, indices);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  auto source = dyn_cast_or_null<ElementsAttr>(adaptor.getInput());
  ShapedType type = getStaticResultType(getOutput());
  if (!source || !type || source.getShapedType().getShape() != type.getShape())
    return nullptr;
  Type to = type.getElementType();
  bool toFloat = to.isF32() || to.isF16();
  // Narrow integers widened for indexing (a codebook's 4- or 8-bit indices)
  // stay narrow in the object: the Cast runs when the model does.
  Type from = source.getElementType();
  if (from.isIntOrIndex() && from.getIntOrFloatBitWidth() <= 8 &&
      isa<IntegerType>(to) && to.getIntOrFloatBitWidth() > 8 &&
      type.getNumElements() > kMaxWidenedElements)
    return nullptr;
  if (auto ints = getIntegerValues(source)) {
    if (toFloat)
      return createFloatElements(
          type, llvm::to_vector(llvm::map_range(
                    *ints, [](int64_t v) { return float(v); })));
    if (to.isInteger(1)) // bool: any non-zero is true
      for (int64_t &v : *ints)
        v = v != 0;
    if (isa<IntegerType>(to))
      return createIntegerElements(type, *ints);
    return nullptr;
  }
  // Float to integer is left to run time: out-of-range values are undefined.
  if (auto floats = getFloatValues(source); floats && toFloat)
    return createFloatElements(type, *floats);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Shapes and data movement on constants
//===----------------------------------------------------------------------===//

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto in = dyn_cast<RankedTensorType>(getData().getType());
  ShapedType type = getStaticResultType(getShape());
  if (!in || !in.hasStaticShape() || !type)
    return nullptr;
  auto [start, end] = getDimRange(in.getRank());
  SmallVector<int64_t> dims;
  for (int64_t d = start; d < end; ++d)
    dims.push_back(in.getDimSize(d));
  if (int64_t(dims.size()) != type.getNumElements())
    return nullptr;
  return createIntegerElements(type, dims);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = dyn_cast_or_null<ElementsAttr>(adaptor.getData());
  auto indicesAttr = dyn_cast_or_null<ElementsAttr>(adaptor.getIndices());
  ShapedType type = getStaticResultType(getOutput());
  if (!data || !indicesAttr || !type)
    return nullptr;
  std::optional<SmallVector<int64_t>> indices = getIntegerValues(indicesAttr);
  ArrayRef<int64_t> shape = data.getShapedType().getShape();
  int64_t axis = normalizeAxis(getAxis(), int64_t(shape.size()));
  if (!indices || axis < 0 || axis >= int64_t(shape.size()))
    return nullptr;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t extent = shape[axis];
  SmallVector<int64_t> positions;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : *indices) {
      if (index < -extent || index >= extent)
        return nullptr; // out of range: left for the lowering to report
      int64_t k = index < 0 ? index + extent : index;
      for (int64_t i = 0; i < inner; ++i)
        positions.push_back((o * extent + k) * inner + i);
    }
  if (int64_t(positions.size()) != type.getNumElements())
    return nullptr;
  return gatherElements(data, type, positions);
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  ShapedType type = getStaticResultType(getConcatResult());
  if (!type)
    return nullptr;
  int64_t axis = normalizeAxis(getAxis(), type.getRank());
  // Rows of the result: every input contributes a contiguous chunk of its
  // elements from dimension `axis` on to each row.
  int64_t rows = 1;
  for (int64_t d = 0; d < axis; ++d)
    rows *= type.getDimSize(d);
  SmallVector<ElementsAttr> inputs;
  for (Attribute attr : adaptor.getInputs()) {
    auto elements = dyn_cast_or_null<ElementsAttr>(attr);
    if (!elements || elements.getElementType() != type.getElementType())
      return nullptr;
    inputs.push_back(elements);
  }
  bool isFloat = isa<FloatType>(type.getElementType());
  SmallVector<float> floats;
  SmallVector<int64_t> ints;
  SmallVector<SmallVector<float>> inFloats;
  SmallVector<SmallVector<int64_t>> inInts;
  for (ElementsAttr input : inputs) {
    if (isFloat) {
      auto values = getFloatValues(input);
      if (!values)
        return nullptr;
      inFloats.push_back(std::move(*values));
    } else {
      auto values = getIntegerValues(input);
      if (!values)
        return nullptr;
      inInts.push_back(std::move(*values));
    }
  }
  for (int64_t r = 0; r < rows; ++r)
    for (size_t k = 0; k < inputs.size(); ++k) {
      int64_t chunk = inputs[k].getNumElements() / rows;
      if (isFloat)
        llvm::append_range(floats, ArrayRef(inFloats[k]).slice(r * chunk, chunk));
      else
        llvm::append_range(ints, ArrayRef(inInts[k]).slice(r * chunk, chunk));
    }
  int64_t total = isFloat ? floats.size() : ints.size();
  if (total != type.getNumElements())
    return nullptr;
  return isFloat ? createFloatElements(type, floats)
                 : createIntegerElements(type, ints);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto data = dyn_cast_or_null<ElementsAttr>(adaptor.getData());
  ShapedType type = getStaticResultType(getOutput());
  auto ints = [](Attribute attr) -> std::optional<SmallVector<int64_t>> {
    auto elements = dyn_cast_or_null<ElementsAttr>(attr);
    return elements ? getIntegerValues(elements) : std::nullopt;
  };
  std::optional<SmallVector<int64_t>> starts = ints(adaptor.getStarts());
  std::optional<SmallVector<int64_t>> ends = ints(adaptor.getEnds());
  if (!data || !type || !starts || !ends || starts->size() != ends->size())
    return nullptr;
  ArrayRef<int64_t> shape = data.getShapedType().getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(starts->size()));
  SmallVector<int64_t> steps(starts->size(), 1);
  if (getAxes()) {
    auto given = ints(adaptor.getAxes());
    if (!given || given->size() != starts->size())
      return nullptr;
    axes = *given;
  }
  if (getSteps()) {
    auto given = ints(adaptor.getSteps());
    if (!given || given->size() != starts->size())
      return nullptr;
    steps = *given;
  }
  // Per dimension: first index and step (ONNX clamping rules).
  SmallVector<int64_t> first(rank, 0), step(rank, 1);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = normalizeAxis(axes[i], rank);
    if (axis < 0 || axis >= rank || steps[i] == 0)
      return nullptr;
    first[axis] = sliceDim((*starts)[i], (*ends)[i], steps[i], shape[axis]).first;
    step[axis] = steps[i];
  }
  SmallVector<int64_t> inStrides = getStrides(shape);
  SmallVector<int64_t> outStrides = getStrides(type.getShape());
  SmallVector<int64_t> positions(type.getNumElements());
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    int64_t index = 0;
    for (int64_t d = 0; d < rank; ++d)
      index += (first[d] + (i / outStrides[d]) % type.getDimSize(d) * step[d]) *
               inStrides[d];
    positions[i] = index;
  }
  return gatherElements(data, type, positions);
}

//===----------------------------------------------------------------------===//
// Element-wise arithmetic
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult x = foldIdentityOperand(getA(), adaptor.getB(), getC(), 0))
    return x;
  if (OpFoldResult x = foldIdentityOperand(getB(), adaptor.getA(), getC(), 0))
    return x;
  return evaluateBinary(
      adaptor.getA(), adaptor.getB(), getC(),
      [](float a, float b) { return a + b; },
      [](int64_t a, int64_t b) -> std::optional<int64_t> {
        return int64_t(uint64_t(a) + uint64_t(b)); // wraps, as at run time
      });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult x = foldIdentityOperand(getA(), adaptor.getB(), getC(), 0))
    return x;
  return evaluateBinary(
      adaptor.getA(), adaptor.getB(), getC(),
      [](float a, float b) { return a - b; },
      [](int64_t a, int64_t b) -> std::optional<int64_t> {
        return int64_t(uint64_t(a) - uint64_t(b));
      });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult x = foldIdentityOperand(getA(), adaptor.getB(), getC(), 1))
    return x;
  if (OpFoldResult x = foldIdentityOperand(getB(), adaptor.getA(), getC(), 1))
    return x;
  return evaluateBinary(
      adaptor.getA(), adaptor.getB(), getC(),
      [](float a, float b) { return a * b; },
      [](int64_t a, int64_t b) -> std::optional<int64_t> {
        return int64_t(uint64_t(a) * uint64_t(b));
      });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult x = foldIdentityOperand(getA(), adaptor.getB(), getC(), 1))
    return x;
  return evaluateBinary(adaptor.getA(), adaptor.getB(), getC(),
                        [](float a, float b) { return a / b; }, checkedDiv);
}

/// Max or Min of one or two constants (`pick` chooses between two values;
/// a float NaN wins, as at run time).
template <typename Pick>
static OpFoldResult foldExtremum(ValueRange operands,
                                 ArrayRef<Attribute> constants, Value result,
                                 Pick pick) {
  if (operands.size() == 1)
    return operands[0].getType() == result.getType() ? OpFoldResult(operands[0])
                                                     : nullptr;
  if (operands.size() != 2)
    return nullptr;
  return evaluateBinary(
      constants[0], constants[1], result,
      [&](float a, float b) {
        return std::isnan(a) || std::isnan(b) ? NAN : pick(a, b);
      },
      [&](int64_t a, int64_t b) -> std::optional<int64_t> {
        return pick(a, b);
      });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  return foldExtremum(getData_0(), adaptor.getData_0(), getResult(),
                      [](auto a, auto b) { return std::max(a, b); });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  return foldExtremum(getData_0(), adaptor.getData_0(), getResult(),
                      [](auto a, auto b) { return std::min(a, b); });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // Integers too: shape computations negate axes (LayerNormalization's
  // expanded form).
  auto x = dyn_cast_or_null<ElementsAttr>(adaptor.getX());
  ShapedType type = getStaticResultType(getY());
  if (x && type && x.getShapedType() == type &&
      isa<IntegerType>(type.getElementType()))
    if (std::optional<SmallVector<int64_t>> values = getIntegerValues(x)) {
      for (int64_t &v : *values)
        v = int64_t(0 - uint64_t(v));
      return createIntegerElements(type, *values);
    }
  return evaluateUnary(adaptor.getX(), getY(), [](float v) { return -v; });
}

OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  return evaluateUnary(adaptor.getX(), getY(),
                       [](float v) { return std::sqrt(v); });
}

OpFoldResult ReciprocalOp::fold(FoldAdaptor adaptor) {
  return evaluateUnary(adaptor.getX(), getY(),
                       [](float v) { return 1.0f / v; });
}

//===----------------------------------------------------------------------===//
// Tensors generated from shapes
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOfShapeOp::fold(FoldAdaptor) {
  // Large ones stay: a fill at run time costs less than storing every
  // element in the object.
  ShapedType type = getStaticResultType(getOutput());
  if (!type || type.getNumElements() > kMaxFoldedFills)
    return nullptr;
  if (!getValue())
    return DenseElementsAttr::get(type, FloatAttr::get(type.getElementType(), 0.0));
  ElementsAttr value = *getValue();
  if (value.getElementType() != type.getElementType())
    return nullptr;
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  if (auto floats = getFloatValues(value))
    return createFloatElements(type, SmallVector<float>(type.getNumElements(),
                                                        (*floats)[0]));
  if (auto ints = getIntegerValues(value))
    return createIntegerElements(
        type, SmallVector<int64_t>(type.getNumElements(), (*ints)[0]));
  return nullptr;
}

OpFoldResult RangeOp::fold(FoldAdaptor adaptor) {
  ShapedType type = getStaticResultType(getOutput());
  auto start = dyn_cast_or_null<ElementsAttr>(adaptor.getStart());
  auto delta = dyn_cast_or_null<ElementsAttr>(adaptor.getDelta());
  if (!type || !start || !delta)
    return nullptr;
  int64_t length = type.getNumElements();
  // output[i] = start + i * delta, in the element type.
  if (isa<FloatType>(type.getElementType())) {
    auto first = getFloatValues(start), step = getFloatValues(delta);
    if (!first || !step || !type.getElementType().isF32())
      return nullptr;
    SmallVector<float> values;
    for (int64_t i = 0; i < length; ++i)
      values.push_back((*first)[0] + float(i) * (*step)[0]);
    return createFloatElements(type, values);
  }
  auto first = getIntegerValues(start), step = getIntegerValues(delta);
  if (!first || !step)
    return nullptr;
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < length; ++i)
    values.push_back((*first)[0] + i * (*step)[0]);
  return createIntegerElements(type, values);
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  auto in = dyn_cast<RankedTensorType>(getData().getType());
  auto type = dyn_cast<RankedTensorType>(getSize().getType());
  if (!in || !in.hasStaticShape() || !type)
    return nullptr;
  return createIntegerElements(type, {in.getNumElements()});
}
