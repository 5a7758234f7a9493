//===- Matchers.h - Q/DQ ops the QDQ rewrites can take ----------*- C++ -*-===//

#ifndef ONNXQUANT_QUANTIZATION_QDQ_MATCHERS_H
#define ONNXQUANT_QUANTIZATION_QDQ_MATCHERS_H

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

namespace mlir::onnxq {

/// The DequantizeLinear defining `value`, when its scale and zero point are
/// constants (per tensor unless `allowPerAxis`).
DequantizeLinearOp getDequantize(Value value, bool allowPerAxis = false);

/// A per-tensor QuantizeLinear with constant parameters.
bool isPerTensorQuantize(QuantizeLinearOp q);

} // namespace mlir::onnxq

#endif // ONNXQUANT_QUANTIZATION_QDQ_MATCHERS_H
