//===- ChannelWords.cpp - stores of 8-bit results as channel words --------===//

#include "ChannelWords.h"

#include "BufferUses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The shift of each block argument in `value`, an OR of zero-extended
/// bytes each shifted left by a constant (or not): argument -> shift.
bool collectShiftedBytes(Value value, DenseMap<unsigned, int64_t> &shifts) {
  if (auto orOp = value.getDefiningOp<arith::OrIOp>())
    return collectShiftedBytes(orOp.getLhs(), shifts) &&
           collectShiftedBytes(orOp.getRhs(), shifts);
  int64_t shift = 0;
  if (auto shl = value.getDefiningOp<arith::ShLIOp>()) {
    std::optional<int64_t> amount = getConstantIntValue(shl.getRhs());
    if (!amount)
      return false;
    shift = *amount;
    value = shl.getLhs();
  }
  auto extend = value.getDefiningOp<arith::ExtUIOp>();
  auto byte = extend ? dyn_cast<BlockArgument>(extend.getIn()) : nullptr;
  return byte && byte.getType().isInteger(8) &&
         shifts.try_emplace(byte.getArgNumber(), shift).second;
}

bool isPlainAllocation(Value value, Type elementType) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return value.getDefiningOp<memref::AllocOp>() && type && type.hasStaticShape() &&
         type.getLayout().isIdentity() && type.getElementType() == elementType;
}

/// Whether `value` is a static allocation of `elementType` or a view of a
/// contiguous run of one (the words of some of the channels).
bool isContiguousView(Value value, Type elementType) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && isPlainAllocation(getAllocation(value), elementType) &&
         memref::isStaticShapeAndContiguousRowMajor(type);
}

/// The op other than `writer` that uses `buffer` (through views; a
/// deallocation aside), `uses` times, when `writer` uses it once.
Operation *getOnlyReader(Value buffer, Operation *writer, int64_t uses) {
  SmallVector<Operation *> users;
  collectBufferUses(buffer, users);
  Operation *reader = nullptr;
  for (Operation *user : users) {
    if (user == writer || isa<memref::DeallocOp>(user))
      continue;
    if (reader && user != reader)
      return nullptr;
    reader = user;
  }
  if (!reader || llvm::count(users, writer) != 1 || llvm::count(users, reader) != uses)
    return nullptr;
  return reader;
}

/// The packing of `words`, read from `buffer` through views of type
/// `inputType`, each `channelsPerWord` channels of it `channelStride`
/// elements apart: one dim steps `channelsPerWord` channels; those before it
/// have one element; after it, a plane of rows: W elements, stride 1 in
/// both, P >= W apart in the buffer and W apart in the words (other dims of
/// one element).
std::optional<ChannelWordPacking> getPlanes(linalg::LinalgOp op, Value buffer, Value words,
                                            MemRefType inputType, int64_t channelStride,
                                            int64_t channelsPerWord) {
  auto wordsType = cast<MemRefType>(words.getType());
  SmallVector<int64_t> wordStrides, inputStrides;
  int64_t wordOffset, inputOffset;
  if (failed(wordsType.getStridesAndOffset(wordStrides, wordOffset)) ||
      failed(inputType.getStridesAndOffset(inputStrides, inputOffset)))
    return std::nullopt;
  ArrayRef<int64_t> shape = wordsType.getShape();
  int64_t rank = shape.size();
  std::optional<int64_t> group;
  for (int64_t d = 0; d < rank && !group; ++d) {
    if (inputStrides[d] == channelsPerWord * channelStride && shape[d] > 1)
      group = d;
    else if (shape[d] != 1)
      return std::nullopt;
  }
  if (!group || *group + 1 >= rank || inputStrides.back() != 1 || wordStrides.back() != 1)
    return std::nullopt;
  for (int64_t d = *group + 1; d < rank - 2; ++d)
    if (shape[d] != 1)
      return std::nullopt;
  int64_t width = shape.back();
  bool hasRows = *group + 1 < rank - 1 && shape[rank - 2] > 1;
  int64_t rows = hasRows ? shape[rank - 2] : 1;
  int64_t pitch = hasRows ? inputStrides[rank - 2] : width;
  int64_t channels = channelsPerWord * shape[*group];
  if (pitch < width || (rows - 1) * pitch + width > channelStride ||
      channels * channelStride != cast<MemRefType>(buffer.getType()).getNumElements())
    return std::nullopt;
  return ChannelWordPacking{op,    buffer, words,    channelStride, wordStrides[*group],
                            width, pitch,  rows,     channels,      channelsPerWord};
}

} // namespace

std::optional<std::array<unsigned, 4>>
mlir::onnxq::getChannelWordBytes(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 4 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  DenseMap<unsigned, int64_t> shifts;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  if (!collectShiftedBytes(yield.getOperand(0), shifts) || shifts.size() != 4)
    return std::nullopt;
  std::array<unsigned, 4> inputs;
  std::array<bool, 4> seen = {};
  for (auto [argument, shift] : shifts) {
    if (shift % 8 != 0 || shift < 0 || shift > 24 || seen[shift / 8])
      return std::nullopt;
    seen[shift / 8] = true;
    inputs[shift / 8] = argument;
  }
  return inputs;
}

std::optional<ChannelWordPacking>
mlir::onnxq::findChannelWordPacking(Value buffer, Operation *writer) {
  Type byte = IntegerType::get(buffer.getContext(), 8);
  if (!isPlainAllocation(buffer, byte))
    return std::nullopt;
  auto pack = dyn_cast_or_null<linalg::GenericOp>(getOnlyReader(buffer, writer, 4));
  if (!pack || !pack.hasPureBufferSemantics())
    return std::nullopt;
  std::optional<std::array<unsigned, 4>> bytes = getChannelWordBytes(pack);
  Value words = pack.getDpsInitOperand(0)->get();
  if (!bytes || !isContiguousView(words, IntegerType::get(buffer.getContext(), 32)))
    return std::nullopt;

  // Byte b of a word is channel 4g + b: its input starts b channels on.
  MemRefType inputType;
  SmallVector<int64_t> inputStrides;
  SmallVector<int64_t> offsets; // byte -> its input's offset
  for (unsigned input : *bytes) {
    auto type = cast<MemRefType>(pack.getDpsInputs()[input].getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        (inputType && strides != inputStrides))
      return std::nullopt;
    inputType = type;
    inputStrides = strides;
    offsets.push_back(offset);
  }
  int64_t channelStride = offsets[1];
  for (int64_t byte = 0; byte < 4; ++byte)
    if (channelStride <= 0 || offsets[byte] != byte * channelStride)
      return std::nullopt;
  return getPlanes(pack, buffer, words, inputType, channelStride, 4);
}

std::optional<ChannelWordPacking> mlir::onnxq::findCompactingCopy(Value buffer,
                                                                  Operation *writer) {
  auto bufferType = dyn_cast<MemRefType>(buffer.getType());
  if (!bufferType || !isPlainAllocation(buffer, bufferType.getElementType()))
    return std::nullopt;
  auto copy = dyn_cast_or_null<linalg::CopyOp>(getOnlyReader(buffer, writer, 1));
  if (!copy || !copy.hasPureBufferSemantics())
    return std::nullopt;
  Value words = copy.getDpsInitOperand(0)->get();
  auto inputType = cast<MemRefType>(copy.getDpsInputOperand(0)->get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!isContiguousView(words, bufferType.getElementType()) ||
      failed(inputType.getStridesAndOffset(strides, offset)) || offset != 0)
    return std::nullopt;
  // The channels: the outermost dim of more than one element.
  auto channelDim = llvm::find_if(inputType.getShape(), [](int64_t size) { return size > 1; });
  if (channelDim == inputType.getShape().end())
    return std::nullopt;
  int64_t channelStride = strides[channelDim - inputType.getShape().begin()];
  return getPlanes(copy, buffer, words, inputType, channelStride, 1);
}

void mlir::onnxq::erasePacking(RewriterBase &rewriter,
                               const ChannelWordPacking &packing) {
  Value buffer = packing.buffer;
  rewriter.eraseOp(packing.op);
  SmallVector<Operation *> users, views;
  collectBufferUses(buffer, users, &views);
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      rewriter.eraseOp(view);
  if (llvm::all_of(buffer.getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user);
      })) {
    for (Operation *dealloc : llvm::make_early_inc_range(buffer.getUsers()))
      rewriter.eraseOp(dealloc);
    rewriter.eraseOp(buffer.getDefiningOp());
  }
}
