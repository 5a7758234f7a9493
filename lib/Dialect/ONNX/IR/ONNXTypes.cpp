//===- ONNXTypes.cpp - ONNX data types <-> MLIR element types -------------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::onnxq;

Type mlir::onnxq::getElementType(MLIRContext *ctx, int64_t onnxDataType) {
  auto unsignedInt = [&](unsigned width) {
    return IntegerType::get(ctx, width, IntegerType::Unsigned);
  };
  switch (static_cast<ONNXDataType>(onnxDataType)) {
  case ONNXDataType::Float: return Float32Type::get(ctx);
  case ONNXDataType::Double: return Float64Type::get(ctx);
  case ONNXDataType::Float16: return Float16Type::get(ctx);
  case ONNXDataType::BFloat16: return BFloat16Type::get(ctx);
  case ONNXDataType::Int8: return IntegerType::get(ctx, 8);
  case ONNXDataType::Int16: return IntegerType::get(ctx, 16);
  case ONNXDataType::Int32: return IntegerType::get(ctx, 32);
  case ONNXDataType::Int64: return IntegerType::get(ctx, 64);
  case ONNXDataType::UInt8: return unsignedInt(8);
  case ONNXDataType::UInt16: return unsignedInt(16);
  case ONNXDataType::UInt32: return unsignedInt(32);
  case ONNXDataType::UInt64: return unsignedInt(64);
  case ONNXDataType::Bool: return IntegerType::get(ctx, 1);
  case ONNXDataType::Int4: return IntegerType::get(ctx, 4);
  case ONNXDataType::UInt4: return unsignedInt(4);
  default: return {};
  }
}

std::optional<ONNXDataType> mlir::onnxq::getONNXDataType(Type type) {
  if (type.isF32()) return ONNXDataType::Float;
  if (type.isF64()) return ONNXDataType::Double;
  if (type.isF16()) return ONNXDataType::Float16;
  if (type.isBF16()) return ONNXDataType::BFloat16;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType || intType.isSigned()) return std::nullopt;
  bool isUnsigned = intType.isUnsigned();
  switch (intType.getWidth()) {
  case 1: return isUnsigned ? std::nullopt : std::optional(ONNXDataType::Bool);
  case 4: return isUnsigned ? ONNXDataType::UInt4 : ONNXDataType::Int4;
  case 8: return isUnsigned ? ONNXDataType::UInt8 : ONNXDataType::Int8;
  case 16: return isUnsigned ? ONNXDataType::UInt16 : ONNXDataType::Int16;
  case 32: return isUnsigned ? ONNXDataType::UInt32 : ONNXDataType::Int32;
  case 64: return isUnsigned ? ONNXDataType::UInt64 : ONNXDataType::Int64;
  default: return std::nullopt;
  }
}

llvm::StringRef mlir::onnxq::getONNXDataTypeName(int64_t onnxDataType) {
  static const char *const names[] = {
      "UNDEFINED", "FLOAT",  "UINT8",  "INT8",      "UINT16",     "INT16",
      "INT32",     "INT64",  "STRING", "BOOL",      "FLOAT16",    "DOUBLE",
      "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
      "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
      "UINT4", "INT4"};
  if (onnxDataType < 0 || onnxDataType >= int64_t(std::size(names)))
    return "UNKNOWN";
  return names[onnxDataType];
}

bool mlir::onnxq::isPacked4Bit(Type elementType) {
  return elementType.isInteger(4);
}

std::optional<int64_t> mlir::onnxq::getTensorBytes(ShapedType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t bytes =
      std::max<int64_t>(1, (type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
  for (int64_t dim : type.getShape()) {
    std::optional<int64_t> product = llvm::checkedMul(bytes, dim);
    if (!product)
      return std::nullopt;
    bytes = *product;
  }
  return bytes;
}
