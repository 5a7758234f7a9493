//===- FlatBuffer.h - a strided buffer as a flat unit-stride one -*- C++ -*-===//
//
// Code that computes its own addresses (the contraction kernels, strided
// reads turned into contiguous ones) reads a static strided view as the
// flat unit-stride span of memory it covers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_FLATBUFFER_H
#define ONNXQUANT_LIB_CODEGEN_FLATBUFFER_H

#include "mlir/IR/Builders.h"

namespace mlir::onnxq {

/// `value`, a strided memref, as the 1-D unit-stride
/// memref of the elements from its first to its last: element
/// sum(index[d] * stride[d]) of the result is `value[index]`.
Value flattenBuffer(OpBuilder &b, Location loc, Value value);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_FLATBUFFER_H
