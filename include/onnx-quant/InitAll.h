//===- InitAll.h - every dialect and pass onnx-quant uses -------*- C++ -*-===//
//
// One place that lists the upstream dialects and passes the tools register:
// only what the pipelines use, not all of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_INITALL_H
#define ONNXQUANT_INITALL_H

#include "onnx-quant/Dialect/ONNX/IR/ONNXDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::onnxq {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<ONNXDialect, func::FuncDialect>();
}

inline void registerAllPasses() {
  // canonicalize, cse, symbol-dce, inline, ...
  registerTransformsPasses();
}

} // namespace mlir::onnxq

#endif // ONNXQUANT_INITALL_H
