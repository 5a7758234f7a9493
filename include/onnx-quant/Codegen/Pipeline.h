//===- Pipeline.h - onnx dialect to the LLVM dialect ------------*- C++ -*-===//

#ifndef ONNXQUANT_CODEGEN_PIPELINE_H
#define ONNXQUANT_CODEGEN_PIPELINE_H

#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Codegen/Target.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::onnxq {

struct LowerToLLVMOptions : PassPipelineOptions<LowerToLLVMOptions> {
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("Prefix of the exported C symbols"),
                            llvm::cl::init("model")};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width of the target in bits"),
      llvm::cl::init(512)};
  Option<std::string> int8Dot{
      *this, "int8-dot",
      llvm::cl::desc("none | vnni | sdot | amx: the int8 dot-product "
                     "instruction of the target (convert-onnx-to-linalg's "
                     "int8-dot; amx: deep convolutions on AMX tiles, "
                     "vpdpbusd for the rest and where the process may not "
                     "use AMX)"),
      llvm::cl::init("none")};
  Option<std::string> bytePermute{
      *this, "byte-permute",
      llvm::cl::desc("none | vbmi | tbl: the byte permute instruction of the "
                     "target for table lookups (onnxq-lower-table-lookups' isa)"),
      llvm::cl::init("none")};
  Option<int64_t> maxThreads{
      *this, "max-threads",
      llvm::cl::desc("At most this many threads per loop in NAME_run_parallel "
                     "(0: as many as it is given; 1: no parallel code) "
                     "(onnxq-parallelize's max-threads)"),
      llvm::cl::init(0)};
  Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("Split no loop over threads when the loops worth "
                     "splitting hold less work than this in all "
                     "(onnxq-parallelize's min-model-work)"),
      llvm::cl::init(kDefaultMinModelWork)};
  Option<bool> hoistConstants{
      *this, "hoist-constants",
      llvm::cl::desc("Compute what depends only on constants (4-bit weights "
                     "unpacked) once per process, into static memory "
                     "(onnxq-hoist-constants); false: on every call, in the "
                     "workspace"),
      llvm::cl::init(true)};
  Option<std::string> requant{
      *this, "requant",
      llvm::cl::desc("float | integer: how quantized ops requantize "
                     "(convert-onnx-to-linalg's requant)"),
      llvm::cl::init("float")};
};

/// The whole lowering from the onnx dialect to the LLVM dialect with the C
/// ABI entry points. Stages: record the ABI; onnx -> linalg on tensors;
/// element-wise fusion; bufferization; workspace planning; kernels; LLVM.
/// The kernel stage (after workspace planning) register-blocks contractions
/// for the target's vector width; packing and VNNI/dot-product kernels
/// refine it.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// Sets the options that depend on the target (vector width, int8 dot
/// product) from its capabilities; fails for an unknown triple or CPU.
LogicalResult configureForTarget(LowerToLLVMOptions &options, ModuleOp module,
                                 const TargetOptions &target);

/// Registers `--onnxq-lower-to-llvm="entry=NAME"`.
void registerLowerToLLVMPipeline();

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_PIPELINE_H
