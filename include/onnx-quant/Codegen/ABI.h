//===- ABI.h - the C interface of a compiled model --------------*- C++ -*-===//
//
// The C names and the header of a compiled model, from the ABI record that
// `onnxq-record-abi` stores on the module (Dialect/ONNX/IR/ModelABI.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_CODEGEN_ABI_H
#define ONNXQUANT_CODEGEN_ABI_H

#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

#include <string>

namespace mlir::onnxq {

/// Whether `name` is a valid C identifier (the entry name).
bool isValidCIdentifier(StringRef name);

/// `name` made a valid C identifier: every other character becomes '_', and
/// "m_" goes in front of a leading digit or an empty name.
std::string makeCIdentifier(StringRef name);

/// The graph function the module's ABI record names (after
/// onnxq-record-abi, when the module may hold other functions); an error
/// naming `purpose` ("to parallelize") when there is none.
FailureOr<func::FuncOp> lookupGraphFunction(ModuleOp module, StringRef purpose);

/// The parallel context: what `NAME_run_parallel` hands the graph function
/// as its last argument (`NAME_run` passes NULL), and the graph hands the
/// nodes that split their loops. Fields of `!llvm.struct<(ptr, ptr, i64)>`:
/// the application's parallel-for, its pool, and the thread count.
enum class ParallelContextField : int32_t { ParallelFor = 0, Pool = 1, Threads = 2 };
LLVM::LLVMStructType getParallelContextType(MLIRContext *context);

/// `bool onnxq_amx_ready(void)`, which AMX kernels call: whether the process
/// may use AMX tiles (Linux grants it on request, once per process, and
/// onnxq-emit-abi defines the function to make that request the first time);
/// the kernels fall back to vpdpbusd when it may not.
constexpr llvm::StringLiteral kAMXReadyFunction = "onnxq_amx_ready";

/// `void onnxq_init_constants(workspace)`, which the graph calls first: it
/// computes the values onnxq-hoist-constants moved out of the graph into
/// their globals, once per process (onnxq-emit-abi adds the guard).
constexpr llvm::StringLiteral kInitConstantsFunction = "onnxq_init_constants";

/// What NAME_run returns (the header's ONNXQ_STATUS_* macros).
constexpr int32_t kStatusOK = 0;
/// A NULL workspace could not be allocated.
constexpr int32_t kStatusNoMemory = 1;
/// A run-time index (Gather, GatherElements, ScatterND, ScatterElements) was
/// outside [-size, size - 1] of its axis (onnxq-check-indices).
constexpr int32_t kStatusIndexOutOfRange = 2;
/// `inputs` or `outputs` is NULL, or one of the pointers in them.
constexpr int32_t kStatusNullPointer = 3;

/// What a status means, for diagnostics ("an index input is out of range").
StringRef getStatusDescription(int32_t status);

/// The C header declaring the ABI of `abi` (valid C99 and C++).
std::string emitHeader(const ModelABI &abi);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_ABI_H
