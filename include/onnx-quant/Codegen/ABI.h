//===- ABI.h - the model ABI recorded on the module -------------*- C++ -*-===//
//
// `onnxq-record-abi` stores the graph's interface on the module as
// `onnxq.abi = {entry, inputs = [...], outputs = [...], workspace_size}` where
// each tensor is `{name, dtype (ONNX data type), shape}`. The header emitter
// and the ABI wrapper read it back through these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_CODEGEN_ABI_H
#define ONNXQUANT_CODEGEN_ABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir::onnxq {

struct TensorABI {
  std::string name;
  int64_t dtype = 0;           ///< ONNX TensorProto data type.
  int64_t elementBytes = 0;
  SmallVector<int64_t> shape;
  int64_t getNumElements() const;
};

struct ModelABI {
  std::string entry;
  std::string function; ///< The graph function's symbol.
  std::vector<TensorABI> inputs, outputs;
  int64_t workspaceSize = 0;
};

constexpr llvm::StringLiteral kABIAttrName = "onnxq.abi";

/// The single function defined in `module` (the graph; declarations are
/// functions it calls); emits an error, prefixed with `user` when given,
/// unless there is exactly one.
FailureOr<func::FuncOp> getGraphFunction(ModuleOp module, StringRef user = "");

/// Reads the ABI from the module; emits an error and fails if absent.
FailureOr<ModelABI> readModelABI(ModuleOp module);
void writeModelABI(ModuleOp module, const ModelABI &abi);

/// Whether `name` is a valid C identifier (the entry name).
bool isValidCIdentifier(StringRef name);

/// `name` made a valid C identifier: every other character becomes '_', and
/// "m_" goes in front of a leading digit or an empty name.
std::string makeCIdentifier(StringRef name);

/// The C header declaring the ABI of `abi` (valid C99 and C++).
std::string emitHeader(const ModelABI &abi);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_ABI_H
