//===- PackedBytes.h - 8-bit operands packed four to an int32 ---*- C++ -*-===//
//
// AVX-512 VNNI's vpdpbusd and AArch64's sdot multiply four byte pairs and add
// them to an int32 lane. The quantized lowerings feed them operands packed
// four bytes along the reduction to an int32 (activations by a packing pass,
// weights at compile time), and write the step as `dot4`, which the kernel
// stage (onnxq-contraction-kernels) emits as the instruction.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_PACKEDBYTES_H
#define ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_PACKEDBYTES_H

#include "Utils.h"

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"

namespace mlir::onnxq {

/// The padded input x (N, C, H, W) (any spatial rank) as (N, G, C4, H, W)
/// int32, input channel 4 * c4 + j of each group in byte j of element c4;
/// channels past the group's `channels` hold `fill`. With `toSigned` each
/// byte is x - 128 as s8 (its top bit flipped).
Value packInputChannels(OpBuilder &b, Location loc, Value x, int64_t group,
                        int64_t channels, int64_t packed, int8_t fill,
                        bool toSigned);

/// An int32 buffer of `type` for packed words, its words filled with four
/// `fill` bytes (each top bit flipped with `toSigned`, as packInputChannels
/// writes them) when more than `dataWords` along dim 2 (AMX's padding to
/// whole 16-word steps) leave some unwritten; else empty.
Value createPackedBuffer(OpBuilder &b, Location loc, RankedTensorType type,
                         int64_t dataWords, int8_t fill, bool toSigned);

/// A 2-D convolution's window (dilation 1) as a stride-1 window over
/// planes of its padded input, for AMX tiles (WindowPlanes.cpp): plane
/// (oh, ow) at (y, x) is the input at (sh * y + oh, sw * x + ow).
struct WindowPlanes {
  /// Per spatial dim (rows, columns): the window's stride, the plane
  /// offsets 0..offsets-1, each plane's extent, and whether every tap has
  /// a plane of its own (folded: one tap over the planes) or the taps step
  /// over phase planes (offsets = min(stride, window)).
  SmallVector<int64_t, 2> strides, offsets, extents;
  SmallVector<bool, 2> folded;
  /// The stride-1 window over the planes.
  WindowGeometry geometry;
  int64_t getCount() const { return offsets[0] * offsets[1]; }
  /// The plane offset and the tap over the planes of window position `k`
  /// along spatial dim `dim`.
  std::pair<int64_t, int64_t> locate(int64_t dim, int64_t k) const;
};
/// The planes of a strided window, or of one over few channel words
/// (`channelWords` per position) with taps that fold into a tile step;
/// nullopt when neither applies (or the window is not 2-D of dilation 1).
std::optional<WindowPlanes> getWindowPlanes(const WindowGeometry &g,
                                            int64_t channelWords);

/// The padded input x (N, C, H, W) as the planes' words (N, 1, `words`,
/// rows, columns): plane p's channels packed as packInputChannels packs
/// them into words [p * planeWords, (p + 1) * planeWords), the words past
/// the last plane's `fill`.
Value packInputPlanes(OpBuilder &b, Location loc, Value x,
                      const WindowPlanes &planes, int64_t channels,
                      int64_t planeWords, int64_t words, int8_t fill,
                      bool toSigned);

/// The weights (F, C, KH, KW) as the planes' window's (1, F, taps...,
/// `words`) int32 words, laid out as packInputPlanes lays out the input;
/// 0 for taps past the window.
SmallVector<int64_t> packWeightPlanes(ArrayRef<int64_t> weights,
                                      const WindowGeometry &g,
                                      const WindowPlanes &planes, int64_t filters,
                                      int64_t channels, int64_t planeWords,
                                      int64_t words);

/// The weights (F, C/G, K...) as (G, F/G, K..., C4) int32, packed like
/// packInputChannels with weight 0 past the last channel. Channel words
/// last: a filter's words for one tap are contiguous, as the rows of an AMX
/// tile must be (the vpdpbusd kernel reads single words, in any layout).
SmallVector<int64_t> packWeightChannels(ArrayRef<int64_t> weights,
                                        int64_t filters, int64_t channels,
                                        int64_t packed, int64_t window);

/// The constant int32 weight words `words` of `type`. When every byte fits
/// in 4 bits (weights quantized to s4, widened to s8 for these kernels) the
/// object keeps a word's four nibbles in an i16 and an element-wise op
/// spreads them, once per process (onnxq-hoist-constants): half the bytes.
Value createWeightWords(OpBuilder &b, Location loc, RankedTensorType type,
                        ArrayRef<int64_t> words);

/// acc + the 4-way dot product of the bytes of `a` (u8, or s8 when
/// `signedInput`) and `w` (s8).
Value dot4(OpBuilder &b, Location loc, Value a, Value w, Value acc,
           bool signedInput);

/// The packed form `dot` gives a convolution of these weights and input:
/// u8 activations, s8 weights without zero point, three or more input
/// channels per group; else None (the widening form).
Int8DotProduct packsFor(Int8DotProduct dot, RankedTensorType wType,
                        RankedTensorType xType, bool wideWeights);

/// The int32 product (M, N) of the u8 matrix `a` (M, K) and the constant
/// weights (K, N) (values in [-128, 127]), each column n starting from
/// `columnStart[n]` ((N) int32), as 4-way byte dot products: a's rows
/// packed to (M, K/4) words by a packing pass, the weights to (K/4, N) at
/// compile time (0 past K). The kernel stage runs it on vpdpbusd (16
/// columns of weight words against a broadcast activation word) or, for
/// `dot` = AMX and a product large enough for tiles (its words then padded
/// to whole 16-word steps), on tdpbusd with the activation rows as A tiles.
Value multiplyPackedBytes(OpBuilder &b, Location loc, Value a,
                          ArrayRef<int64_t> weights, int64_t k, int64_t n,
                          Value columnStart, Int8DotProduct dot);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CONVERSION_ONNXTOLINALG_PACKEDBYTES_H
