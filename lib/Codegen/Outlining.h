//===- Outlining.h - moving code into a function of its own -----*- C++ -*-===//
//
// What `onnxq-outline-nodes` (a node's ops) and `onnxq-parallelize` (a
// parallel loop) need to know when they move code out of a function body:
// the body's arguments it reads, and the views and constants it recomputes
// rather than receives.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_OUTLINING_H
#define ONNXQUANT_LIB_CODEGEN_OUTLINING_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"

namespace mlir::onnxq {

/// Views, constants and globals: recomputed inside an outlined function
/// instead of passed in.
bool isRematerializable(Operation *op);

/// A stack buffer whose contents do not outlive one use (a kernel tile's
/// scratch: `memref.alloca` marked kScratchAttrName): code moved out of the
/// function gets one of its own, as each thread must.
constexpr llvm::StringLiteral kScratchAttrName = "onnxq.scratch";
bool isScratch(Operation *op);

/// What ops moved out of a block need from it.
struct OutlinedInputs {
  /// The block's arguments they read, in argument order.
  SmallVector<BlockArgument> arguments;
  /// Top-level ops of the block they need recomputed, in program order:
  /// rematerializable ones, and scratch buffers.
  SmallVector<Operation *> rematerialized;
};

/// The inputs of `ops` (top-level ops of `scope`, and everything nested in
/// them); fails when they need a value of `scope` that is neither an
/// argument nor rematerializable.
FailureOr<OutlinedInputs> collectOutlinedInputs(ArrayRef<Operation *> ops,
                                                Block &scope);

/// Clones the rematerialized ops at the builder's insertion point, mapping
/// the outlined arguments to `arguments` first.
void cloneInputs(OpBuilder &b, const OutlinedInputs &inputs,
                 ValueRange arguments, IRMapping &mapping);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_OUTLINING_H
