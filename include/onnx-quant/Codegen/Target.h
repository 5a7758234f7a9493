//===- Target.h - LLVM IR, assembly and object emission ---------*- C++ -*-===//

#ifndef ONNXQUANT_CODEGEN_TARGET_H
#define ONNXQUANT_CODEGEN_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::onnxq {

struct TargetOptions {
  std::string triple;   ///< Empty: the host.
  std::string cpu;      ///< Empty: the host CPU when targeting the host.
  std::string features; ///< "+a,-b"; empty: the host CPU's features.
};

enum class OutputKind { LLVMIR, Assembly, Object };

/// The vector register width to vectorize for: 512 with AVX-512, 256 with
/// AVX2, 128 otherwise (SSE, NEON). Fails (with an error at `module`) for an
/// unknown triple or CPU.
FailureOr<unsigned> getVectorBits(ModuleOp module, const TargetOptions &target);

/// Translates an LLVM-dialect module to LLVM IR, optimizes it at -O3 for the
/// target (so the loop vectorizer uses AVX-512 or NEON) and writes it.
/// Reports an unknown triple or CPU as an error at the module.
LogicalResult emitNativeCode(ModuleOp module, const TargetOptions &target,
                             OutputKind kind, llvm::raw_pwrite_stream &os);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_TARGET_H
