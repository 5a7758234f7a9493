//===- ScaleAndZeroPoint.h - the affine mapping of a range ------*- C++ -*-===//
//
// The affine mapping real = scale * (q - zero_point) for a range, as ONNX
// Runtime's quantizer computes it (quant_utils.compute_scale_zp): the range
// is widened to contain 0 (so 0 is exact), symmetric ranges get the middle
// zero point, and a zero-width range gets scale 1 instead of 0.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_SCALEANDZEROPOINT_H
#define ONNXQUANT_LIB_QUANTIZATION_SCALEANDZEROPOINT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace mlir::onnxq {

struct QuantType {
  bool isSigned;
  int64_t qmin, qmax;
  unsigned bits = 8;
  /// int8 [-128, 127] or uint8 [0, 255]; `symmetric` int8 uses [-127, 127]
  /// (so the range is symmetric), `reduceRange` 7 bits. With `bits` = 16:
  /// int16 [-32768, 32767] ([-32767, 32767] symmetric) or uint16 [0, 65535],
  /// as ONNX Runtime's QInt16/QUInt16. With `bits` = 4: int4 [-8, 7]
  /// (symmetric too, as ONNX Runtime's QInt4) or uint4 [0, 15]; 3 bits
  /// with `reduceRange`.
  static QuantType get(bool isSigned, bool symmetric, bool reduceRange,
                       unsigned bits = 8);
};

struct ScaleAndZeroPoint {
  float scale = 1;
  int64_t zeroPoint = 0;
};

ScaleAndZeroPoint computeScaleAndZeroPoint(float rmin, float rmax, QuantType type,
                               bool symmetric);

/// round-half-to-even(x / scale) + zero point, saturated: QuantizeLinear.
int64_t quantizeValue(float x, ScaleAndZeroPoint params, QuantType type);

/// Where the elements of a row-major tensor lie along one axis: element i
/// is in channel (i / inner) % size. Without an axis, one channel. With
/// blocks of `blockSize` along the axis (opset 21's blocked parameters, laid
/// out as the tensor with that axis cut to `blocks`), its parameters are
/// those of its block.
struct AxisLayout {
  int64_t size = 1;
  int64_t inner = 1;
  int64_t blockSize = 0, blocks = 0;
  static AxisLayout get(ArrayRef<int64_t> shape, std::optional<int64_t> axis,
                        int64_t blockSize = 0);
  int64_t getChannel(int64_t i) const { return (i / inner) % size; }
  /// The index of element i's scale and zero point: its channel, or its
  /// block's place in the blocked parameter tensor.
  int64_t getParameterIndex(int64_t i) const {
    if (blockSize <= 0)
      return getChannel(i);
    int64_t outer = i / (inner * size);
    return (outer * blocks + getChannel(i) / blockSize) * inner + i % inner;
  }
  /// How many parameters a tensor of `elements` has.
  int64_t getParameterCount(int64_t elements) const {
    return blockSize > 0 ? elements / std::max<int64_t>(1, size) * blocks : size;
  }
};

/// A constant weight tensor quantized symmetrically from its max |w|, as
/// ONNX Runtime quantizes initializers: one scale per slice along the
/// channel axis, or one for the whole tensor.
struct QuantizedWeights {
  SmallVector<int64_t> values;           // the weight's shape, row-major
  SmallVector<ScaleAndZeroPoint> params; // one per channel, or one

  SmallVector<float> getScales() const;
  SmallVector<int64_t> getZeroPoints() const;
};

/// How a group of weights gets its scale.
enum class WeightScaleRule {
  /// max |w| onto the type's symmetric range, as ONNX Runtime's QDQ
  /// quantizer (quantize_static, quantize_dynamic) does: a positive scale.
  SymmetricRange,
  /// As ONNX Runtime's weight-only quantizer (MatMulNBits, MLAS's blockwise
  /// quantization): signed types put the weight of largest magnitude on the
  /// type's lowest value exactly (scale = w / -2^(bits-1), negative when w
  /// is positive; the other end saturates one step short); unsigned types
  /// take zero points from each group's min and max. Rounding half away
  /// from zero. Float arithmetic only (negative scales).
  WeightOnly,
};

/// `weights` of `shape` quantized to `type`, per slice along `channelAxis`
/// (nullopt: per tensor). With `blockSize` > 0, per block instead: elements
/// sharing every index but `channelAxis`'s, and there the same index /
/// blockSize, share parameters, which are laid out as DequantizeLinear's
/// blocked scale (`shape` with that dimension divided by blockSize, rounded
/// up). `adjust`, when given, may change the parameters before the weights
/// are quantized with them.
QuantizedWeights quantizeWeights(
    ArrayRef<float> weights, ArrayRef<int64_t> shape,
    std::optional<int64_t> channelAxis, QuantType type,
    function_ref<void(MutableArrayRef<ScaleAndZeroPoint>)> adjust = nullptr,
    int64_t blockSize = 0,
    WeightScaleRule rule = WeightScaleRule::SymmetricRange);

/// Widens the weight scales whose bias scale (s_input * s_weight) would
/// put a bias value out of int32's range, as ONNX Runtime's QDQ quantizer
/// does (qdq_quantizer._adjust_weight_scale_for_int32_bias): per channel
/// against |bias[c]|, or per tensor against the bias's widest value. A
/// 16-bit input's scale makes this likely. Symmetric weights only.
void widenWeightScalesForBias(MutableArrayRef<ScaleAndZeroPoint> weights,
                              float inputScale, ArrayRef<float> bias);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_SCALEANDZEROPOINT_H
