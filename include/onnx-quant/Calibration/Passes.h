//===- Passes.h - calibration passes ----------------------------*- C++ -*-===//

#ifndef ONNXQUANT_CALIBRATION_PASSES_H
#define ONNXQUANT_CALIBRATION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::onnxq {

#define GEN_PASS_DECL
#include "onnx-quant/Calibration/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "onnx-quant/Calibration/Passes.h.inc"

} // namespace mlir::onnxq

#endif // ONNXQUANT_CALIBRATION_PASSES_H
