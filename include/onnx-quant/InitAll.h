//===- InitAll.h - every dialect and pass onnx-quant uses -------*- C++ -*-===//
//
// One place that lists the upstream dialects and passes the tools register:
// only what the pipelines use, not all of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_INITALL_H
#define ONNXQUANT_INITALL_H

#include "onnx-quant/Calibration/Passes.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Codegen/Pipeline.h"
#include "onnx-quant/Conversion/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXDialect.h"
#include "onnx-quant/Quantization/Passes.h"
#include "onnx-quant/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::onnxq {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<ONNXDialect, affine::AffineDialect, amx::AMXDialect,
                  arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  // Bufferization of the ops the onnx lowering produces.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

inline void registerAllPasses() {
  // The upstream passes a user of onnx-quant-opt needs (the pipelines
  // create the others directly); fewer keep --help short.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSymbolDCEPass();
  registerGraphTransformsPasses();
  registerCalibrationPasses();
  registerQuantizationPasses();
  registerConversionPasses();
  registerCodegenPasses();
  registerLowerToLLVMPipeline();
}

} // namespace mlir::onnxq

#endif // ONNXQUANT_INITALL_H
