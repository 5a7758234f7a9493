//===- PassDetail.h - generated pass bases of the codegen passes -*- C++ -*-===//

#ifndef ONNXQUANT_LIB_CODEGEN_PASSDETAIL_H
#define ONNXQUANT_LIB_CODEGEN_PASSDETAIL_H

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::onnxq {
/// The single function holding the graph; emits an error when there is not
/// exactly one.
FailureOr<func::FuncOp> getGraphFunction(ModuleOp module);
} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_PASSDETAIL_H
