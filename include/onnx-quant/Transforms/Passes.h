//===- Passes.h - graph passes on the onnx dialect --------------*- C++ -*-===//

#ifndef ONNXQUANT_TRANSFORMS_PASSES_H
#define ONNXQUANT_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace onnxq {

#define GEN_PASS_DECL
#include "onnx-quant/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "onnx-quant/Transforms/Passes.h.inc"

} // namespace onnxq
} // namespace mlir

#endif // ONNXQUANT_TRANSFORMS_PASSES_H
