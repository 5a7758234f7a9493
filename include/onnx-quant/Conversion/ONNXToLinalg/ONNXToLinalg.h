//===- ONNXToLinalg.h - onnx to linalg conversion patterns ------*- C++ -*-===//

#ifndef ONNXQUANT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
#define ONNXQUANT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxq {

/// Maps unsigned integer element types to signless ones (linalg and arith
/// work on signless integers); everything else is unchanged.
class ONNXToLinalgTypeConverter : public TypeConverter {
public:
  ONNXToLinalgTypeConverter();
};

/// How a quantized op turns its int32 accumulator t into the 8-bit result
/// y = saturate(round(t * s) + zero point), with ONNX Runtime's integers:
enum class Requantization {
  /// t to float32, times s, clamped, rounded half to even: the same IEEE
  /// operations, in the same order, as ONNX Runtime's kernels (MLAS).
  Float,
  /// The same result computed on integers only (an exact emulation of the
  /// float32 roundings in int64): for targets without a floating-point unit.
  Integer,
};

/// The int8 dot-product instruction the quantized convolutions are shaped
/// for.
enum class Int8DotProduct {
  /// None: 8-bit operands widened to int32 lanes, one multiply-add each.
  None,
  /// AVX-512 VNNI's vpdpbusd: 4 u8 x s8 products into each int32 lane. The
  /// input channels are packed four to an int32 (activations and weights).
  VNNI,
  /// AArch64's sdot: 4 s8 x s8 products into each int32 lane; packed as for
  /// VNNI, the u8 activations shifted to s8 (x - 128, the 128 * sum(w) it
  /// takes away folded into the accumulator's start).
  SDot,
  /// AMX tiles (tdpbsud, up to 16 words of every row per step) with
  /// vpdpbusd for the rest: packed as for VNNI, and a convolution large
  /// enough for tiles (kAMXMinFilters filters and 16 positions at least)
  /// has its channel words padded to a multiple of 16 when it has more
  /// than 16 (getAMXChannelWords); a strided window, or one over few
  /// channel words, runs over planes of its input (WindowPlanes.cpp).
  AMX,
};

/// Channel words (4 input channels each) times taps from which a
/// contraction is worth AMX tiles (onnxq-contraction-kernels). Measured
/// with tiles of exactly the channel words (getAMXChannelWords): a 1x1
/// convolution over 4 words 2 % slower on tiles than on vpdpbusd
/// (MobileNetV2 int8), a 3x3 one over 4 words 3 % faster (SqueezeNet int8).
constexpr int64_t kAMXMinWords = 8;

/// Channel words (4 bytes each) an AMX tile step multiplies: a 64-byte
/// tile row. A step takes as long with fewer.
constexpr int64_t kAMXStepWords = 16;

/// The channel words an AMX contraction over `words` words runs on: one
/// tile step of them all when fewer than 16 (a tile row of 4 * words
/// bytes), else whole steps of 16 (words past the last hold weight 0).
inline int64_t getAMXChannelWords(int64_t words) {
  return words < kAMXStepWords
             ? words
             : (words + kAMXStepWords - 1) / kAMXStepWords * kAMXStepWords;
}
/// Filters (per group) from which a convolution is worth AMX tiles: the
/// kernel's AMX tile is 32 filters; with fewer, the rows left on vpdpbusd
/// do the padded channel words too (measured: 72 -> 24 channels on 28x28,
/// 4x slower than vpdpbusd alone; 32 -> 16 on 112x112, 2x).
constexpr int64_t kAMXMinFilters = 32;

/// The code shapes the lowering picks for a target; the semantics are the
/// same whatever they are.
struct LinalgLoweringOptions {
  Requantization requant = Requantization::Float;
  Int8DotProduct int8Dot = Int8DotProduct::None;
  /// Bits of the target's vectors: convolutions whose rows are short for
  /// them compute over the padded width, rows flattened (0: never).
  unsigned vectorBits = 0;
};

// One populate function per op family (one .cpp each).
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateConvToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  unsigned vectorBits);
void populatePoolToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  unsigned vectorBits);
void populateMatMulToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateNormalizationToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           unsigned vectorBits);
void populateTensorToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateResizeToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateEinsumToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateReductionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateConvTransposeToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
void populateRuntimeGatherToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
void populateScatterToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
void populateTriluToLinalgPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateGeneratorsToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);
void populateIntegerContractionsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options);

void populateQuantizeDequantizeToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                unsigned vectorBits);
// The quantized ops (QLinear*, QGemm, Q of DQ): integer contractions, then
// the requantization `mode` (`options.requant`) says.
void populateQLinearConvToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const LinalgLoweringOptions &options);
void populateQLinearMatMulToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const LinalgLoweringOptions &options);
void populateQLinearElementwiseToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                Requantization mode,
                                                unsigned vectorBits);

/// All of the above.
void populateONNXToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options = {});

} // namespace mlir::onnxq

#endif // ONNXQUANT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
