//===- ONNXExporter.h - onnx dialect to an ONNX model -----------*- C++ -*-===//

#ifndef ONNXQUANT_EXPORT_ONNXEXPORTER_H
#define ONNXQUANT_EXPORT_ONNXEXPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::onnxq {

/// The ai.onnx opsets the exporter writes: the dialect's, and the first with
/// 4-bit types and blocked DequantizeLinear.
constexpr int64_t kExportOpsets[] = {17, 21};

/// The opset `module` needs: 21 when it has 4-bit or blocked weights, 17
/// otherwise.
int64_t getRequiredOpset(ModuleOp module);

/// Writes the module's single function of `onnx` ops as a binary ONNX model
/// in ai.onnx `opset` (one of kExportOpsets; 0: getRequiredOpset;
/// `com.microsoft` 1 when such ops are present). Constants become
/// initializers; names come from `onnx.name` argument/result attributes and
/// from op locations. Opset 21 writes the forms that changed since 17
/// (Reduce* axes as an input, Split's num_outputs). An opset 17 model passes
/// the ONNX checker (libonnx here knows opsets up to 17); otherwise an
/// error is emitted and nothing is written.
LogicalResult exportONNXModel(ModuleOp module, llvm::raw_ostream &os,
                              int64_t opset = 0);

} // namespace mlir::onnxq

#endif // ONNXQUANT_EXPORT_ONNXEXPORTER_H
