//===- TensorImporter.cpp - ONNX tensors and types to MLIR ----------------===//

#include "TensorImporter.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnxq;
namespace onnxpb = ONNX_NAMESPACE;

TensorType mlir::onnxq::importType(const onnxpb::TypeProto &type,
                                   MLIRContext *ctx) {
  if (!type.has_tensor_type())
    return nullptr;
  Type elementType = getElementType(ctx, type.tensor_type().elem_type());
  if (!elementType)
    return nullptr;
  if (!type.tensor_type().has_shape())
    return UnrankedTensorType::get(elementType);
  SmallVector<int64_t> shape;
  for (const auto &dim : type.tensor_type().shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return RankedTensorType::get(shape, elementType);
}

namespace {
/// Where a tensor's bytes are: a view of protobuf-owned raw bytes, or bytes
/// this importer had to produce (typed fields, external files).
struct TensorBytes {
  StringRef view;
  std::vector<char> owned;
  std::unique_ptr<llvm::MemoryBuffer> file;
};
} // namespace

/// Packs the typed repeated field of `tensor` into little-endian bytes of
/// `width` bytes per element.
template <typename Range>
static void packValues(const Range &values, unsigned width,
                       std::vector<char> &out) {
  out.resize(size_t(values.size()) * width);
  char *dst = out.data();
  for (auto value : values) {
    if constexpr (std::is_floating_point_v<decltype(value)>) {
      if (width == 4) {
        float f = static_cast<float>(value);
        std::memcpy(dst, &f, 4);
      } else {
        double d = static_cast<double>(value);
        std::memcpy(dst, &d, 8);
      }
    } else {
      uint64_t bits = static_cast<uint64_t>(value);
      std::memcpy(dst, &bits, width); // little-endian hosts only
    }
    dst += width;
  }
}

/// Where a tensor's external bytes are, as its `external_data` entries say.
struct ExternalDataRef {
  std::string location;
  uint64_t offset = 0, length = 0;
  bool hasLength = false;
};

static FailureOr<ExternalDataRef>
parseExternalData(const onnxpb::TensorProto &tensor, Location loc) {
  ExternalDataRef ref;
  for (const auto &entry : tensor.external_data()) {
    if (entry.key() == "location")
      ref.location = entry.value();
    else if ((entry.key() == "offset" &&
              StringRef(entry.value()).getAsInteger(10, ref.offset)) ||
             (entry.key() == "length" &&
              StringRef(entry.value()).getAsInteger(10, ref.length)))
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' has a malformed external data "
                            << entry.key() << " '" << entry.value() << "'";
    ref.hasLength |= entry.key() == "length";
  }
  if (ref.location.empty())
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has external data without a location";
  return ref;
}

/// The file `ref` names, checked to lie inside `modelDir`.
static FailureOr<std::string> resolvePath(const onnxpb::TensorProto &tensor,
                                          const ExternalDataRef &ref,
                                          StringRef modelDir, Location loc) {
  // A model from the internet must not make the compiler read other files
  // into its weights: like the ONNX checker and ONNX Runtime, only files
  // inside the model's directory (after resolving symlinks) are read.
  auto refuse = [&](StringRef why) {
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': external data location '" << ref.location
                          << "' " << why
                          << "; external data must be a file inside the "
                             "model's directory";
  };
  StringRef location = ref.location;
  if (llvm::sys::path::is_absolute(location) ||
      llvm::sys::path::has_root_name(location))
    return refuse("is an absolute path");
  for (StringRef part : llvm::make_range(llvm::sys::path::begin(location),
                                         llvm::sys::path::end(location)))
    if (part == "..")
      return refuse("leaves the model's directory ('..')");
  StringRef dir = modelDir.empty() ? StringRef(".") : modelDir;
  SmallString<256> path(dir);
  llvm::sys::path::append(path, location);
  SmallString<256> realDir, realPath;
  if (llvm::sys::fs::real_path(dir, realDir))
    return emitError(loc) << "cannot resolve the model's directory '"
                          << modelDir << "'";
  if (llvm::sys::fs::real_path(path, realPath))
    return emitError(loc) << "external data file '" << path << "' of tensor '"
                          << tensor.name()
                          << "' does not exist; keep it next to the model";
  llvm::sys::path::append(realDir, "");
  if (!StringRef(realPath).starts_with(realDir))
    return refuse(("resolves to '" + realPath + "', outside the model's "
                   "directory (a symlink?)")
                      .str());
  return std::string(path);
}

FailureOr<std::string>
mlir::onnxq::resolveExternalDataPath(const onnxpb::TensorProto &tensor,
                                     StringRef modelDir, Location loc) {
  FailureOr<ExternalDataRef> ref = parseExternalData(tensor, loc);
  if (failed(ref))
    return failure();
  return resolvePath(tensor, *ref, modelDir, loc);
}

static LogicalResult readExternal(const onnxpb::TensorProto &tensor,
                                  StringRef modelDir, Location loc,
                                  TensorBytes &bytes) {
  FailureOr<ExternalDataRef> ref = parseExternalData(tensor, loc);
  if (failed(ref))
    return failure();
  FailureOr<std::string> path = resolvePath(tensor, *ref, modelDir, loc);
  if (failed(path))
    return failure();
  uint64_t offset = ref->offset, length = ref->length;
  uint64_t fileSize = 0;
  if (llvm::sys::fs::file_size(*path, fileSize))
    return emitError(loc) << "external data file '" << *path
                          << "' of tensor '" << tensor.name()
                          << "' is not a readable file";
  if (offset > fileSize)
    return emitError(loc) << "external data file '" << *path << "' is "
                          << fileSize << " bytes, but tensor '"
                          << tensor.name() << "' starts at offset " << offset;
  if (!ref->hasLength)
    length = fileSize - offset;
  if (length > fileSize - offset)
    return emitError(loc) << "external data file '" << *path << "' is "
                          << fileSize << " bytes, but tensor '"
                          << tensor.name() << "' needs bytes [" << offset
                          << ", " << offset + length << ")";
  auto buffer = llvm::MemoryBuffer::getFileSlice(*path, length, offset,
                                                 /*IsVolatile=*/false);
  if (!buffer)
    return emitError(loc) << "cannot read external data file '" << *path
                          << "': " << buffer.getError().message();
  bytes.file = std::move(*buffer);
  bytes.view = bytes.file->getBuffer();
  return success();
}

/// Spreads `count` 4-bit values, two to a byte with the first in the low
/// nibble (ONNX's layout), to a byte each (MLIR's layout of i4 elements),
/// sign-extended for int4.
static void unpack4Bit(TensorBytes &bytes, int64_t count, bool isUnsigned) {
  std::vector<char> spread(count);
  for (int64_t i = 0; i < count; ++i) {
    uint8_t nibble = (uint8_t(bytes.view[i / 2]) >> (4 * (i % 2))) & 0xF;
    spread[i] = char(isUnsigned || nibble < 8 ? nibble : nibble - 16);
  }
  bytes.owned = std::move(spread);
  bytes.view = StringRef(bytes.owned.data(), bytes.owned.size());
}

static LogicalResult getBytes(const onnxpb::TensorProto &tensor,
                              unsigned width, StringRef modelDir, Location loc,
                              TensorBytes &bytes) {
  using T = onnxpb::TensorProto;
  if (tensor.data_location() == T::EXTERNAL)
    return readExternal(tensor, modelDir, loc, bytes);
  if (tensor.has_raw_data()) {
    bytes.view = tensor.raw_data();
    return success();
  }
  switch (tensor.data_type()) {
  case T::FLOAT: packValues(tensor.float_data(), width, bytes.owned); break;
  case T::DOUBLE: packValues(tensor.double_data(), width, bytes.owned); break;
  case T::INT64: packValues(tensor.int64_data(), width, bytes.owned); break;
  case T::UINT32:
  case T::UINT64: packValues(tensor.uint64_data(), width, bytes.owned); break;
  default: packValues(tensor.int32_data(), width, bytes.owned); break;
  }
  bytes.view = StringRef(bytes.owned.data(), bytes.owned.size());
  return success();
}

FailureOr<ElementsAttr>
mlir::onnxq::importTensor(const onnxpb::TensorProto &tensor, MLIRContext *ctx,
                          StringRef modelDir, size_t resourceThresholdBytes,
                          Location loc) {
  Type elementType = getElementType(ctx, tensor.data_type());
  if (!elementType)
    return emitError(loc) << "tensor '" << tensor.name() << "' has data type "
                          << getONNXDataTypeName(tensor.data_type())
                          << ", which onnx-quant does not support";
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has a negative dimension";
  auto type = RankedTensorType::get(shape, elementType);
  std::optional<int64_t> expected = getTensorBytes(type);
  if (!expected)
    return emitError(loc) << "tensor '" << tensor.name() << "' (" << type
                          << ") is larger than a 64-bit size can hold";
  unsigned width = std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  TensorBytes bytes;
  if (failed(getBytes(tensor, width, modelDir, loc, bytes)))
    return failure();
  bool packed = isPacked4Bit(elementType);
  if (packed && bytes.view.size() == uint64_t(*expected + 1) / 2)
    unpack4Bit(bytes, *expected, elementType.isUnsignedInteger());
  else if (packed)
    return emitError(loc) << "tensor '" << tensor.name() << "' holds "
                          << bytes.view.size() << " bytes of data, but "
                          << type << " needs " << (*expected + 1) / 2
                          << " (two 4-bit values a byte)";
  if (bytes.view.size() != uint64_t(*expected))
    return emitError(loc) << "tensor '" << tensor.name() << "' holds "
                          << bytes.view.size() << " bytes of data, but "
                          << type << " needs " << *expected;
  if (elementType.isInteger(1)) {
    SmallVector<bool> values(bytes.view.begin(), bytes.view.end());
    return ElementsAttr(DenseElementsAttr::get(type, ArrayRef<bool>(values)));
  }
  ArrayRef<char> data(bytes.view.data(), bytes.view.size());
  if (data.size() <= resourceThresholdBytes)
    return ElementsAttr(DenseElementsAttr::getFromRawBuffer(type, data));
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(data, alignof(uint64_t));
  std::string key = tensor.name().empty() ? "tensor" : tensor.name();
  return ElementsAttr(DenseResourceElementsAttr::get(type, key, std::move(blob)));
}
