//===- ONNXOps.td - onnx dialect operations ----------------*- tablegen -*-===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_ONNXOPS_TD
#define ONNXQUANT_DIALECT_ONNX_IR_ONNXOPS_TD

include "onnx-quant/Dialect/ONNX/IR/ONNXBase.td"
include "onnx-quant/Dialect/ONNX/IR/ONNXElementwiseOps.td"
include "onnx-quant/Dialect/ONNX/IR/ONNXMatrixOps.td"
include "onnx-quant/Dialect/ONNX/IR/ONNXNNOps.td"
include "onnx-quant/Dialect/ONNX/IR/ONNXTensorOps.td"
include "onnx-quant/Dialect/ONNX/IR/ONNXQuantOps.td"
include "onnx-quant/Dialect/ONNX/IR/ONNXReductionOps.td"

#endif // ONNXQUANT_DIALECT_ONNX_IR_ONNXOPS_TD
