//===- ChannelWords.h - stores of 8-bit results as channel words -*- C++ -*-===//
//
// A convolution's 8-bit result that the next convolution reads as channel
// words (4 channels' bytes in one int32, for vpdpbusd) is packed by an op of
// its own (convert-onnx-to-linalg's PackedBytes): a pass over memory that
// reads the result and writes it again. A contraction kernel whose epilogue
// computes that result stores the words itself (onnxq-contraction-kernels),
// 4 channels' vectors interleaved in registers, and the packing op goes. So
// does a copy that drops a float result's pitch columns: one channel a word.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_CHANNELWORDS_H
#define ONNXQUANT_LIB_CODEGEN_CHANNELWORDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <array>
#include <optional>

namespace mlir::onnxq {

/// The packing of an 8-bit buffer into channel words: word (..., g, ...) of
/// `words` holds the elements of channels 4g .. 4g + 3 at the same place in
/// their planes, as bytes 0 .. 3. A plane is `rows` rows of `width`
/// elements, `pitch` apart in the buffer (a convolution computed over the
/// padded width leaves pitch - width columns the words do not take) and
/// `width` apart in the words: in the buffer's flat index, element r of
/// channel c's plane is c * channelStride + r; in the words', its word is
/// (c / channelsPerWord) * wordStride + (r / pitch) * width + r % pitch.
///
/// A copy that drops the pitch columns (findCompactingCopy) is such a
/// packing of one channel a word (channelsPerWord 1), its words the buffer's
/// elements.
struct ChannelWordPacking {
  linalg::LinalgOp op;
  Value buffer, words;
  int64_t channelStride, wordStride;
  int64_t width, pitch, rows;
  int64_t channels; ///< all of the buffer's
  int64_t channelsPerWord = 4;
};

/// The input each byte of `op`'s words comes from (byte b: bits 8b .. 8b + 7)
/// when `op` packs bytes into channel words: an element-wise op of identity
/// maps whose body ORs its 4 zero-extended byte inputs, shifted left by 0,
/// 8, 16 and 24; on tensors or on buffers. None otherwise.
std::optional<std::array<unsigned, 4>> getChannelWordBytes(linalg::GenericOp op);

/// The packing into channel words that reads `buffer` (a static allocation
/// with an identity layout, all of whose channels the packing takes, 4 at a
/// time) and is the only op that reads it, through views; `writer` is the
/// only other op that uses it, once (through a view or not). The words are
/// an allocation or a contiguous view of one (some channels' words). None
/// otherwise.
std::optional<ChannelWordPacking> findChannelWordPacking(Value buffer,
                                                         Operation *writer);

/// The copy that reads `buffer` (a static allocation with an identity
/// layout) as rows with a pitch, all of its channels, and writes them without
/// the pitch columns into a contiguous view of an allocation, as a packing of
/// one channel a word: a float convolution computed over flattened padded
/// rows whose activation ran on its result (onnxq-fuse-elementwise). `writer`
/// is the only other op that uses `buffer`, once. None otherwise.
std::optional<ChannelWordPacking> findCompactingCopy(Value buffer, Operation *writer);

/// Erases the packing op and, when nothing else is left using them, the
/// views it read its buffer through and the buffer's allocation.
void erasePacking(RewriterBase &rewriter, const ChannelWordPacking &packing);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_CHANNELWORDS_H
