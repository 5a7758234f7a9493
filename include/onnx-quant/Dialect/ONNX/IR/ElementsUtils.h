//===- ElementsUtils.h - reading and making constant tensors ----*- C++ -*-===//
//
// Weights arrive as `dense` or `dense_resource` attributes (the importer keeps
// tensors above 1 KiB as blobs so they are stored once). Graph passes and
// lowerings read them as plain vectors, through these functions only, and
// write results back in the same form. Integers are read with their ONNX
// signedness: `ui8` zero-extends, `i8` sign-extends.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ELEMENTSUTILS_H
#define ONNXQUANT_DIALECT_ONNX_IR_ELEMENTSUTILS_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace mlir::onnxq {

/// The tensor of the constant defining `value` (`onnx.Constant`, or any
/// other constant-like op, such as the `arith.constant`s of the lowering),
/// the empty tensor for a static shape with no elements, or null.
ElementsAttr getConstantValue(Value value);

/// The elements of a float tensor (f32, f16 or f64) as float, in row-major
/// order; nullopt for other element types or unreadable blobs.
std::optional<SmallVector<float>> getFloatValues(ElementsAttr attr);

/// The elements of an integer tensor, sign-extended (zero-extended for
/// unsigned types); nullopt for other element types.
std::optional<SmallVector<int64_t>> getIntegerValues(ElementsAttr attr);

/// getFloatValues / getIntegerValues of the constant defining `value`.
std::optional<SmallVector<float>> getConstantFloats(Value value);
std::optional<SmallVector<int64_t>> getConstantIntegers(Value value);

/// A float tensor of `type` (f32, f16 or f64) holding `data`, rounded to the
/// element type: a `dense_resource` blob above 1 KiB, `dense` otherwise.
ElementsAttr createFloatElements(ShapedType type, ArrayRef<float> data);

/// An integer tensor of `type` holding `data` (truncated to the width).
ElementsAttr createIntegerElements(ShapedType type, ArrayRef<int64_t> data);

/// `attr` with the same elements in row-major order under a new static shape
/// of the same element type and element count (no copy for blobs).
ElementsAttr reshapeElements(ElementsAttr attr, ShapedType type);

/// A shape for messages: "1x3x224x224" ("scalar" for rank 0, "?" for
/// dynamic dimensions).
std::string formatShape(ArrayRef<int64_t> shape);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_ELEMENTSUTILS_H
