//===- Target.h - LLVM IR, assembly and object emission ---------*- C++ -*-===//

#ifndef ONNXQUANT_CODEGEN_TARGET_H
#define ONNXQUANT_CODEGEN_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::onnxq {

struct TargetOptions {
  std::string triple;   ///< Empty: the host.
  std::string cpu;      ///< Empty: the host CPU when targeting the host.
  std::string features; ///< "+a,-b"; empty: the host CPU's features.
};

enum class OutputKind { LLVMIR, Assembly, Object };

/// The target machine code is generated with, for `--emit=obj` and the JIT
/// alike: the host CPU and its features unless `target` says otherwise,
/// fused multiply-adds (as ONNX Runtime's kernels use them), aggressive code
/// generation. Fails (with an error at `loc`) for an unknown triple or CPU.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetOptions &target, Location loc);

/// Sets `module`'s triple and data layout for `machine`, and lets
/// whole-model kernels use the full vector width (LLVM caps x86 vectors at
/// 256 bits by default even with AVX-512).
void prepareForTarget(llvm::Module &module, const llvm::TargetMachine &machine);

/// What the lowering needs to know of a target.
struct TargetCapabilities {
  /// The vector register width to vectorize for: 512 with AVX-512, 256 with
  /// AVX2, 128 otherwise (SSE, NEON).
  unsigned vectorBits = 128;
  /// AVX-512 VNNI (with AVX-512BW): `vpdpbusd`, 64 u8 x s8 multiply-adds
  /// into 16 int32 lanes.
  bool hasAVX512VNNI = false;
  /// AArch64 dot product: `sdot`, 16 s8 x s8 multiply-adds into 4 int32 lanes.
  bool hasAArch64DotProd = false;
  /// AVX-512 VBMI: `vpermi2b`, 64 byte lookups in a 128-byte table.
  bool hasAVX512VBMI = false;
  /// AArch64 NEON: `tbl`/`tbx`, 16 byte lookups in a 64-byte table.
  bool hasAArch64NEON = false;
  /// AMX-INT8: `tdpbsud` and kin, 16 x 16 x 64 byte multiply-adds per
  /// instruction into 16 x 16 int32 tiles.
  bool hasAMXInt8 = false;
};

/// The capabilities of `target`. Fails (with an error at `module`) for an
/// unknown triple or CPU.
FailureOr<TargetCapabilities> getTargetCapabilities(ModuleOp module,
                                                    const TargetOptions &target);

/// Translates an LLVM-dialect module to LLVM IR, optimizes it at -O3 for the
/// target (so the loop vectorizer uses AVX-512 or NEON) and writes it.
/// Reports an unknown triple or CPU as an error at the module.
LogicalResult emitNativeCode(ModuleOp module, const TargetOptions &target,
                             OutputKind kind, llvm::raw_pwrite_stream &os);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CODEGEN_TARGET_H
