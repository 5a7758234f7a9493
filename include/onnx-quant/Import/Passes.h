//===- Passes.h - passes that go through the ONNX library -------*- C++ -*-===//

#ifndef ONNXQUANT_IMPORT_PASSES_H
#define ONNXQUANT_IMPORT_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::onnxq {

#define GEN_PASS_DECL
#include "onnx-quant/Import/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "onnx-quant/Import/Passes.h.inc"

} // namespace mlir::onnxq

#endif // ONNXQUANT_IMPORT_PASSES_H
