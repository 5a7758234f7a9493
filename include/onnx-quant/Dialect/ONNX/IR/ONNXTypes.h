//===- ONNXTypes.h - ONNX data types <-> MLIR element types -----*- C++ -*-===//
//
// The mapping is fixed: signed integers are signless (`i8`), unsigned ones are
// `uiN`, bool is `i1`. It lives with the dialect (not the importer) because
// Cast's `to` attribute and the exporter need it too.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXTYPES_H
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXTYPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir::onnxq {

/// ONNX TensorProto::DataType values (stable across ONNX versions).
enum class ONNXDataType : int64_t {
  Undefined = 0, Float = 1, UInt8 = 2, Int8 = 3, UInt16 = 4, Int16 = 5,
  Int32 = 6, Int64 = 7, String = 8, Bool = 9, Float16 = 10, Double = 11,
  UInt32 = 12, UInt64 = 13, Complex64 = 14, Complex128 = 15, BFloat16 = 16,
  Float8E4M3FN = 17, Float8E4M3FNUZ = 18, Float8E5M2 = 19, Float8E5M2FNUZ = 20,
  UInt4 = 21, Int4 = 22,
};

/// The MLIR element type of an ONNX data type; null for types the dialect
/// does not represent (string, complex, unknown numbers).
Type getElementType(MLIRContext *context, int64_t onnxDataType);

/// The ONNX data type of an MLIR element type, if it has one.
std::optional<ONNXDataType> getONNXDataType(Type elementType);

/// ONNX's name of a data type ("FLOAT", "UINT8", ...), for diagnostics.
llvm::StringRef getONNXDataTypeName(int64_t onnxDataType);

/// Whether `elementType` is int4 or uint4, which ONNX stores two to a byte
/// (the first element in the low nibble).
bool isPacked4Bit(Type elementType);

/// The bytes a static-shaped tensor of `type` occupies (a byte at least per
/// element); nothing when that does not fit in an int64_t (a model asking
/// for 2^66 elements), so that no size silently wraps around.
std::optional<int64_t> getTensorBytes(ShapedType type);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXTYPES_H
