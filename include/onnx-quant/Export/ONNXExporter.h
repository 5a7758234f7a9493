//===- ONNXExporter.h - onnx dialect to an ONNX model -----------*- C++ -*-===//

#ifndef ONNXQUANT_EXPORT_ONNXEXPORTER_H
#define ONNXQUANT_EXPORT_ONNXEXPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::onnxq {

/// Writes the module's single function of `onnx` ops as a binary ONNX model
/// (opset 17; `com.microsoft` 1 when such ops are present). Constants become
/// initializers; names come from `onnx.name` argument/result attributes and
/// from op locations. The result passes the ONNX checker, or an error is
/// emitted and nothing is written.
LogicalResult exportONNXModel(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::onnxq

#endif // ONNXQUANT_EXPORT_ONNXEXPORTER_H
