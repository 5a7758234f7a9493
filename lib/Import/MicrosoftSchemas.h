//===- MicrosoftSchemas.h - com.microsoft op schemas for libonnx -*- C++ -*-===//

#ifndef ONNXQUANT_LIB_IMPORT_MICROSOFTSCHEMAS_H
#define ONNXQUANT_LIB_IMPORT_MICROSOFTSCHEMAS_H

namespace mlir::onnxq {
/// Registers, once per process, the `com.microsoft` ops the dialect supports
/// (QLinearAdd, QLinearGlobalAveragePool) with libonnx, so that its checker
/// validates them and its shape inference propagates types through them, as
/// ONNX Runtime does with its contrib schemas.
void registerMicrosoftSchemas();
} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_IMPORT_MICROSOFTSCHEMAS_H
