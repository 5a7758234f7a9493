//===- SaturatingPacks.h - 8-bit requantizations ending in packs -*- C++ -*-===//
//
// A float requantization to 8 bits (Requantize.cpp's emitFloatSaturate)
// ends each element in
//   trunci(addi(fptosi(roundeven(minnumf(maxnumf(x, lo), hi))), zp))
// which AVX-512 runs as vmaxps, vminps, vrndscaleps, vcvttps2dq, vpaddd and
// vpmovdb: six instructions per 16 values, more than the four vpdpbusd a
// 1x1 convolution over 16 channels spends on them. Two vectors of a kernel
// tile's row end instead in one vcvtps2dq {rn-sae} each (half to even, as
// roundeven), then together one vpackssdw (int32 -> int16, saturating),
// one vpaddsw (the zero point), one vpackuswb or vpacksswb (saturating to
// the 8-bit range: the clamp) and one dword permutation that puts the
// lanes back in order; a range that starts higher (a fused ReLU) is a byte
// max. Ranges that end below the type's top keep the generic end. The integers are the same: the bounds are integers, so clamping
// after rounding equals clamping before it, and each saturation keeps a
// value on the side of the range it was on. vcvtps2dq gives INT_MIN for x
// past the int32 range, which would saturate to the low end: the float
// clamp to `hi` stays unless the body's multiplier is a constant of at
// most 0.5, which keeps |x| below 2^30.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_SATURATINGPACKS_H
#define ONNXQUANT_LIB_CODEGEN_SATURATINGPACKS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::onnxq {

/// The end of a float requantization to 8 bits in an element-wise body.
struct SaturatingRequant {
  /// x: the f32 value the end starts from, computed by the rest of the body.
  Value input;
  /// The ops from the clamp to the truncation, which the packs replace.
  SmallVector<Operation *> ops;
  /// The float clamp's upper bound (hi), for an x that may overflow int32.
  std::optional<float> overflowBound;
  int64_t zeroPoint = 0;
  /// The lowest value of the result, lo + zp (its highest, hi + zp, is the
  /// type's largest value).
  int64_t low = 0;
  bool isUnsigned = true; ///< vpackuswb; else vpacksswb
};

/// The requantization end of `op`'s body (yielding one i8 element), if it
/// has one.
std::optional<SaturatingRequant> matchSaturatingRequant(linalg::LinalgOp op);

/// The bytes of `first` and of `second` (vector<16xf32> values of the
/// ending's input; `second` may be null) as `ending` computes them: one or
/// two vector<16xi8>.
SmallVector<Value, 2> emitSaturatingRequant(OpBuilder &b, Location loc,
                                            const SaturatingRequant &ending,
                                            Value first, Value second);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_SATURATINGPACKS_H
