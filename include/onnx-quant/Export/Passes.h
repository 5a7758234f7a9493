//===- Passes.h - passes that go through the ONNX library -------*- C++ -*-===//

#ifndef ONNXQUANT_EXPORT_PASSES_H
#define ONNXQUANT_EXPORT_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::onnxq {

#define GEN_PASS_DECL
#include "onnx-quant/Export/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "onnx-quant/Export/Passes.h.inc"

} // namespace mlir::onnxq

#endif // ONNXQUANT_EXPORT_PASSES_H
