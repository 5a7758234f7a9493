//===- ONNXDialect.h - the onnx dialect -------------------------*- C++ -*-===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXDIALECT_H
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXDIALECT_H

#include "mlir/IR/Dialect.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOpsDialect.h.inc"

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXDIALECT_H
