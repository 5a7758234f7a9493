//===- DynamicQuantize.h - onnx-quantize mode=dynamic -----------*- C++ -*-===//
//
// Dynamic quantization as ONNX Runtime's quantize_dynamic writes it: weights
// quantized offline, each activation a quantized op reads quantized when the
// model runs (DynamicQuantizeLinear: u8, the tensor's own range with 0),
// the integer op (ConvInteger, MatMulInteger) accumulating in int32, and the
// result rescaled to float by s_x * s_w (Cast, Mul) before the bias Add.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_DYNAMICQUANTIZE_H
#define ONNXQUANT_LIB_QUANTIZATION_DYNAMICQUANTIZE_H

#include "ScaleAndZeroPoint.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::onnxq {

/// The op types mode=dynamic quantizes.
constexpr StringLiteral kDynamicOpTypes[] = {"Conv", "MatMul", "Gemm"};

struct DynamicQuantizationOptions {
  QuantType weightType;
  /// One weight scale per output channel (Conv filter, MatMul/Gemm column).
  bool perChannel = true;
};

/// Why `op` has no dynamic form here; empty when it has one.
StringRef getDynamicFloatReason(Operation *op);

/// Rewrites each op of `ops` (each with an empty getDynamicFloatReason) into
/// its dynamic form; one DynamicQuantizeLinear per activation tensor, shared
/// by the ops that read it.
void quantizeDynamically(ArrayRef<Operation *> ops,
                         const DynamicQuantizationOptions &options);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_DYNAMICQUANTIZE_H
