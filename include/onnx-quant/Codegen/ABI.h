//===- ABI.h - the C interface of a compiled model --------------*- C++ -*-===//
//
// The C names and the header of a compiled model, from the ABI record that
// `onnxq-record-abi` stores on the module (Dialect/ONNX/IR/ModelABI.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_CODEGEN_ABI_H
#define ONNXQUANT_CODEGEN_ABI_H

#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"

#include <string>

namespace mlir::onnxq {

/// Whether `name` is a valid C identifier (the entry name).
bool isValidCIdentifier(StringRef name);

/// `name` made a valid C identifier: every other character becomes '_', and
/// "m_" goes in front of a leading digit or an empty name.
std::string makeCIdentifier(StringRef name);

/// The C header declaring the ABI of `abi` (valid C99 and C++).
std::string emitHeader(const ModelABI &abi);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_ABI_H
