//===- Pipeline.cpp - onnx dialect to the LLVM dialect --------------------===//

#include "onnx-quant/Codegen/Pipeline.h"

#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Conversion/Passes.h"
#include "onnx-quant/Quantization/Passes.h"
#include "onnx-quant/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::onnxq;

void mlir::onnxq::buildLowerToLLVMPipeline(OpPassManager &pm,
                                           const LowerToLLVMOptions &options) {
  // Native code has static shapes: where one stays dynamic, say which node
  // (or graph input) makes it so.
  pm.addNestedPass<func::FuncOp>(createInferShapesPass({/*requireStatic=*/true}));
  // The interface, while the onnx types still say what it is.
  pm.addPass(createRecordABIPass({options.entry}));
  // Constant indices checked now; run-time ones by the generated code (its
  // status), after the ABI so that the flag is not an output.
  pm.addPass(createCheckIndicesPass());

  // Quantized graphs compute on integers: QDQ islands become QLinear* ops,
  // the form QOperator models arrive in. QLinear ops with run-time weights or
  // parameters have no integer form: they run as DQ -> float op -> Q.
  pm.addNestedPass<func::FuncOp>(createQOperatorToQDQPass({/*runtimeParametersOnly=*/true}));
  pm.addNestedPass<func::FuncOp>(createFuseQDQPass());
  // Activations kept in float between 8-bit tensors: one table lookup each.
  pm.addNestedPass<func::FuncOp>(createLookupTablesPass());

  // Tensors: onnx -> linalg, then fuse element-wise chains (BatchNorm, bias,
  // activations) into their producers' loops; a concatenation packed into
  // channel words is packed part by part.
  pm.addNestedPass<func::FuncOp>(createWidenF16Pass());
  pm.addNestedPass<func::FuncOp>(
      createConvertONNXToLinalgPass(
          {options.requant, options.int8Dot, options.vectorBits}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
  pm.addNestedPass<func::FuncOp>(createPackConcatPartsPass());
  pm.addPass(createCanonicalizerPass());
  // What is computed from constants alone (4-bit weights spread and
  // dequantized) is computed once per process, into globals.
  if (options.hoistConstants)
    pm.addPass(createHoistConstantsPass());

  // Buffers: results written straight into the caller's output buffers,
  // every intermediate in the one workspace.
  pm.addPass(createBufferizePass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // CSE first: a slice written in place is copied onto an identical view of
  // itself, which canonicalization then erases.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // Kernels for contractions (matrix products, convolutions, pooling
  // windows): register-blocked vector loops, 8 rows x 2 vectors of
  // accumulators with 32 vector registers (AVX-512, NEON), 6 x 2 with 16
  // (AVX2). A kernel takes in the element-wise ops that start and finish its
  // output when nothing else reads that buffer, which the graph function
  // shows; and before the workspace plan, which must see a kernel's reads
  // and writes in one loop nest.
  ContractionKernelsPassOptions kernels;
  kernels.vectorBits = options.vectorBits;
  kernels.rows = options.vectorBits == 256 ? 6 : 8;
  bool amx = options.int8Dot == "amx";
  kernels.byteWindows =
      (options.int8Dot == "vnni" || amx) && options.bytePermute == "vbmi";
  kernels.amx = amx;
  // int8-dot=vnni only with AVX-512BW, which the packs need
  // (getTargetCapabilities).
  kernels.saturatingPacks = options.int8Dot == "vnni" || amx;
  pm.addPass(createContractionKernelsPass(kernels));
  pm.addPass(createPlanWorkspacePass());
  // One function per node: LLVM's loop passes are quadratic in the loops of
  // a function, and the function passes below run in parallel.
  pm.addPass(createOutlineNodesPass());

  // Everything but the contractions gets the baseline strategy: innermost
  // loop parallel and contiguous, tiled by the vector length and vectorized.
  // Loops over parallel dims stay scf.parallel, for the next step.
  OpPassManager &loops = pm.nest<func::FuncOp>();
  loops.addPass(createVectorizableLoopOrderPass());
  loops.addPass(createVectorizePass({options.vectorBits}));
  loops.addPass(createLowerTableLookupsPass({options.bytePermute}));
  loops.addPass(createCanonicalizerPass());
  loops.addPass(createConvertLinalgToParallelLoopsPass());
  loops.addPass(createCanonicalizerPass());
  // Big parallel loops become tasks the application's threads share
  // (NAME_run_parallel); the others run as plain loops.
  ParallelizePassOptions parallel;
  parallel.maxThreads = options.maxThreads;
  parallel.minModelWork = options.parallelMinWork;
  pm.addPass(createParallelizePass(parallel));

  OpPassManager &nodes = pm.nest<func::FuncOp>();
  nodes.addPass(vector::createLowerVectorMaskPass());
  nodes.addPass(createConvertVectorToSCFPass());
  nodes.addPass(createExpandMathPass());
  nodes.addPass(memref::createExpandStridedMetadataPass());
  nodes.addPass(createLowerAffinePass());
  nodes.addPass(arith::createIntRangeOptimizationsPass());
  nodes.addPass(createSCFToControlFlowPass());
  // Vector lowering first: it creates arith ops the arith lowering handles.
  // Within a function: signatures keep their memrefs until func-to-llvm.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.amx = amx;
  nodes.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  nodes.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass()); // declares libm functions
  pm.addNestedPass<func::FuncOp>(createArithToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createEmitABIPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createCanonicalizerPass());
}

LogicalResult mlir::onnxq::configureForTarget(LowerToLLVMOptions &options,
                                              ModuleOp module,
                                              const TargetOptions &target) {
  FailureOr<TargetCapabilities> capabilities =
      getTargetCapabilities(module, target);
  if (failed(capabilities))
    return failure();
  options.vectorBits = capabilities->vectorBits;
  options.int8Dot = capabilities->hasAMXInt8          ? "amx"
                    : capabilities->hasAVX512VNNI       ? "vnni"
                    : capabilities->hasAArch64DotProd ? "sdot"
                                                      : "none";
  options.bytePermute = capabilities->hasAVX512VBMI    ? "vbmi"
                        : capabilities->hasAArch64NEON ? "tbl"
                                                       : "none";
  return success();
}

void mlir::onnxq::registerLowerToLLVMPipeline() {
  PassPipelineRegistration<LowerToLLVMOptions>(
      "onnxq-lower-to-llvm",
      "Lower the onnx dialect to the LLVM dialect with the C ABI entry points",
      buildLowerToLLVMPipeline);
}
