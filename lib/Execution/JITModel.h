//===- JITModel.h - a model compiled in-process -----------------*- C++ -*-===//
//
// The graph through the same lowering as `--emit=obj`, but JIT-compiled with
// the MLIR ExecutionEngine instead of written to an object: what is
// calibrated (or measured) is what ships.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_EXECUTION_JITMODEL_H
#define ONNXQUANT_LIB_EXECUTION_JITMODEL_H

#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdlib>
#include <vector>

namespace mlir::onnxq {

/// Zeroed buffers for `tensors`, as the ABI describes them.
std::vector<std::vector<char>> allocateBuffers(ArrayRef<TensorABI> tensors);

class JITModel {
public:
  /// Lowers `module` (consumed: it is lowered in place) for the host and
  /// JIT-compiles it; the functions it declares resolve to `symbols` (name,
  /// host address). Errors are emitted at `loc`.
  static FailureOr<std::unique_ptr<JITModel>>
  compile(OwningOpRef<ModuleOp> module, StringRef entry,
          ArrayRef<std::pair<std::string, void *>> symbols, Location loc);

  const ModelABI &getABI() const { return abi; }

  /// Runs the model: one buffer per input and output, as the ABI says.
  /// Returns NAME_run's status (0 on success).
  int run(ArrayRef<const void *> inputs, ArrayRef<void *> outputs);

private:
  using RunFn = int (*)(const void *const *, void *const *, void *);
  ModelABI abi;
  std::unique_ptr<ExecutionEngine> engine;
  RunFn runFn = nullptr;
  /// 64-byte aligned, as the workspace plan assumes.
  std::unique_ptr<char, void (*)(void *)> workspace{nullptr, std::free};
};

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_EXECUTION_JITMODEL_H
