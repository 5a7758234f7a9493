//===- ObservingModel.h - run a graph and read its tensors ------*- C++ -*-===//
//
// What `--onnx-calibrate` and the quantization report share: a copy of the
// graph that hands chosen tensors to the host as they are computed,
// JIT-compiled through the `--emit=obj` lowering (what is measured is what
// ships).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_EXECUTION_OBSERVINGMODEL_H
#define ONNXQUANT_EXECUTION_OBSERVINGMODEL_H

#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::onnxq {

class JITModel;

/// A float activation to observe, and its name.
struct ObservedTensor {
  Value value;
  std::string name;
};

/// Graph inputs and every op result that is a float tensor (constants and
/// results computed from constants only excluded), in program order, with
/// unique names: the graph input's ONNX name, the node's ("node", or
/// "node:i" for result i of a node with several results).
std::vector<ObservedTensor> collectObservedTensors(func::FuncOp func);

/// Registers what the lowering and the JIT need (a pass may not load
/// dialects while it runs, so passes call this from getDependentDialects).
void registerJITDependencies(DialectRegistry &registry);

/// A copy of a module's graph that hands chosen tensors to the host as they
/// are computed, JIT-compiled for the host.
class ObservingModel {
public:
  /// Receives observed tensor `k` of the current run as f32, in place: the
  /// values are valid during the call only.
  using Observer = llvm::function_ref<void(size_t k, ArrayRef<float> values)>;

  /// `observed` are values of `func` in `module`, which is not modified.
  static FailureOr<std::unique_ptr<ObservingModel>>
  compile(ModuleOp module, func::FuncOp func, ArrayRef<ObservedTensor> observed,
          StringRef entry, Location loc);
  ~ObservingModel();

  const ModelABI &getABI() const;

  /// Runs on one buffer per graph input, handing each observed tensor to
  /// `observe` as soon as it is computed; returns NAME_run's status.
  int run(ArrayRef<const void *> inputs, Observer observe);

  /// Runs and keeps a copy of every observed tensor for getObserved().
  int run(ArrayRef<const void *> inputs);

  /// Observed tensor `k` of the last run(inputs); valid until the next run.
  ArrayRef<float> getObserved(size_t k) const { return kept[k]; }

  /// Elements of each observed tensor.
  ArrayRef<int64_t> getObservedSizes() const { return sizes; }

private:
  ObservingModel();

  std::unique_ptr<JITModel> model;
  std::vector<int64_t> sizes; ///< elements of each observed tensor
  std::vector<std::vector<float>> kept;
  std::vector<std::vector<char>> outputs;
  SmallVector<void *> outputPtrs;
};

} // namespace mlir::onnxq

#endif // ONNXQUANT_EXECUTION_OBSERVINGMODEL_H
