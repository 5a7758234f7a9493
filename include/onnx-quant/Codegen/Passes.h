//===- Passes.h - native code generation passes -----------------*- C++ -*-===//

#ifndef ONNXQUANT_CODEGEN_PASSES_H
#define ONNXQUANT_CODEGEN_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::onnxq {

/// onnxq-parallelize's default min-model-work: models whose loops worth
/// splitting hold less work run on the calling thread alone.
constexpr int64_t kDefaultMinModelWork = 1 << 20;

#define GEN_PASS_DECL
#include "onnx-quant/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "onnx-quant/Codegen/Passes.h.inc"

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_PASSES_H
