//===- ElementsUtils.cpp - reading and making constant tensors ------------===//

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnxq;

/// Tensors above this size become blobs, as the importer does.
static constexpr size_t kResourceThresholdBytes = 1024;

ElementsAttr mlir::onnxq::getConstantValue(Value value) {
  if (!value)
    return nullptr;
  ElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  // A tensor with no elements has one possible value, whatever computes it
  // (ONNX tests pass an empty `axes` as a graph input).
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && type.hasStaticShape() && type.getNumElements() == 0)
    return DenseElementsAttr::get(type, ArrayRef<Attribute>());
  return nullptr;
}

/// The raw bytes of a blob-backed tensor, or nullopt.
static std::optional<ArrayRef<char>> getBlobBytes(ElementsAttr attr) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  return blob->getData();
}

/// Reads element `i` of type T from unaligned bytes.
template <typename T> static T loadElement(ArrayRef<char> bytes, size_t i) {
  T value;
  std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

std::optional<SmallVector<float>> mlir::onnxq::getFloatValues(ElementsAttr attr) {
  auto floatType = attr ? dyn_cast<FloatType>(attr.getElementType()) : nullptr;
  if (!floatType || !(floatType.isF32() || floatType.isF16() || floatType.isF64()))
    return std::nullopt;
  int64_t n = attr.getNumElements();
  SmallVector<float> values;
  values.reserve(n);
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v.convertToFloat());
    }
    return values;
  }
  std::optional<ArrayRef<char>> bytes = getBlobBytes(attr);
  unsigned width = floatType.getWidth() / 8;
  if (!bytes || bytes->size() != size_t(n) * width)
    return std::nullopt;
  for (int64_t i = 0; i < n; ++i) {
    if (floatType.isF32())
      values.push_back(loadElement<float>(*bytes, i));
    else if (floatType.isF64())
      values.push_back(float(loadElement<double>(*bytes, i)));
    else
      values.push_back(
          APFloat(APFloat::IEEEhalf(), APInt(16, loadElement<uint16_t>(*bytes, i)))
              .convertToFloat());
  }
  return values;
}

std::optional<SmallVector<float>> mlir::onnxq::getConstantFloats(Value value) {
  return getFloatValues(getConstantValue(value));
}

std::optional<SmallVector<int64_t>>
mlir::onnxq::getConstantIntegers(Value value) {
  return getIntegerValues(getConstantValue(value));
}

std::optional<SmallVector<int64_t>>
mlir::onnxq::getIntegerValues(ElementsAttr attr) {
  auto intType = attr ? dyn_cast<IntegerType>(attr.getElementType()) : nullptr;
  if (!intType)
    return std::nullopt;
  bool isUnsigned = intType.isUnsigned();
  int64_t n = attr.getNumElements();
  SmallVector<int64_t> values;
  values.reserve(n);
  auto extend = [&](const APInt &v) {
    return isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(intType.getWidth() == 1 ? int64_t(v.getBoolValue())
                                               : extend(v));
    return values;
  }
  std::optional<ArrayRef<char>> bytes = getBlobBytes(attr);
  unsigned width = std::max(1u, intType.getWidth() / 8);
  if (!bytes || bytes->size() != size_t(n) * width)
    return std::nullopt;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes->data() + i * width, width); // little endian
    values.push_back(intType.getWidth() == 1
                         ? int64_t(raw != 0)
                         : extend(APInt(intType.getWidth(), raw, /*isSigned=*/false,
                                        /*implicitTrunc=*/true)));
  }
  return values;
}

/// A blob above the threshold, `dense` otherwise; `bytes` hold the elements of
/// `type` in memory order.
static ElementsAttr createElements(ShapedType type, ArrayRef<char> bytes,
                                   function_ref<ElementsAttr()> makeDense) {
  if (bytes.size() <= kResourceThresholdBytes)
    return makeDense();
  return DenseResourceElementsAttr::get(
      type, "onnxq_folded",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t)));
}

ElementsAttr mlir::onnxq::createFloatElements(ShapedType type,
                                              ArrayRef<float> data) {
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> converted;
  converted.reserve(data.size());
  SmallVector<char> bytes;
  unsigned width = floatType.getWidth() / 8;
  bytes.resize(data.size() * width);
  for (auto [i, v] : llvm::enumerate(data)) {
    APFloat f(v);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    uint64_t raw = f.bitcastToAPInt().getZExtValue();
    std::memcpy(bytes.data() + i * width, &raw, width); // little endian
    converted.push_back(f);
  }
  return createElements(type, bytes, [&] {
    return ElementsAttr(DenseElementsAttr::get(type, converted));
  });
}

ElementsAttr mlir::onnxq::createIntegerElements(ShapedType type,
                                                ArrayRef<int64_t> data) {
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  unsigned width = std::max(1u, bits / 8);
  SmallVector<APInt> converted;
  SmallVector<char> bytes(data.size() * width);
  for (auto [i, v] : llvm::enumerate(data)) {
    APInt value(bits, uint64_t(v), /*isSigned=*/true, /*implicitTrunc=*/true);
    std::memcpy(bytes.data() + i * width, value.getRawData(), width);
    converted.push_back(value);
  }
  return createElements(type, bytes, [&] {
    return ElementsAttr(DenseElementsAttr::get(type, converted));
  });
}

ElementsAttr mlir::onnxq::reshapeElements(ElementsAttr attr, ShapedType type) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.reshape(type);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return nullptr;
}

std::string mlir::onnxq::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  for (auto [i, d] : llvm::enumerate(shape))
    text += (i ? "x" : "") + (ShapedType::isDynamic(d) ? "?" : std::to_string(d));
  return text;
}
