//===- ModelABI.h - the model's C ABI recorded on the module ----*- C++ -*-===//
//
// `onnxq-record-abi` stores the graph's interface on the module as
// `onnx.abi = {entry, function, inputs = [...], outputs = [...],
// workspace_size[, index_checks][, constants_size]}` where each tensor is
// `{name, dtype (ONNX data type), element_bytes, shape}`. Workspace planning
// fills in the size; onnxq-check-indices sets index_checks when the graph
// function has one more result than `outputs`: an i32 flag, non-zero when a
// run-time index was out of range; onnxq-hoist-constants sets
// constants_size, the bytes of static memory its globals take. The header emitter, the ABI entry points and the JIT read it back.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_MODELABI_H
#define ONNXQUANT_DIALECT_ONNX_IR_MODELABI_H

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
  /// The graph's last result is the index-check flag (not an output).
  bool indexChecks = false;
  /// Bytes of the zero-initialized globals the first call fills with the
  /// values computed from constants (onnxq-hoist-constants); 0: none.
  int64_t constantsSize = 0;

  /// Samples per run: the first input's leading (batch) dimension; 1
  /// without inputs or for a scalar input.
  int64_t getBatchSize() const;
};

/// The record as an attribute, and back (failure: not a valid record).
DictionaryAttr getModelABIAttr(MLIRContext *context, const ModelABI &abi);
FailureOr<ModelABI> parseModelABI(DictionaryAttr attr);

/// Reads the ABI from the module; emits an error and fails if absent.
FailureOr<ModelABI> readModelABI(ModuleOp module);
void writeModelABI(ModuleOp module, const ModelABI &abi);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_MODELABI_H
