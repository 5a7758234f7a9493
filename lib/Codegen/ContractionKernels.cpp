//===- ContractionKernels.cpp - register-blocked reduction kernels --------===//
//
// A linalg op on buffers that reduces into its output with an element-wise
// body becomes a register-blocked kernel: contractions `out += lhs * rhs`
// (Gemm, MatMul, the 1x1 contraction of each convolution tap) and pooling
// windows. The output is cut into tiles of `rows` x `vectors` target
// vectors: the vectors run along the output's contiguous dimension N, the
// rows along a parallel dimension M chosen so that the operand walking N is
// reused by every row when possible (the filters of a convolution, the rows
// of a matrix product). A tile's accumulators are loaded once, carried
// through the reduction loops in registers (scf.for iter_args), updated at
// each step with one vector.fma per accumulator for a float contraction
// (the operand that does not walk N is broadcast) or the body on vectors
// otherwise, and stored once. Integer contractions with widening operands
// (int8 x int8 -> int32) load each operand as vectors of its own element
// type and extend them in the body, as the scalar body says; a vector holds
// as many lanes as the body's widest type fits in a register. Shapes are static, so remainders are too: a
// last block of fewer rows, and a last group of fewer vectors whose last one
// is masked.
//
// Operands are addressed as flat unit-stride buffers with the strides of
// their layout and indexing maps, so convolution and pooling windows need
// no copy; a window of stride 2 is two loads and a shuffle.
//
// The element-wise ops that start and finish the output (a bias, a
// requantization) are fused into the tile: the accumulators start as the
// first one's values and end as the second one's, stored to its buffer.
//
//===----------------------------------------------------------------------===//

#include "BufferUses.h"
#include "ChannelWords.h"
#include "ConstantGlobals.h"
#include "FlatBuffer.h"
#include "Outlining.h"
#include "PaddingFills.h"
#include "PitchedRows.h"
#include "SaturatingPacks.h"

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_CONTRACTIONKERNELSPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using mlir::onnxq::flattenBuffer;
using mlir::onnxq::getAllocation;
using mlir::onnxq::getRowsPerVector;
using mlir::onnxq::kMaxRowsPerVector;
using mlir::onnxq::kAMXMinFilters;
using mlir::onnxq::kAMXStepWords;
using mlir::onnxq::kAMXMinWords;
using mlir::onnxq::kAMXReadyFunction;

namespace {

/// Bytes of the N-walking operand one panel of the output reads.
constexpr int64_t kPanelBytes = 512 * 1024;
/// Panels an output with enough tiles is cut into at least.
constexpr int64_t kMinPanels = 8;

struct RegisterBlock {
  int64_t lanes;   // elements of one target vector
  int64_t rows;    // M extent of a tile
  int64_t vectors; // vectors along N in a tile
};

/// The loops of a contraction, sorted by their role in the kernel, and how
/// each operand (lhs, rhs, out) walks them: the element of operand k at a
/// loop point is `sum(strides[k][d] * iv[d])` in its flat buffer.
/// The 4-way byte dot products of packed quantized convolutions.
enum class Dot4 {
  None,
  U8S8, ///< vpdpbusd (AVX-512 VNNI)
  S8S8, ///< sdot (AArch64 dot product)
};

/// An element-wise op over the contraction's output fused into its kernel:
/// the prologue writes the output's start (the accumulators begin as its
/// body's values instead of a load), the epilogue reads the finished output
/// (its body runs on the accumulators and its own result is stored instead
/// of them). `operands[i]` is the plan operand that op's operand i reads,
/// or kAccumulator, or kScalarOperand.
struct FusedOp {
  linalg::LinalgOp op;
  SmallVector<int64_t> operands;
};
constexpr int64_t kAccumulator = -1;
constexpr int64_t kScalarOperand = -2; ///< broadcast as it is (a fill's value)

/// A row of a byte window packed in registers: a widening u8 x s8
/// multiply-add whose activations read consecutive bytes along a reduction
/// loop the weights also walk contiguously (the window's width in a
/// convolution with one input channel per group, which the quantized
/// lowering cannot pack in memory). For 4 taps at a time, lane l's bytes
/// are gathered from one load by a byte permutation and multiply-added with
/// one vpdpbusd: up to 4 taps per instruction instead of 1.
struct ByteWindow {
  unsigned loop;        ///< taken 4 taps per dot product, not a loop
  unsigned activations; ///< the u8 input (walks N)
  unsigned weights;     ///< the s8 input (broadcast along N)
};

/// A packed u8 x s8 contraction on AMX tiles (tdpbsud: C[filters x
/// positions] += A[filters x 64 weight bytes] * B[16 words x positions]):
/// the weights' words along the channel-word loop are contiguous (A's
/// rows), the activations' positions are (B's rows, one per channel word).
struct AMXOperands {
  unsigned columns;  ///< walks N with unit stride: B tiles (16 words x 16 columns)
  unsigned rows;     ///< walks M and the channel words contiguously: A tiles
  unsigned channels; ///< the channel-word reduction loop
  /// Whether the rows are the u8 operand (a matrix product's activations:
  /// tdpbusd) rather than the s8 one (a convolution's filters: tdpbsud).
  bool unsignedRows = false;
  /// The reduction steps: each position of the `taps` (the other reduction
  /// loops; `tapCount` positions, the last tap fastest) times `blocks`
  /// blocks of `stepWords` channel words (16, or all when fewer:
  /// getAMXChannelWords, no padded words to multiply).
  SmallVector<unsigned> taps;
  int64_t tapCount = 1, stepWords = 0, blocks = 0;
  /// Per step (position * blocks + block), whether the rows' operand is
  /// constant and 0 there for every row, so that the step adds nothing;
  /// empty when the operand is not constant (findZeroSteps).
  SmallVector<bool> zeroSteps;
};

/// Rows of an AMX tile, and int32 columns (positions) of its results.
constexpr int64_t kTileRows = 16;
/// Reduction steps (a tap's 16 channel words) above which an AMX tile's
/// accumulators go through memory once per tap instead of being unrolled.
constexpr int64_t kMaxUnrolledAMXSteps = 64;

struct KernelPlan {
  SmallVector<int64_t> ranges;
  /// Per operand (the contraction's inputs and output, then those of the
  /// fused ops), its stride along each loop of the contraction.
  SmallVector<SmallVector<int64_t>, 3> strides;
  SmallVector<Value> operands;
  unsigned numInputs;               // the contraction's; its output is next
  unsigned n;                       // output's contiguous loop: vector lanes
  /// The loops merged into N, each with N's extent before: an operand
  /// continues N along it if its stride there is that extent x its N stride.
  SmallVector<std::pair<unsigned, int64_t>> mergedIntoN;
  /// Elements of a target vector; fused operands may then have rows of N
  /// with a pitch (isPitchedN).
  int64_t lanes = 0;
  std::optional<unsigned> m;        // register rows
  SmallVector<unsigned> outer;      // the other parallel loops
  SmallVector<unsigned> reductions;
  Dot4 dot4 = Dot4::None;           // packed byte dot products
  std::optional<ByteWindow> byteWindow;
  std::optional<AMXOperands> amx;
  std::optional<FusedOp> prologue, epilogue;
  /// The epilogue's requantization end, run on saturating packs.
  std::optional<onnxq::SaturatingRequant> saturation;
  /// The epilogue's output is the interior of a padded buffer, rows of
  /// `width` positions along N `pitch` apart, and the kernel stores the
  /// `padding` between them (storePaddingBetweenRows); with `planeDim`, the
  /// interior's planes along it are M's rows, and each block of rows also
  /// fills the padding around its planes.
  struct RowGaps {
    Value padding;
    int64_t width, pitch;
    memref::SubViewOp interior;
    std::optional<int64_t> planeDim;
  };
  std::optional<RowGaps> rowGaps;
  /// The epilogue's 8-bit result is stored as the channel words its
  /// packing wrote, which replaces it among the operands
  /// (storeChannelWords).
  std::optional<onnxq::ChannelWordPacking> channelWords;
  /// Deallocations between the fused ops: after the kernel, which reads
  /// its inputs where the epilogue was.
  SmallVector<Operation *> deallocs;

  bool walks(unsigned operand, unsigned loop) const {
    return strides[operand][loop] != 0;
  }
  /// Whether operand `k` does not continue N along a loop merged into it:
  /// its rows have a pitch (a convolution writing into the interior of its
  /// consumer's zero-padded input). Its address at flat N index f then
  /// takes each merged loop's position apart (KernelEmitter::indexAt).
  bool isPitchedN(unsigned k) const { return isPitchedN(strides[k]); }
  bool isPitchedN(ArrayRef<int64_t> operandStrides) const {
    return llvm::any_of(mergedIntoN, [&](std::pair<unsigned, int64_t> merged) {
      return operandStrides[merged.first] != merged.second * operandStrides[n];
    });
  }
  /// Whether a vector of operand `k`, which has rows with a pitch, may hold
  /// the end of one row and the start of the next: rows that are not whole
  /// vectors (KernelEmitter::storeAcrossRows).
  bool crossesRows(unsigned k) const { return crossesRows(strides[k]); }
  bool crossesRows(ArrayRef<int64_t> operandStrides) const {
    return isPitchedN(operandStrides) && mergedIntoN.front().second % lanes != 0;
  }
  /// Iterations of the reduction loops (a convolution's channels or
  /// channel words times its taps).
  int64_t getReductionDepth() const {
    int64_t depth = 1;
    for (unsigned loop : reductions)
      depth *= ranges[loop];
    return depth;
  }
  /// Bytes of the inputs that walk `loop` and not `other`.
  int64_t getBytesWalking(unsigned loop, std::optional<unsigned> other) const {
    int64_t bytes = 0;
    for (unsigned k = 0; k < numInputs; ++k)
      if (walks(k, loop) && !(other && walks(k, *other))) {
        auto type = cast<MemRefType>(operands[k].getType());
        bytes += type.getNumElements() * type.getElementTypeBitWidth() / 8;
      }
    return bytes;
  }
  /// Whether the blocks of M rows are the kernel's outer loop (the one
  /// onnxq-parallelize splits), the panels of N inside: when the operand
  /// walking M outweighs the one walking N (KernelEmitter::emitPanels).
  bool rowBlocksOuter() const {
    return m && getBytesWalking(*m, n) > getBytesWalking(n, m);
  }
};

bool hasStaticLayout(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// Merges into N every parallel loop that continues it in all operands
/// (stride = N's extent x N's stride): the output rows of an unpadded 1x1
/// convolution, for instance, form one long contiguous loop, which wastes
/// fewer lanes than short rows.
void collapseIntoN(KernelPlan &plan, ArrayRef<unsigned> parallel) {
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned loop : parallel) {
      if (loop == plan.n || plan.ranges[loop] == 1 ||
          llvm::any_of(plan.strides, [&](ArrayRef<int64_t> strides) {
            return strides[loop] != plan.ranges[plan.n] * strides[plan.n];
          }))
        continue;
      plan.mergedIntoN.emplace_back(loop, plan.ranges[plan.n]);
      plan.ranges[plan.n] *= plan.ranges[loop];
      plan.ranges[loop] = 1;
      changed = true;
    }
  }
}

/// Adds `scale` x the coefficient of each loop in `expr` to `strides`; fails
/// unless `expr` is a linear combination of loops (no constant term: windows
/// start at their view's offset).
LogicalResult addStrides(AffineExpr expr, int64_t scale,
                         MutableArrayRef<int64_t> strides) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    strides[dim.getPosition()] += scale;
    return success();
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return failure();
  if (binary.getKind() == AffineExprKind::Add)
    return success(succeeded(addStrides(binary.getLHS(), scale, strides)) &&
                   succeeded(addStrides(binary.getRHS(), scale, strides)));
  auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (binary.getKind() != AffineExprKind::Mul || !factor)
    return failure();
  return addStrides(binary.getLHS(), scale * factor.getValue(), strides);
}

bool isScalar(Type type) { return type.isIntOrFloat(); }

/// A body the kernel can evaluate on vectors: element-wise arith on integer
/// or float scalars (extensions included), and math ops too with
/// `allowMath` (the requantizations fused into a kernel round with
/// math.roundeven).
bool isElementwiseBody(linalg::LinalgOp op, bool allowMath = false) {
  return llvm::all_of(op.getBlock()->without_terminator(), [&](Operation &inner) {
    return (isa<arith::ArithDialect>(inner.getDialect()) ||
            (allowMath && isa<math::MathDialect>(inner.getDialect()))) &&
           !isa<arith::ConstantOp>(inner) &&
           inner.getNumResults() == 1 && inner.getNumRegions() == 0 &&
           llvm::all_of(inner.getOperandTypes(), isScalar) &&
           isScalar(inner.getResult(0).getType());
  });
}

/// Whether the body is `out + in0 * in1` on floats: one vector.fma per
/// accumulator (convolutions read their input through window maps, which
/// linalg's contraction interface does not accept).
bool isFloatMultiplyAdd(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (op.getNumDpsInputs() != 2 || body->getOperations().size() != 3)
    return false;
  auto add = dyn_cast<arith::AddFOp>(body->getTerminator()->getOperand(0).getDefiningOp());
  if (!add)
    return false;
  Value acc = body->getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  return mul && (add.getLhs() == acc || add.getRhs() == acc) &&
         ((mul.getLhs() == body->getArgument(0) && mul.getRhs() == body->getArgument(1)) ||
          (mul.getLhs() == body->getArgument(1) && mul.getRhs() == body->getArgument(0)));
}

/// Whether the body is `out + dot4(in0, in1)`: the 4-way dot product of the
/// bytes of two int32s (convolutions packed by the quantized lowering):
///   ext(bitcast(broadcast(in0))) * extsi(bitcast(broadcast(in1))),
///   summed by vector.reduction <add>, added to out; in0's bytes are u8
///   (extui) or s8 (extsi).
Dot4 getDot4Body(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (op.getNumDpsInputs() != 2 || body->getNumArguments() != 3 ||
      body->getOperations().size() != 10)
    return Dot4::None;
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add || add.getLhs() != body->getArgument(2))
    return Dot4::None;
  auto sum = add.getRhs().getDefiningOp<vector::ReductionOp>();
  if (!sum || sum.getKind() != vector::CombiningKind::ADD || sum.getAcc())
    return Dot4::None;
  auto mul = sum.getVector().getDefiningOp<arith::MulIOp>();
  if (!mul)
    return Dot4::None;
  auto bytesOf = [&](Value v, unsigned arg) {
    auto cast = v.getDefiningOp<vector::BitCastOp>();
    auto splat = cast ? cast.getSource().getDefiningOp<vector::BroadcastOp>() : nullptr;
    return splat && splat.getSource() == body->getArgument(arg) &&
           cast.getResultVectorType() ==
               VectorType::get({4}, IntegerType::get(op.getContext(), 8));
  };
  auto rhs = mul.getRhs().getDefiningOp<arith::ExtSIOp>();
  if (!rhs || !bytesOf(rhs.getIn(), 1))
    return Dot4::None;
  if (auto lhs = mul.getLhs().getDefiningOp<arith::ExtUIOp>())
    return bytesOf(lhs.getIn(), 0) ? Dot4::U8S8 : Dot4::None;
  if (auto lhs = mul.getLhs().getDefiningOp<arith::ExtSIOp>())
    return bytesOf(lhs.getIn(), 0) ? Dot4::S8S8 : Dot4::None;
  return Dot4::None;
}

/// The inputs (u8, s8) of a body `out + extui(a) * extsi(w)` on i8 inputs
/// and an i32 output, in operand order; else nullopt.
std::optional<std::pair<unsigned, unsigned>>
getU8S8MultiplyAdd(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (op.getNumDpsInputs() != 2 || body->getOperations().size() != 5 ||
      !body->getArgument(2).getType().isInteger(32))
    return std::nullopt;
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  Value acc = body->getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulIOp>();
  if (!mul || (add.getLhs() != acc && add.getRhs() != acc))
    return std::nullopt;
  auto byteArgument = [&](Value extended) -> std::optional<unsigned> {
    Operation *ext = extended.getDefiningOp();
    if (!isa_and_present<arith::ExtUIOp, arith::ExtSIOp>(ext))
      return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(ext->getOperand(0));
    if (!arg || arg.getOwner() != body || arg.getArgNumber() > 1 ||
        !arg.getType().isInteger(8))
      return std::nullopt;
    return arg.getArgNumber();
  };
  for (auto [u8, s8] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
    std::optional<unsigned> a = byteArgument(u8), w = byteArgument(s8);
    if (a && w && *a != *w && u8.getDefiningOp<arith::ExtUIOp>() &&
        s8.getDefiningOp<arith::ExtSIOp>())
      return std::pair(*a, *w);
  }
  return std::nullopt;
}

/// The byte window of the plan's contraction, if it has one (see
/// ByteWindow): its activations walk N with stride 1 or 2 and the window's
/// loop (2 taps or more) with stride 1, the weights walk that loop with
/// stride 1 and not N.
std::optional<ByteWindow> getByteWindow(linalg::LinalgOp op,
                                        const KernelPlan &plan) {
  std::optional<std::pair<unsigned, unsigned>> inputs = getU8S8MultiplyAdd(op);
  if (!inputs)
    return std::nullopt;
  auto [a, w] = *inputs;
  if (plan.strides[a][plan.n] < 1 || plan.strides[a][plan.n] > 2 ||
      plan.walks(w, plan.n))
    return std::nullopt;
  for (unsigned loop : plan.reductions)
    if (plan.ranges[loop] >= 2 &&
        plan.strides[a][loop] == 1 && plan.strides[w][loop] == 1)
      return ByteWindow{loop, a, w};
  return std::nullopt;
}

/// Bits of the widest scalar in the body: a vector of the kernel holds as
/// many lanes as that type fits in a register (int32 lanes for the
/// accumulator of an int8 contraction, loaded as int8 and extended).
unsigned getWidestBodyBits(linalg::LinalgOp op) {
  unsigned bits = 0;
  auto widen = [&](Type type) {
    if (isScalar(type))
      bits = std::max(bits, type.getIntOrFloatBitWidth());
  };
  for (Type type : op.getBlock()->getArgumentTypes())
    widen(type);
  for (Operation &inner : op.getBlock()->without_terminator())
    widen(inner.getResult(0).getType());
  return bits;
}

/// Whether the kernel can address `value` as a flat buffer of whole-byte
/// scalars: a static layout, integer or float elements (memref<Nxi1> holds a
/// byte per element, ONNX bool, where vector<Nxi1> is bit-packed).
bool isAddressable(Value value) {
  if (!hasStaticLayout(value))
    return false;
  Type element = cast<MemRefType>(value.getType()).getElementType();
  return isScalar(element) && element.getIntOrFloatBitWidth() % 8 == 0;
}

/// The stride of `operand` of `op` along each loop of `op`, in elements of
/// its flat buffer; fails unless its indexing map is linear.
FailureOr<SmallVector<int64_t>> getLoopStrides(linalg::LinalgOp op,
                                               OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto memrefStrides =
      cast<MemRefType>(operand.get().getType()).getStridesAndOffset().first;
  SmallVector<int64_t> strides(map.getNumDims(), 0);
  for (auto [expr, stride] : llvm::zip(map.getResults(), memrefStrides))
    if (failed(addStrides(expr, stride, strides)))
      return failure();
  return strides;
}

FailureOr<KernelPlan> planKernel(linalg::LinalgOp op, bool byteWindows) {
  Dot4 dot4 = getDot4Body(op);
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 ||
      !(isElementwiseBody(op) || dot4 != Dot4::None))
    return failure();
  if (!llvm::all_of(op->getOperands(), isAddressable))
    return failure();
  KernelPlan plan;
  plan.dot4 = dot4;
  plan.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(plan.ranges, [](int64_t r) { return r <= 0; }))
    return failure();
  plan.numInputs = op.getNumDpsInputs();
  for (OpOperand &operand : op->getOpOperands()) {
    FailureOr<SmallVector<int64_t>> strides = getLoopStrides(op, operand);
    if (failed(strides))
      return failure();
    plan.operands.push_back(operand.get());
    plan.strides.push_back(std::move(*strides));
  }

  // The output indexes every parallel loop (one at least: a reduction into
  // a single element has no N); its innermost dimension must be contiguous
  // to hold whole vectors.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation() || outMap.getNumResults() == 0 ||
      outMap.getNumResults() != op.getNumParallelLoops())
    return failure();
  SmallVector<unsigned> parallel;
  for (unsigned i = 0; i < outMap.getNumResults(); ++i)
    parallel.push_back(outMap.getDimPosition(i));
  plan.n = parallel.back();
  if (plan.strides.back()[plan.n] != 1)
    return failure();
  collapseIntoN(plan, parallel);
  if (plan.ranges[plan.n] < 2 ||
      llvm::any_of(plan.strides, [&](ArrayRef<int64_t> strides) {
        return strides[plan.n] > 2;
      }))
    return failure();

  // Rows: prefer a loop the N-walking operands do not use (they are then
  // loaded once for all rows), then the longest.
  auto reusesVectors = [&](unsigned loop) {
    for (unsigned k = 0; k < plan.numInputs; ++k)
      if (plan.walks(k, plan.n) && plan.walks(k, loop))
        return false;
    return true;
  };
  auto score = [&](unsigned loop) {
    return std::make_pair(reusesVectors(loop), plan.ranges[loop]);
  };
  for (unsigned loop : parallel)
    if (loop != plan.n && plan.ranges[loop] > 1 &&
        (!plan.m || score(loop) > score(*plan.m)))
      plan.m = loop;
  for (unsigned loop : parallel)
    if (loop != plan.n && loop != plan.m)
      plan.outer.push_back(loop);
  for (auto [loop, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      plan.reductions.push_back(loop);
  if (byteWindows)
    plan.byteWindow = getByteWindow(op, plan);
  return plan;
}

/// The AMX form of a packed u8 x s8 contraction (planKernel's Dot4::U8S8):
/// one operand walking the rows M and, with unit stride, a channel-word
/// reduction loop (its words for one tap contiguous, an A tile's row), the
/// other walking N with unit stride (a B tile's row is 16 columns of one
/// channel word), whole steps of 16 channel words or fewer than 16 words
/// in all (getAMXChannelWords: convert-onnx-to-linalg pads them for
/// int8-dot=amx), kAMXMinFilters rows and 16 columns. A
/// convolution's rows are its s8 filters (tdpbsud), a matrix product's its
/// u8 activation rows (tdpbusd).
std::optional<AMXOperands> getAMXOperands(const KernelPlan &plan) {
  if (plan.dot4 != Dot4::U8S8 || plan.byteWindow || !plan.m || plan.numInputs != 2)
    return std::nullopt;
  // Operand 0 is the dot4 body's u8 one.
  AMXOperands amx{0, 1, 0};
  if (!plan.walks(amx.columns, plan.n)) {
    std::swap(amx.columns, amx.rows);
    amx.unsignedRows = true;
  }
  unsigned m = *plan.m;
  if (plan.strides[amx.columns][plan.n] != 1 || plan.walks(amx.rows, plan.n) ||
      !plan.walks(amx.rows, m) || plan.walks(amx.columns, m))
    return std::nullopt;
  auto channels = llvm::find_if(plan.reductions, [&](unsigned loop) {
    return plan.strides[amx.rows][loop] == 1 && plan.walks(amx.columns, loop);
  });
  if (channels == plan.reductions.end() || plan.getReductionDepth() < kAMXMinWords ||
      (plan.ranges[*channels] > kAMXStepWords &&
       plan.ranges[*channels] % kAMXStepWords != 0) ||
      plan.ranges[m] < kAMXMinFilters || plan.ranges[plan.n] < kTileRows)
    return std::nullopt;
  amx.channels = *channels;
  amx.stepWords = std::min(kAMXStepWords, plan.ranges[amx.channels]);
  amx.blocks = plan.ranges[amx.channels] / amx.stepWords;
  for (unsigned loop : plan.reductions)
    if (loop != amx.channels) {
      amx.taps.push_back(loop);
      amx.tapCount *= plan.ranges[loop];
    }
  return amx;
}

/// The index of each of `taps` (loops of `ranges`) at the linear tap
/// position `position`, the last tap fastest, as the loops would run.
SmallVector<int64_t> getTapIndices(ArrayRef<int64_t> ranges, ArrayRef<unsigned> taps,
                                   int64_t position) {
  SmallVector<int64_t> indices(taps.size());
  for (int64_t d = taps.size() - 1, rest = position; d >= 0; --d) {
    indices[d] = rest % ranges[taps[d]];
    rest /= ranges[taps[d]];
  }
  return indices;
}

/// The elements of `buffer` when it is a constant global (weights), in
/// the order of its identity layout; else nullopt.
std::optional<SmallVector<int64_t>> getConstantElements(Value buffer) {
  if (!cast<MemRefType>(buffer.getType()).getLayout().isIdentity())
    return std::nullopt;
  ElementsAttr init = onnxq::getConstantGlobalValue(buffer);
  return init ? onnxq::getIntegerValues(init) : std::nullopt;
}

/// AMXOperands::zeroSteps of `plan`: the steps whose rows' operand is
/// constant and 0 for every row add nothing (a strided window over phase
/// planes has taps past the window, onnx-to-linalg's WindowPlanes).
SmallVector<bool> findZeroSteps(const KernelPlan &plan) {
  const AMXOperands &amx = *plan.amx;
  std::optional<SmallVector<int64_t>> values =
      getConstantElements(plan.operands[amx.rows]);
  if (!values)
    return {};
  ArrayRef<int64_t> strides = plan.strides[amx.rows];
  // The loops a step covers whole: every loop the operand walks but the
  // taps, and the channel words of the block.
  SmallVector<unsigned> within;
  for (unsigned loop = 0; loop < plan.ranges.size(); ++loop)
    if (plan.walks(amx.rows, loop) && !llvm::is_contained(amx.taps, loop))
      within.push_back(loop);
  SmallVector<bool> zero(amx.tapCount * amx.blocks, true);
  SmallVector<int64_t> iv(plan.ranges.size(), 0);
  for (int64_t position = 0; position < amx.tapCount; ++position) {
    for (auto [loop, index] :
         llvm::zip(amx.taps, getTapIndices(plan.ranges, amx.taps, position)))
      iv[loop] = index;
    for (int64_t blk = 0; blk < amx.blocks; ++blk) {
      // Odometer over the loops within the step, the channels in the block.
      auto beginOf = [&](unsigned loop) {
        return loop == amx.channels ? blk * amx.stepWords : 0;
      };
      auto endOf = [&](unsigned loop) {
        return loop == amx.channels ? beginOf(loop) + amx.stepWords : plan.ranges[loop];
      };
      for (unsigned loop : within)
        iv[loop] = beginOf(loop);
      bool allZero = true;
      while (allZero) {
        int64_t index = 0;
        for (auto [loop, stride] : llvm::enumerate(strides))
          index += iv[loop] * stride;
        allZero = (*values)[index] == 0;
        int64_t d = within.size() - 1;
        for (; d >= 0; --d) {
          if (++iv[within[d]] < endOf(within[d]))
            break;
          iv[within[d]] = beginOf(within[d]);
        }
        if (d < 0)
          break;
      }
      zero[position * amx.blocks + blk] = allZero;
    }
  }
  return zero;
}

/// Whether `op` reads or writes memory: neither free of memory effects nor
/// only an allocation (deallocations are the callers' to handle).
bool readsOrWritesMemory(Operation *op) {
  return !isMemoryEffectFree(op) && !hasSingleEffect<MemoryEffects::Allocate>(op);
}

/// The nearest op before `op` in its block that reads or writes memory,
/// past allocations and deallocations (collected in `deallocs`: they move
/// after the kernel).
Operation *getPreviousMemoryOp(Operation *op, SmallVectorImpl<Operation *> &deallocs) {
  for (Operation *other = op->getPrevNode(); other; other = other->getPrevNode()) {
    if (isa<memref::DeallocOp>(other))
      deallocs.push_back(other);
    else if (readsOrWritesMemory(other))
      return other;
  }
  return nullptr;
}

/// Whether `op`, an element-wise op on buffers, runs over the contraction's
/// parallel loops: the same ranges, in the order of the contraction's
/// output, and a body the kernel can evaluate on vectors.
bool isElementwiseOverOutput(linalg::LinalgOp op, linalg::LinalgOp contraction) {
  if (!op || !op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || op.hasIndexSemantics())
    return false;
  AffineMap outMap = contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != outMap.getNumResults())
    return false;
  for (auto [i, range] : llvm::enumerate(ranges))
    if (range != contraction.getStaticLoopRanges()[outMap.getDimPosition(i)])
      return false;
  return isElementwiseBody(op, /*allowMath=*/true);
}

/// Adds operand `operand` of the fused op `op` to the plan: its strides over
/// the contraction's loops (fused loop i is the contraction's loop at
/// position i of its output map). Returns its plan index, or -1 when its
/// layout or map does not allow it.
int64_t addFusedOperand(KernelPlan &plan, linalg::LinalgOp op,
                        OpOperand &operand, AffineMap outMap) {
  Value value = operand.get();
  if (!isAddressable(value))
    return -1;
  FailureOr<SmallVector<int64_t>> fused = getLoopStrides(op, operand);
  if (failed(fused))
    return -1;
  SmallVector<int64_t> strides(plan.ranges.size(), 0);
  for (auto [i, stride] : llvm::enumerate(*fused))
    strides[outMap.getDimPosition(i)] = stride;
  // Whole vectors along N, contiguous, across the loops merged into it or
  // in rows with a pitch: rows of whole vectors, which no vector crosses
  // (tiles and panels start at multiples of the vector), or, for the
  // result an epilogue stores, rows below one merged loop that a vector
  // spans few of, stored in one part per row.
  if (strides[plan.n] > 1)
    return -1;
  auto isStoredAcrossRows = [&] {
    return op.isDpsInit(&operand) && plan.mergedIntoN.size() == 1 &&
           getRowsPerVector(plan.lanes, plan.mergedIntoN.front().second) <=
               kMaxRowsPerVector;
  };
  if (plan.isPitchedN(strides) &&
      (strides[plan.n] != 1 || plan.lanes == 0 ||
       (plan.crossesRows(strides) && !isStoredAcrossRows())))
    return -1;
  plan.operands.push_back(value);
  plan.strides.push_back(std::move(strides));
  return plan.operands.size() - 1;
}

/// `op` as a fused op of the plan: a prologue (`accumulator` null; its
/// output is the contraction's, which it writes and does not read) or an
/// epilogue (reading `accumulator`, the contraction's output, with an
/// identity map; its own output is stored). Fails, leaving the plan as it
/// was, if an operand cannot be addressed by the kernel.
std::optional<FusedOp> fuse(KernelPlan &plan, linalg::LinalgOp op,
                            AffineMap outMap, Value accumulator) {
  size_t planOperands = plan.operands.size();
  FusedOp fused{op, {}};
  for (OpOperand &operand : op->getOpOperands()) {
    bool isAccumulator = accumulator ? operand.get() == accumulator
                                     : op.isDpsInit(&operand);
    if (isAccumulator && accumulator &&
        !op.getMatchingIndexingMap(&operand).isIdentity())
      break;
    if (!isAccumulator && isScalar(operand.get().getType())) {
      fused.operands.push_back(kScalarOperand); // a fill's value
      continue;
    }
    int64_t index = isAccumulator ? kAccumulator
                                  : addFusedOperand(plan, op, operand, outMap);
    if (!isAccumulator && index < 0)
      break;
    fused.operands.push_back(index);
  }
  if (fused.operands.size() != op->getNumOperands()) {
    plan.operands.truncate(planOperands);
    plan.strides.truncate(planOperands);
    return std::nullopt;
  }
  return fused;
}

/// Whether nothing but `allowed` (and deallocations) uses `value` or a view
/// of it.
bool isOnlyUsedBy(Value value, ArrayRef<Operation *> allowed) {
  SmallVector<Operation *> users;
  onnxq::collectBufferUses(value, users);
  return llvm::all_of(users, [&](Operation *user) {
    return llvm::is_contained(allowed, user) || isa<memref::DeallocOp>(user);
  });
}

/// Whether `root`, the allocation behind a buffer, is known to share no
/// memory with another such root: an allocation, a global or an argument
/// (the ABI's buffers do not overlap).
bool isDistinctBuffer(Value root) {
  if (isa<BlockArgument>(root))
    return true;
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(
      root.getDefiningOp());
}

/// The memory effects of `op` and the ops nested in it, or nullopt when
/// one of them has unknown effects. A kernel built already counts too: its
/// query of the AMX permission (kAMXReadyFunction) and its dot-product
/// intrinsics (on vectors, no pointer) touch no buffer.
std::optional<SmallVector<MemoryEffects::EffectInstance>>
getEffectsWithKernels(Operation *op) {
  SmallVector<MemoryEffects::EffectInstance> effects;
  WalkResult walk = op->walk([&](Operation *nested) {
    if (auto call = dyn_cast<func::CallOp>(nested);
        call && call.getCallee() == kAMXReadyFunction)
      return WalkResult::advance();
    if (isa<LLVM::CallIntrinsicOp>(nested) &&
        llvm::all_of(nested->getOperandTypes(), llvm::IsaPred<VectorType>))
      return WalkResult::advance();
    if (auto effecting = dyn_cast<MemoryEffectOpInterface>(nested)) {
      effecting.getEffects(effects);
      return WalkResult::advance();
    }
    return nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return effects;
}

/// The first op after the contraction `op` in its block that uses its
/// output buffer `root`, if the contraction can move down to it: the ops in
/// between write no buffer it reads (`reads`: allocations). A kernel fused
/// with its epilogue runs where the epilogue is: a Concat's requantizations
/// follow all of its inputs' convolutions. Deallocations on the way are
/// collected: they move after the kernel.
Operation *getFirstReader(Operation *op, Value root, ArrayRef<Value> reads,
                          SmallVectorImpl<Operation *> &deallocs) {
  for (Operation *other = op->getNextNode(); other; other = other->getNextNode()) {
    if (isa<memref::DeallocOp>(other)) {
      deallocs.push_back(other);
      continue;
    }
    if (!readsOrWritesMemory(other))
      continue;
    if (llvm::any_of(other->getOperands(), [&](Value operand) {
          return isa<MemRefType>(operand.getType()) && getAllocation(operand) == root;
        }))
      return other;
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsWithKernels(other);
    if (!effects)
      return nullptr;
    for (const MemoryEffects::EffectInstance &effect : *effects) {
      Value buffer = effect.getValue() ? getAllocation(effect.getValue()) : Value();
      // A kernel reads its buffers in nested ops.
      if (buffer == root && isa<MemoryEffects::Read>(effect.getEffect()))
        return nullptr;
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
        continue;
      if (!buffer || !isDistinctBuffer(buffer) || buffer == root ||
          llvm::is_contained(reads, buffer))
        return nullptr;
    }
  }
  return nullptr;
}

/// A fill of the contraction's output placed earlier in the block (the
/// zero start of a MatMul's accumulation may sit at the function's start,
/// among the other fresh buffers' fills) moves to just before it, where
/// fuseNeighbours takes it as the prologue: nothing else touches the
/// buffer before the contraction. Left where it was, the kernel would load
/// its accumulators from memory, and no epilogue could be fused (the
/// buffer would have a third user).
void sinkOutputFill(RewriterBase &rewriter, linalg::LinalgOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  if (!out.getDefiningOp<memref::AllocOp>())
    return;
  linalg::FillOp fill;
  for (Operation *user : out.getUsers()) {
    if (user == op.getOperation())
      continue;
    auto userFill = dyn_cast<linalg::FillOp>(user);
    if (userFill && !fill && userFill->getBlock() == op->getBlock() &&
        userFill->isBeforeInBlock(op)) {
      fill = userFill;
      continue;
    }
    if (user->getBlock() != op->getBlock() || user->isBeforeInBlock(op))
      return; // the buffer is used before the contraction by something else
  }
  if (fill && fill->getNextNode() != op.getOperation())
    rewriter.moveOpBefore(fill, op);
}

/// Fuses the contraction's neighbours into its kernel where they allow it:
/// the op just before it that writes its whole output from other values
/// (its start: a bias, a fill) and the op just after it that reads the
/// output element by element into another buffer (a requantization), when
/// nothing else reads the output buffer.
void fuseNeighbours(linalg::LinalgOp op, KernelPlan &plan) {
  Value out = op.getDpsInitOperand(0)->get();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<Operation *> deallocs;
  auto prologue = dyn_cast_or_null<linalg::LinalgOp>(
      getPreviousMemoryOp(op, deallocs));
  if (isElementwiseOverOutput(prologue, op) &&
      prologue.getDpsInitOperand(0)->get() == out &&
      prologue.getMatchingIndexingMap(prologue.getDpsInitOperand(0)).isIdentity() &&
      prologue.getMatchingBlockArgument(prologue.getDpsInitOperand(0)).use_empty() &&
      !llvm::is_contained(prologue.getDpsInputs(), out))
    plan.prologue = fuse(plan, prologue, outMap, /*accumulator=*/nullptr);
  if (plan.prologue)
    plan.deallocs.append(deallocs);
  deallocs.clear();

  SmallVector<Value> reads;
  for (Value input : op.getDpsInputs())
    reads.push_back(getAllocation(input));
  if (plan.prologue)
    for (Value input : plan.prologue->op.getDpsInputs())
      reads.push_back(getAllocation(input));
  auto epilogue = dyn_cast_or_null<linalg::LinalgOp>(
      getFirstReader(op, getAllocation(out), reads, deallocs));
  if (!isElementwiseOverOutput(epilogue, op) ||
      epilogue.getDpsInitOperand(0)->get() == out ||
      !epilogue.getMatchingBlockArgument(epilogue.getDpsInitOperand(0)).use_empty() ||
      !llvm::is_contained(epilogue.getDpsInputs(), out))
    return;
  // The output's buffer must be this kernel's alone: an allocation (not an
  // argument) that nothing else uses.
  Value root = getAllocation(out);
  SmallVector<Operation *> users = {op, epilogue};
  if (plan.prologue)
    users.push_back(plan.prologue->op);
  if (!root.getDefiningOp<memref::AllocOp>() || !isOnlyUsedBy(root, users))
    return;
  // The kernel stores the epilogue's results while it still reads its
  // inputs: they must be other buffers.
  Value result = getAllocation(epilogue.getDpsInitOperand(0)->get());
  if (llvm::any_of(op.getDpsInputs(), [&](Value input) {
        return getAllocation(input) == result;
      }))
    return;
  plan.epilogue = fuse(plan, epilogue, outMap, /*accumulator=*/out);
  if (plan.epilogue)
    plan.deallocs.append(deallocs);
}

/// Per operand, its vectors (or broadcast elements) by tile position.
using OperandCache =
    SmallVector<DenseMap<std::pair<int64_t, int64_t>, Value>>;

/// Emits the kernel of one contraction at the builder's insertion point.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, linalg::LinalgOp op, const KernelPlan &plan,
                const RegisterBlock &block, int64_t vectorRows)
      : b(b), loc(op.getLoc()), op(op),
        useFMA(isFloatMultiplyAdd(op)), plan(plan), block(block),
        vectorRows(vectorRows), iv(plan.ranges.size(), b.getIndexAttr(0)),
        tileLanes(block.lanes), out(plan.numInputs) {
    for (Value operand : plan.operands)
      buffers.push_back(flattenBuffer(b, loc, operand));
    scratchPitch = block.lanes * block.vectors;
    // AMX results pass through memory into vectors: a tile's worth, per
    // kernel (outlining gives each thread's task its own).
    if (plan.amx) {
      amxScratch = memref::AllocaOp::create(
          b, loc, MemRefType::get({block.rows * scratchPitch}, b.getI32Type()),
          /*alignment=*/b.getI64IntegerAttr(64));
      amxScratch.getDefiningOp()->setAttr(onnxq::kScratchAttrName, b.getUnitAttr());
    }
    if (plan.epilogue) {
      linalg::LinalgOp epilogue = plan.epilogue->op;
      epilogueResult = plan.epilogue->operands[epilogue.getNumDpsInputs()];
    }
    tilesMayOverlap = readsNothingItStores();
  }

  void emit() { emitOuterLoops(0); }

private:
  /// Whether the kernel stores to no buffer it reads: its start is the
  /// prologue's or its results go to the epilogue's buffer, and no input
  /// shares that buffer. Then a tile computed twice stores the same values.
  bool readsNothingItStores() const {
    if (!plan.prologue && !plan.epilogue)
      return false; // out += ...: the accumulators are loaded from out
    unsigned stored = plan.epilogue ? epilogueResult : out;
    Value storedBuffer = getAllocation(plan.operands[stored]);
    for (auto [k, operand] : llvm::enumerate(plan.operands)) {
      bool read = k != stored && (k != out || !plan.prologue);
      if (read && getAllocation(operand) == storedBuffer)
        return false;
    }
    return true;
  }

  /// Calls `body(start, size)` on blocks of `step` covering
  /// [base, base + extent): in a loop for the full blocks, then once for the
  /// last partial block, if any. The blocks are parts of the output, so the
  /// loop is an scf.parallel (onnxq-parallelize may split it over threads).
  /// With `lastInLoop`, the last partial block is an iteration of the loop
  /// too (a branch in its body) rather than code after it: the outermost
  /// loop of the output's blocks is the one onnxq-parallelize splits, and a
  /// partial block after it would be a second split, with a second
  /// hand-over to the threads.
  void forEachBlock(OpFoldResult base, int64_t extent, int64_t step,
                    function_ref<void(OpFoldResult, int64_t)> body,
                    bool lastInLoop = false) {
    auto at = [&](OpFoldResult offset) {
      AffineExpr d0, d1;
      bindDims(b.getContext(), d0, d1);
      return affine::makeComposedFoldedAffineApply(b, loc, d0 + d1,
                                                   {base, offset});
    };
    int64_t full = extent - extent % step;
    bool lastInside = lastInLoop && full > 0 && full < extent;
    if (full > 0) {
      OpBuilder::InsertionGuard guard(b);
      auto index = [&](int64_t v) {
        return arith::ConstantIndexOp::create(b, loc, v);
      };
      auto loop = scf::ParallelOp::create(b, loc, ValueRange{index(0)},
                                          ValueRange{index(lastInside ? extent : full)},
                                          ValueRange{index(step)});
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value start = loop.getInductionVars()[0];
      if (lastInside) {
        Value isFull =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, start, index(full));
        auto choice =
            scf::IfOp::create(b, loc, TypeRange{}, isFull, /*withElseRegion=*/true);
        b.setInsertionPoint(choice.elseBlock()->getTerminator());
        body(at(b.getIndexAttr(full)), extent - full);
        b.setInsertionPoint(choice.thenBlock()->getTerminator());
      }
      body(at(start), step);
    }
    if (full < extent && !lastInside)
      body(at(b.getIndexAttr(full)), extent - full);
  }

  void emitOuterLoops(unsigned depth) {
    if (depth == plan.outer.size())
      return emitPanels();
    unsigned loop = plan.outer[depth];
    forEachBlock(b.getIndexAttr(0), plan.ranges[loop], 1,
                 [&](OpFoldResult i, int64_t) {
                   iv[loop] = i;
                   emitOuterLoops(depth + 1);
                 });
  }

  /// N is cut into panels whose slice of the N-walking operand stays in
  /// cache while every row block passes over it. An output of kMinPanels
  /// tiles or more gets kMinPanels panels at least (the zoo MobileNetV2's
  /// classifier, 1000 outputs in 8 tiles, had 3 panels: a thread of two got
  /// one, the other two): the panel loop is the one onnxq-parallelize
  /// splits over threads, and output positions split better than filters
  /// (measured: MobileNetV2 int8 on 2 threads 1.96 -> 1.88 ms) when the
  /// input is the larger operand. When the rows' operand is (a deep
  /// convolution's filters, larger than its input), the row blocks are the
  /// outer loop instead: each thread then reads its own filters, where a
  /// split over positions had every thread read all of them.
  void emitPanels() {
    int64_t width = block.lanes * block.vectors;
    int64_t panel = kPanelBytes / (plan.getReductionDepth() * getNWalkingBytes());
    panel = std::max(width, panel - panel % width);
    int64_t tiles = llvm::divideCeil(plan.ranges[plan.n], width);
    if (tiles >= 2 * kMinPanels)
      panel = std::min<int64_t>(panel, width * llvm::divideCeil(tiles, kMinPanels));
    else if (tiles >= kMinPanels)
      panel = std::min(panel, width); // a tile each, kMinPanels panels or more
    int64_t rows = plan.m ? plan.ranges[*plan.m] : 1;
    auto emitRowBlock = [&](OpFoldResult panelStart, int64_t panelSize,
                            OpFoldResult row, int64_t tileRows) {
      if (plan.m)
        iv[*plan.m] = row;
      forEachBlock(panelStart, panelSize, width,
                   [&](OpFoldResult column, int64_t tileWidth) {
        // On AMX a last partial tile would run on vectors (tiles are
        // whole): it moves back to end with the panel instead, over the
        // tile before, whose outputs it stores again, the same.
        if (plan.amx && tilesMayOverlap && tileWidth < width && panelSize >= width) {
          column = offsetBy(panelStart, panelSize - width);
          tileWidth = width;
        }
        iv[plan.n] = column;
        int64_t vectors = llvm::divideCeil(tileWidth, block.lanes);
        emitTile(tileRows, vectors, tileWidth - (vectors - 1) * block.lanes);
      });
    };
    // The outer of the two loops keeps its last partial block in the loop.
    auto forEachPanel = [&](bool outer, function_ref<void(OpFoldResult, int64_t)> body) {
      forEachBlock(b.getIndexAttr(0), plan.ranges[plan.n], panel, body, outer);
    };
    auto forEachRowBlock = [&](bool outer, function_ref<void(OpFoldResult, int64_t)> body) {
      forEachBlock(b.getIndexAttr(0), rows, block.rows, body, outer);
    };
    if (plan.rowBlocksOuter()) {
      forEachRowBlock(true, [&](OpFoldResult row, int64_t tileRows) {
        if (plan.rowGaps && plan.rowGaps->planeDim)
          onnxq::fillPlaneBorders(b, loc, plan.rowGaps->padding, plan.rowGaps->interior,
                                  *plan.rowGaps->planeDim, row, tileRows);
        forEachPanel(false, [&](OpFoldResult panelStart, int64_t panelSize) {
          emitRowBlock(panelStart, panelSize, row, tileRows);
        });
      });
      return;
    }
    forEachPanel(true, [&](OpFoldResult panelStart, int64_t panelSize) {
      forEachRowBlock(false, [&](OpFoldResult row, int64_t tileRows) {
        emitRowBlock(panelStart, panelSize, row, tileRows);
      });
    });
  }

  /// One tile of `rows` x `vectors` target vectors, the last vector of each
  /// row holding `lastLanes` elements: on AMX when the plan says so and the
  /// process may use it (onnxq_amx_ready), else in vector registers, rows at
  /// a time.
  void emitTile(int64_t rows, int64_t vectors, int64_t lastLanes) {
    if (lastLanes <= block.lanes / 2 && mayHalveVectors(vectors))
      return emitHalfWidthEnd(rows, vectors, lastLanes);
    // Tiles of whole 16 x 16 tiles only: LLVM configures each tile register
    // for one shape per function, and the remainders' shapes would need
    // more than its 8 registers. The rest stays on vectors.
    if (!plan.amx || rows % kTileRows != 0 || lastLanes != block.lanes)
      return emitVectorTile(rows, vectors, lastLanes);
    Value ready = func::CallOp::create(b, loc, kAMXReadyFunction,
                                       TypeRange{b.getI1Type()}, ValueRange{})
                      .getResult(0);
    auto choice = scf::IfOp::create(b, loc, TypeRange{}, ready, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(choice.thenBlock()->getTerminator());
    emitAMXTile(rows, vectors, lastLanes);
    b.setInsertionPoint(choice.elseBlock()->getTerminator());
    emitVectorTile(rows, vectors, lastLanes);
  }

  /// Whether the last of a tile's `vectors` may be a half-width one:
  /// 512-bit vectors, where a 256-bit instruction costs half a 512-bit one
  /// on CPUs that split those in two (AMD Zen 4) and no more elsewhere.
  /// Byte windows keep their whole vectors, and so does a matrix-vector
  /// product's wide tile: alone, the half-width vector would be a single
  /// chain of multiply-adds over the whole reduction.
  bool mayHalveVectors(int64_t vectors) const {
    return block.lanes == 16 && !plan.byteWindow && (plan.m || vectors == 1);
  }

  /// A tile whose last vector holds at most half the lanes: the whole
  /// vectors as a tile of their own, then that vector as a tile of
  /// half-width vectors (a 7 x 7 map's 49 positions: the time of 3.5
  /// vectors a row instead of 4).
  void emitHalfWidthEnd(int64_t rows, int64_t vectors, int64_t lastLanes) {
    OpFoldResult column = iv[plan.n];
    if (vectors > 1)
      emitTile(rows, vectors - 1, block.lanes);
    iv[plan.n] = offsetBy(column, (vectors - 1) * block.lanes);
    tileLanes = block.lanes / 2;
    emitVectorTile(rows, 1, lastLanes);
    tileLanes = block.lanes;
    iv[plan.n] = column;
  }

  OpFoldResult offsetBy(OpFoldResult value, int64_t offset) {
    AffineExpr d0 = getAffineDimExpr(0, b.getContext());
    return affine::makeComposedFoldedAffineApply(b, loc, d0 + offset, {value});
  }

  /// The AMX tile: `rows` filters (16 to a tile) x `vectors` groups of 16
  /// positions, int32 results in tiles, zero at first. Each reduction step
  /// loads 16 channel words (or all, when fewer) of every filter row (A)
  /// and position group (B)
  /// and multiplies each pair into its result tile; the steps of all taps
  /// are unrolled, or, past kMaxUnrolledAMXSteps, a loop over the taps
  /// carries the results through `amxScratch`. The results then go through
  /// `amxScratch` into vectors, where the prologue's start is added (the
  /// sum is exact: integers) and the epilogue runs as in the vector tile.
  void emitAMXTile(int64_t rows, int64_t vectors, int64_t lastLanes) {
    tileRows = rows;
    tileVectors = vectors;
    tileLastLanes = lastLanes;
    const AMXOperands &amx = *plan.amx;
    int64_t tileCount = llvm::divideCeil(rows, kTileRows);
    int64_t stepWords = amx.stepWords, blocks = amx.blocks, tapCount = amx.tapCount;
    ArrayRef<unsigned> taps = amx.taps;
    Type i8 = b.getI8Type(), i32 = b.getI32Type();
    auto rowsOf = [&](int64_t t) { return std::min(kTileRows, rows - t * kTileRows); };
    auto resultType = [&](int64_t t, int64_t j) {
      return amx::TileType::get({rowsOf(t), lanesOf(j)}, i32);
    };
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    auto scratchIndex = [&](int64_t t, int64_t j) {
      return index(t * kTileRows * scratchPitch + j * block.lanes);
    };

    // One reduction step at the current tap (`position`, -1 in a loop):
    // blocks of `stepWords` words, less those of constant zero weights.
    auto step = [&](SmallVector<Value> &results, int64_t position) {
      for (int64_t blk = 0; blk < blocks; ++blk) {
        if (position >= 0 && !amx.zeroSteps.empty() &&
            amx.zeroSteps[position * blocks + blk])
          continue;
        iv[amx.channels] = b.getIndexAttr(blk * stepWords);
        SmallVector<Value> a, bt;
        for (int64_t t = 0; t < tileCount; ++t)
          a.push_back(amx::TileLoadOp::create(
              b, loc, amx::TileType::get({rowsOf(t), 4 * stepWords}, i8),
              buffers[amx.rows],
              ValueRange{indexAt(b, amx.rows, t * kTileRows, 0)},
              index(plan.strides[amx.rows][*plan.m])));
        for (int64_t j = 0; j < vectors; ++j)
          bt.push_back(amx::TileLoadOp::create(
              b, loc, amx::TileType::get({stepWords, 4 * lanesOf(j)}, i8),
              buffers[amx.columns],
              ValueRange{indexAt(b, amx.columns, 0, j)},
              index(plan.strides[amx.columns][amx.channels])));
        for (int64_t t = 0; t < tileCount; ++t)
          for (int64_t j = 0; j < vectors; ++j) {
            Value &acc = results[t * vectors + j];
            // s8 filters x u8 activations: tdpbsud; u8 activation rows x
            // s8 weights: tdpbusd.
            auto mul = amx::TileMulIOp::create(b, loc, acc.getType(), a[t], bt[j], acc);
            if (amx.unsignedRows)
              mul.setIsZextLhs(true);
            else
              mul.setIsZextRhs(true);
            acc = mul.getResult();
          }
      }
    };
    auto zeros = [&]() {
      SmallVector<Value> results;
      for (int64_t t = 0; t < tileCount; ++t)
        for (int64_t j = 0; j < vectors; ++j)
          results.push_back(amx::TileZeroOp::create(b, loc, resultType(t, j)));
      return results;
    };
    auto store = [&](ArrayRef<Value> results) {
      for (int64_t t = 0; t < tileCount; ++t)
        for (int64_t j = 0; j < vectors; ++j)
          amx::TileStoreOp::create(b, loc, amxScratch, ValueRange{scratchIndex(t, j)},
                                   results[t * vectors + j], index(scratchPitch));
    };

    if (tapCount * blocks <= kMaxUnrolledAMXSteps) {
      SmallVector<Value> results = zeros();
      for (int64_t position = 0; position < tapCount; ++position) {
        for (auto [loop, index] :
             llvm::zip(taps, getTapIndices(plan.ranges, taps, position)))
          iv[loop] = b.getIndexAttr(index);
        step(results, position);
      }
      store(results);
    } else {
      store(zeros());
      auto loop = scf::ForOp::create(b, loc, index(0), index(tapCount), index(1));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      // The taps' positions from the linear one, last tap fastest.
      Value rest = loop.getInductionVar();
      for (int64_t d = taps.size() - 1; d >= 0; --d) {
        Value range = index(plan.ranges[taps[d]]);
        iv[taps[d]] = d == 0 ? rest : Value(arith::RemUIOp::create(b, loc, rest, range));
        if (d > 0)
          rest = arith::DivUIOp::create(b, loc, rest, range);
      }
      SmallVector<Value> results;
      for (int64_t t = 0; t < tileCount; ++t)
        for (int64_t j = 0; j < vectors; ++j)
          results.push_back(amx::TileLoadOp::create(
              b, loc, resultType(t, j), amxScratch, ValueRange{scratchIndex(t, j)},
              index(scratchPitch)));
      step(results, /*position=*/-1);
      store(results);
    }

    OperandCache cache(buffers.size());
    for (int64_t i = 0; i < rows; ++i) {
      SmallVector<Value> accs;
      for (int64_t j = 0; j < vectors; ++j) {
        Value sum = vector::LoadOp::create(
            b, loc, vectorOf(i32), amxScratch,
            ValueRange{index(i * scratchPitch + j * block.lanes)});
        Value start = plan.prologue ? emitFusedBody(b, *plan.prologue, i, j, {}, cache)
                                    : loadVector(b, out, i, j);
        accs.push_back(arith::AddIOp::create(b, loc, start, sum));
      }
      storeRow(b, i, accs, cache);
    }
  }

  /// One register tile: `rows` x `vectors` accumulators, the last vector of
  /// each row holding `lastLanes` elements. They start as the output's
  /// elements or the prologue's values, and end stored, or as the
  /// epilogue's values stored to its output.
  void emitVectorTile(int64_t rows, int64_t vectors, int64_t lastLanes) {
    // A tile of AMX's rows is more than the vector registers hold: it goes
    // through them `vectorRows` at a time.
    if (rows > vectorRows) {
      OpFoldResult row = iv[*plan.m];
      for (int64_t first = 0; first < rows; first += vectorRows) {
        iv[*plan.m] = offsetBy(row, first);
        emitVectorTile(std::min(vectorRows, rows - first), vectors, lastLanes);
      }
      iv[*plan.m] = row;
      return;
    }
    tileRows = rows;
    tileVectors = vectors;
    tileLastLanes = lastLanes;
    OperandCache cache(buffers.size());
    SmallVector<Value> accs;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j)
        accs.push_back(plan.prologue
                           ? emitFusedBody(b, *plan.prologue, i, j, {}, cache)
                           : loadVector(b, out, i, j));
    accs = emitReductionLoops(b, 0, accs);
    for (int64_t i = 0; i < rows; ++i)
      storeRow(b, i, ArrayRef(accs).slice(i * vectors, vectors), cache);
  }

  /// Stores row `i` of a finished tile, `accs` its vectors: the epilogue's
  /// values when one is fused, else the accumulators. A requantization
  /// ending in saturating packs ends two vectors at a time.
  void storeRow(OpBuilder &builder, int64_t i, ArrayRef<Value> accs,
                OperandCache &cache) {
    int64_t count = accs.size();
    if (!plan.epilogue) {
      for (int64_t j = 0; j < count; ++j)
        storeVector(builder, accs[j], out, i, j);
      return;
    }
    // The packs work on 512-bit vectors; half-width ones end as the body does.
    const onnxq::SaturatingRequant *ending =
        plan.saturation && tileLanes == block.lanes ? &*plan.saturation : nullptr;
    SmallVector<Value> values;
    for (int64_t j = 0; j < count; ++j)
      values.push_back(emitFusedBody(builder, *plan.epilogue, i, j, accs[j], cache, ending));
    for (int64_t j = 0; j < count; j += ending ? 2 : 1) {
      SmallVector<Value, 2> results =
          ending ? onnxq::emitSaturatingRequant(builder, loc, *ending, values[j],
                                                j + 1 < count ? values[j + 1] : Value())
                 : SmallVector<Value, 2>{values[j]};
      for (auto [k, result] : llvm::enumerate(results))
        storeVector(builder, result, epilogueResult, i, j + k);
    }
  }

  /// The body of a fused op on vectors at row `i`, vector `j` of the tile.
  Value emitFusedBody(OpBuilder &builder, const FusedOp &fused, int64_t i,
                      int64_t j, Value acc, OperandCache &cache,
                      const onnxq::SaturatingRequant *ending = nullptr) {
    linalg::LinalgOp op = fused.op;
    Block *body = op.getBlock();
    IRMapping vectors;
    for (OpOperand &operand : op->getOpOperands()) {
      Value arg = op.getMatchingBlockArgument(&operand);
      int64_t k = fused.operands[operand.getOperandNumber()];
      if (arg.use_empty())
        continue;
      if (k == kAccumulator)
        vectors.map(arg, acc);
      else if (k == kScalarOperand)
        vectors.map(arg, vector::BroadcastOp::create(
                             builder, loc, vectorOf(operand.get().getType()),
                             operand.get()));
      else
        vectors.map(arg, operandAt(builder, k, i, j, cache));
    }
    return emitBodyOnVectors(builder, body, vectors, ending);
  }

  /// Clones the scalar ops of `body` as ops on vectors, with `vectors`
  /// mapping its arguments (values from outside are broadcast); returns the
  /// vector its terminator yields, or without the ops of `ending`, its
  /// input.
  Value emitBodyOnVectors(OpBuilder &builder, Block *body, IRMapping &vectors,
                          const onnxq::SaturatingRequant *ending = nullptr) {
    for (Operation &scalar : body->without_terminator()) {
      if (ending && llvm::is_contained(ending->ops, &scalar))
        continue;
      for (Value operand : scalar.getOperands())
        if (!vectors.contains(operand))
          vectors.map(operand,
                      vector::BroadcastOp::create(
                          builder, loc, vectorOf(operand.getType()), operand));
      Operation *vectorOp = builder.clone(scalar, vectors);
      Value result = vectorOp->getResult(0);
      result.setType(vectorOf(result.getType()));
    }
    Value yielded = ending ? ending->input : body->getTerminator()->getOperand(0);
    if (Value vector = vectors.lookupOrNull(yielded))
      return vector;
    // A value from outside the body (a fill's constant).
    return vector::BroadcastOp::create(builder, loc, vectorOf(yielded.getType()),
                                       yielded);
  }

  /// Operand `k` at row `i`, vector `j` of the tile: a vector if it walks N,
  /// else its element broadcast; loaded once per tile position.
  Value operandAt(OpBuilder &builder, unsigned k, int64_t i, int64_t j,
                  OperandCache &cache) {
    bool walksN = plan.walks(k, plan.n);
    bool walksM = plan.m && plan.walks(k, *plan.m);
    std::pair<int64_t, int64_t> key(walksM ? i : 0, walksN ? j : 0);
    Value &value = cache[k][key];
    if (!value)
      value = walksN ? loadVector(builder, k, key.first, key.second)
                     : vector::BroadcastOp::create(
                           builder, loc, vectorTypeOf(k),
                           memref::LoadOp::create(builder, loc, buffers[k],
                                                  indexAt(builder, k, key.first, 0)));
    return value;
  }

  /// The reduction loops, carrying the accumulators; returns their values
  /// after the last iteration.
  SmallVector<Value> emitReductionLoops(OpBuilder &builder, unsigned depth,
                                        ValueRange accs) {
    if (depth == plan.reductions.size())
      return emitStep(builder, accs);
    unsigned dim = plan.reductions[depth];
    if (plan.ranges[dim] == 1 || (plan.byteWindow && dim == plan.byteWindow->loop)) {
      iv[dim] = builder.getIndexAttr(0);
      return emitReductionLoops(builder, depth + 1, accs);
    }
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto loop = scf::ForOp::create(
        builder, loc, index(0), index(plan.ranges[dim]), index(1), accs,
        [&](OpBuilder &body, Location, Value i, ValueRange args) {
          iv[dim] = i;
          scf::YieldOp::create(body, loc,
                               emitReductionLoops(body, depth + 1, args));
        });
    return loop.getResults();
  }

  /// acc[i][j] = body(inputs[i][j]..., acc[i][j]) at the current reduction
  /// point: one vector.fma for a contraction, else the body on vectors.
  SmallVector<Value> emitStep(OpBuilder &builder, ValueRange accs) {
    if (plan.byteWindow)
      return emitByteWindowStep(builder, accs);
    SmallVector<Value> result;
    OperandCache cache(buffers.size());
    Block *body = op.getBlock();
    for (int64_t i = 0; i < tileRows; ++i) {
      for (int64_t j = 0; j < tileVectors; ++j) {
        Value acc = accs[i * tileVectors + j];
        if (useFMA) {
          result.push_back(vector::FMAOp::create(
              builder, loc, operandAt(builder, 0, i, j, cache),
              operandAt(builder, 1, i, j, cache), acc));
          continue;
        }
        if (plan.dot4 != Dot4::None) {
          result.push_back(emitDot4(builder, plan.dot4, acc,
                                    operandAt(builder, 0, i, j, cache),
                                    operandAt(builder, 1, i, j, cache)));
          continue;
        }
        IRMapping vectors;
        for (OpOperand *input : op.getDpsInputOperands())
          if (!op.getMatchingBlockArgument(input).use_empty())
            vectors.map(op.getMatchingBlockArgument(input),
                        operandAt(builder, input->getOperandNumber(), i, j, cache));
        vectors.map(body->getArguments().back(), acc);
        result.push_back(emitBodyOnVectors(builder, body, vectors));
      }
    }
    return result;
  }

  /// The step of a byte window: its row's taps 4 at a time (iv of the
  /// window's loop at the first), one vpdpbusd per accumulator each.
  SmallVector<Value> emitByteWindowStep(OpBuilder &builder, ValueRange accs) {
    const ByteWindow &window = *plan.byteWindow;
    SmallVector<Value> result(accs);
    for (int64_t first = 0; first < plan.ranges[window.loop]; first += 4) {
      iv[window.loop] = builder.getIndexAttr(first);
      int64_t taps = std::min<int64_t>(4, plan.ranges[window.loop] - first);
      OperandCache cache(buffers.size());
      for (int64_t i = 0; i < tileRows; ++i)
        for (int64_t j = 0; j < tileVectors; ++j) {
          Value &acc = result[i * tileVectors + j];
          acc = emitDot4(builder, Dot4::U8S8, acc,
                         loadByteWindows(builder, i, j, taps, cache),
                         loadWeightWord(builder, i, taps, cache));
        }
    }
    return result;
  }

  /// acc + in each lane the dot product of its 4 bytes in `a` (u8 for
  /// vpdpbusd, s8 for sdot) and in `w` (s8).
  Value emitDot4(OpBuilder &builder, Dot4 kind, Value acc, Value a, Value w) {
    VectorType bytes = bytesOf(4 * tileLanes);
    // A half-width tile's vectors: the 256-bit form (AVX512-VL).
    StringRef intrinsic = kind == Dot4::S8S8 ? "llvm.aarch64.neon.sdot.v4i32.v16i8"
                          : tileLanes == block.lanes ? "llvm.x86.avx512.vpdpbusd.512"
                                                     : "llvm.x86.avx512.vpdpbusd.256";
    return LLVM::CallIntrinsicOp::create(
               builder, loc, acc.getType(), builder.getStringAttr(intrinsic),
               ValueRange{acc, vector::BitCastOp::create(builder, loc, bytes, a),
                          vector::BitCastOp::create(builder, loc, bytes, w)})
        .getResult(0);
  }

  /// The byte window's activations for row `i`, vector `j`: lane l holds the
  /// `taps` bytes at s * l + t (later bytes repeat the last, whose weight
  /// byte is 0), s the stride along N. One masked load of the bytes they
  /// span (the permutation reads no byte past them) and one byte
  /// permutation.
  Value loadByteWindows(OpBuilder &builder, int64_t i, int64_t j, int64_t taps,
                        OperandCache &cache) {
    const ByteWindow &window = *plan.byteWindow;
    unsigned k = window.activations;
    std::pair<int64_t, int64_t> key(plan.m && plan.walks(k, *plan.m) ? i : 0, j);
    Value &value = cache[k][key];
    if (value)
      return value;
    int64_t stride = plan.strides[k][plan.n];
    int64_t lanes = lanesOf(j);
    int64_t span = stride * (lanes - 1) + taps;
    Value loaded = loadContiguous(builder, k, indexAt(builder, k, key.first, j),
                                  bytesOf(4 * tileLanes), span);
    SmallVector<int64_t> gather;
    for (int64_t lane = 0; lane < tileLanes; ++lane)
      for (int64_t t = 0; t < 4; ++t)
        gather.push_back(stride * std::min(lane, lanes - 1) + std::min(t, taps - 1));
    Value bytes = vector::ShuffleOp::create(builder, loc, loaded, loaded, gather);
    value = vector::BitCastOp::create(
        builder, loc, VectorType::get({tileLanes}, builder.getI32Type()), bytes);
    return value;
  }

  /// The byte window's weights for row `i`: `taps` bytes (then zeros) as
  /// one int32, broadcast to every lane.
  Value loadWeightWord(OpBuilder &builder, int64_t i, int64_t taps,
                       OperandCache &cache) {
    const ByteWindow &window = *plan.byteWindow;
    unsigned k = window.weights;
    std::pair<int64_t, int64_t> key(plan.m && plan.walks(k, *plan.m) ? i : 0, 0);
    Value &value = cache[k][key];
    if (value)
      return value;
    Value word = vector::BitCastOp::create(
        builder, loc, VectorType::get({1}, builder.getI32Type()),
        loadContiguous(builder, k, indexAt(builder, k, key.first, 0), bytesOf(4),
                       taps));
    value = vector::BroadcastOp::create(
        builder, loc, VectorType::get({tileLanes}, builder.getI32Type()), word);
    return value;
  }

  VectorType vectorOf(Type scalar) const {
    return VectorType::get({tileLanes}, scalar);
  }

  VectorType bytesOf(int64_t size) const {
    return VectorType::get({size}, IntegerType::get(b.getContext(), 8));
  }

  /// Vectors of operand `k`'s own element type (narrower than the lanes'
  /// widest type for widening operands).
  VectorType vectorTypeOf(unsigned k) const {
    return vectorOf(cast<MemRefType>(buffers[k].getType()).getElementType());
  }

  /// Bytes of one element of the operands that walk N (the widest).
  int64_t getNWalkingBytes() const {
    unsigned bits = 8;
    for (unsigned k = 0; k < plan.numInputs; ++k)
      if (plan.walks(k, plan.n))
        bits = std::max(bits, vectorTypeOf(k).getElementTypeBitWidth());
    return bits / 8;
  }

  /// The flat index of row `i`, vector `j` of the tile in operand `k`.
  Value indexAt(OpBuilder &builder, unsigned k, int64_t i, int64_t j) {
    MLIRContext *context = builder.getContext();
    ArrayRef<int64_t> strides = plan.strides[k];
    bool pitched = plan.isPitchedN(k);
    AffineExpr expr = getAffineConstantExpr(
        (pitched ? 0 : j * tileLanes * strides[plan.n]) +
            (plan.m ? i * strides[*plan.m] : 0),
        context);
    SmallVector<OpFoldResult> ivs;
    for (auto [d, stride] : llvm::enumerate(strides)) {
      if (stride == 0 || (pitched && d == plan.n))
        continue;
      expr = expr + stride * getAffineDimExpr(ivs.size(), context);
      ivs.push_back(iv[d]);
    }
    if (pitched) {
      // N's index f = iv[n] + j * lanes, taken apart into the position
      // along N's own loop and along each loop merged into it.
      AffineExpr f = getAffineDimExpr(ivs.size(), context) + j * tileLanes;
      ivs.push_back(iv[plan.n]);
      int64_t extent = plan.mergedIntoN.front().second;
      expr = expr + (f % extent) * strides[plan.n];
      for (auto [index, merged] : llvm::enumerate(plan.mergedIntoN)) {
        int64_t next = index + 1 < plan.mergedIntoN.size()
                           ? plan.mergedIntoN[index + 1].second
                           : plan.ranges[plan.n];
        expr = expr + (f.floorDiv(merged.second) % (next / merged.second)) *
                          strides[merged.first];
      }
    }
    return getValueOrCreateConstantIndexOp(
        builder, loc, affine::makeComposedFoldedAffineApply(builder, loc, expr, ivs));
  }

  /// Lanes of vector `j` in the current tile.
  int64_t lanesOf(int64_t j) const {
    return j + 1 < tileVectors ? tileLanes : tileLastLanes;
  }

  /// A mask of the first `lanes` of `size` lanes (the target vector's by
  /// default), or null when that is all of them.
  Value maskOf(OpBuilder &builder, int64_t lanes, int64_t size = 0) {
    size = size ? size : tileLanes;
    if (lanes == size)
      return {};
    SmallVector<bool> bits(size, false);
    std::fill_n(bits.begin(), lanes, true);
    auto maskType = VectorType::get({size}, builder.getI1Type());
    return arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(maskType, ArrayRef<bool>(bits)));
  }

  /// A vector of `vectorType` whose first `lanes` elements are operand `k`'s
  /// from `index` on (the rest zero).
  Value loadContiguous(OpBuilder &builder, unsigned k, Value index,
                       VectorType vectorType, int64_t lanes) {
    Value mask = maskOf(builder, lanes, vectorType.getNumElements());
    if (!mask)
      return vector::LoadOp::create(builder, loc, vectorType, buffers[k], index);
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getZeroAttr(vectorType));
    return vector::MaskedLoadOp::create(builder, loc, vectorType, buffers[k],
                                        index, mask, zero);
  }

  /// Vector `j` of row `i` of an N-walking operand. A window of stride 2
  /// (strided convolutions and pooling) is two contiguous loads and a
  /// shuffle of their even elements (gathers are much slower).
  Value loadVector(OpBuilder &builder, unsigned k, int64_t i, int64_t j) {
    Value index = indexAt(builder, k, i, j);
    int64_t lanes = lanesOf(j);
    if (plan.strides[k][plan.n] == 1)
      return loadContiguous(builder, k, index, vectorTypeOf(k), lanes);
    int64_t span = 2 * lanes - 1;
    Value low = loadContiguous(builder, k, index, vectorTypeOf(k),
                               std::min(span, tileLanes));
    Value high = arith::ConstantOp::create(
        builder, loc, builder.getZeroAttr(vectorTypeOf(k)));
    if (span > tileLanes) {
      AffineExpr d0 = getAffineDimExpr(0, builder.getContext());
      Value next = getValueOrCreateConstantIndexOp(
          builder, loc,
          affine::makeComposedFoldedAffineApply(builder, loc, d0 + tileLanes,
                                                {index}));
      high = loadContiguous(builder, k, next, vectorTypeOf(k), span - tileLanes);
    }
    SmallVector<int64_t> even;
    for (int64_t lane = 0; lane < tileLanes; ++lane)
      even.push_back(2 * lane);
    return vector::ShuffleOp::create(builder, loc, low, high, even);
  }

  void storeVector(OpBuilder &builder, Value value, unsigned k, int64_t i,
                   int64_t j) {
    if (plan.channelWords && plan.epilogue && k == epilogueResult)
      return storeChannelWord(builder, value, k, i, j);
    if (plan.rowGaps && plan.epilogue && k == epilogueResult)
      storeRowGaps(builder, k, i, j);
    if (plan.crossesRows(k))
      return storeAcrossRows(builder, value, k, i, j);
    Value index = indexAt(builder, k, i, j);
    int64_t lanes = lanesOf(j);
    // Fewer than 4 bytes: one scalar store per lane. LLVM 22 turns a masked
    // store of lane 0 of a truncated byte vector into a 4-byte vmovss on
    // x86, which writes past the lane.
    auto type = cast<VectorType>(value.getType());
    if (lanes < tileLanes && lanes * type.getElementTypeBitWidth() < 32) {
      AffineExpr d0 = getAffineDimExpr(0, builder.getContext());
      for (int64_t lane = 0; lane < lanes; ++lane) {
        Value element = vector::ExtractOp::create(builder, loc, value, lane);
        Value at = getValueOrCreateConstantIndexOp(
            builder, loc,
            affine::makeComposedFoldedAffineApply(builder, loc, d0 + lane, {index}));
        memref::StoreOp::create(builder, loc, element, buffers[k], at);
      }
      return;
    }
    if (Value mask = maskOf(builder, lanes))
      vector::MaskedStoreOp::create(builder, loc, buffers[k], index, mask, value);
    else
      vector::StoreOp::create(builder, loc, value, buffers[k], index);
  }

  /// The 16 channel words of vector `j` of rows `first` .. `first` + 3,
  /// byte b from row `first` + b.
  Value interleaveChannelBytes(OpBuilder &builder, int64_t first, int64_t j) {
    SmallVector<int64_t> pair = llvm::to_vector(llvm::seq<int64_t>(0, 2 * tileLanes));
    Value low = vector::ShuffleOp::create(builder, loc, channelBytes.lookup({first, j}),
                                          channelBytes.lookup({first + 1, j}), pair);
    Value high = vector::ShuffleOp::create(builder, loc, channelBytes.lookup({first + 2, j}),
                                           channelBytes.lookup({first + 3, j}), pair);
    SmallVector<int64_t> interleaved;
    for (int64_t lane = 0; lane < tileLanes; ++lane)
      for (int64_t byte = 0; byte < 4; ++byte)
        interleaved.push_back(byte * tileLanes + lane);
    Value bytes = vector::ShuffleOp::create(builder, loc, low, high, interleaved);
    return vector::BitCastOp::create(builder, loc, vectorOf(builder.getI32Type()), bytes);
  }

  /// Vector `j` of row `i` of the epilogue's result, channel c = iv[m] + i,
  /// as the packing's words: with 4 channels a word, byte c mod 4 of them,
  /// kept until row 4q + 3 of the tile (rows start at multiples of 4), whose
  /// store interleaves the 4 rows' vectors into 16 words. The word of the
  /// element at flat index f of the result (f - c S_c within channel c's
  /// plane) is at (c div channels a word) S_w + f - c S_c, less the pitch
  /// columns of the rows before it.
  void storeChannelWord(OpBuilder &builder, Value value, unsigned k, int64_t i,
                        int64_t j) {
    const onnxq::ChannelWordPacking &packing = *plan.channelWords;
    int64_t first = i;
    Value words = value; // one channel a word: the elements themselves
    if (packing.channelsPerWord == 4) {
      channelBytes[{i, j}] = value;
      if (i % 4 != 3)
        return;
      first = i - 3;
      words = interleaveChannelBytes(builder, first, j);
    }
    MLIRContext *context = builder.getContext();
    AffineExpr flat = getAffineDimExpr(0, context);
    AffineExpr channel = getAffineDimExpr(1, context) + first;
    AffineExpr inPlane = flat - channel * packing.channelStride;
    AffineExpr word =
        inPlane + channel.floorDiv(packing.channelsPerWord) * packing.wordStride;
    SmallVector<OpFoldResult> operands = {indexAt(builder, k, first, j), iv[*plan.m]};
    auto apply = [&](AffineExpr expr) {
      return getValueOrCreateConstantIndexOp(
          builder, loc, affine::makeComposedFoldedAffineApply(builder, loc, expr, operands));
    };
    Value valid = maskOf(builder, lanesOf(j));
    if (packing.pitch == packing.width) {
      Value index = apply(word);
      if (valid)
        vector::MaskedStoreOp::create(builder, loc, buffers[k], index, valid, words);
      else
        vector::StoreOp::create(builder, loc, words, buffers[k], index);
      return;
    }
    // Rows P apart in the result, W apart in the words: a vector is stored
    // in one part per row it spans, row r's lanes (those of its W columns)
    // r (P - W) words further back than lane 0's word would be.
    int64_t gap = packing.pitch - packing.width;
    AffineExpr column = inPlane % packing.pitch;
    AffineExpr lane0Word = word - inPlane.floorDiv(packing.pitch) * gap;
    auto maskType = VectorType::get({tileLanes}, builder.getI1Type());
    auto lanesBefore = [&](AffineExpr end) {
      return vector::CreateMaskOp::create(builder, loc, maskType, ValueRange{apply(end)});
    };
    Value allLanes = arith::ConstantOp::create(builder, loc,
                                               DenseElementsAttr::get(maskType, true));
    for (int64_t row = 0; row < getRowsPerVector(tileLanes, packing.pitch); ++row) {
      Value mask = lanesBefore(-column + row * packing.pitch + packing.width);
      if (row > 0)
        mask = arith::AndIOp::create(
            builder, loc, mask,
            arith::XOrIOp::create(builder, loc,
                                  lanesBefore(-column + row * packing.pitch), allLanes));
      if (valid)
        mask = arith::AndIOp::create(builder, loc, mask, valid);
      vector::MaskedStoreOp::create(builder, loc, buffers[k], apply(lane0Word - row * gap),
                                    mask, words);
    }
  }

  /// The padding after each row of operand `k` (rows of W positions along
  /// N, P apart) that ends in vector `j` of row `i`: P - W elements from the
  /// one after the row's last (the rest of the row and the start of the
  /// next), which the padded buffer's fill left out (fillAroundRows). Lane
  /// l of the vector's p-th row is l + p (P - W) elements past lane 0.
  void storeRowGaps(OpBuilder &builder, unsigned k, int64_t i, int64_t j) {
    MLIRContext *context = builder.getContext();
    int64_t width = plan.rowGaps->width;
    int64_t gap = plan.rowGaps->pitch - width;
    Value first = indexAt(builder, k, i, j);
    Value padding = vector::BroadcastOp::create(
        builder, loc, VectorType::get({gap}, plan.rowGaps->padding.getType()),
        plan.rowGaps->padding);
    AffineExpr lane0 = getAffineDimExpr(0, context);
    AffineExpr f = getAffineDimExpr(1, context) + j * tileLanes;
    // A vector spans rows only along a loop merged into N.
    int64_t rowEnds = plan.mergedIntoN.empty() ? 1 : llvm::divideCeil(lanesOf(j), width);
    for (int64_t row = 0; row < rowEnds; ++row) {
      // The lanes up to the end of the vector's row `row`.
      AffineExpr end = -(f % width) + (row + 1) * width;
      Value endLanes = getValueOrCreateConstantIndexOp(
          builder, loc,
          affine::makeComposedFoldedAffineApply(builder, loc, end, {first, iv[plan.n]}));
      Value ends = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle,
                                         endLanes,
                                         arith::ConstantIndexOp::create(builder, loc, lanesOf(j)));
      scf::IfOp::create(builder, loc, ends, [&](OpBuilder &nb, Location l) {
        Value at = getValueOrCreateConstantIndexOp(
            nb, l,
            affine::makeComposedFoldedAffineApply(nb, l, lane0 + end + row * gap,
                                                  {first, iv[plan.n]}));
        vector::StoreOp::create(nb, l, padding, buffers[k], at);
        scf::YieldOp::create(nb, l);
      });
    }
  }

  /// Stores vector `j` of row `i` to operand `k`, whose rows of W
  /// positions (N's own loop; one loop merged into it) have a pitch and are
  /// not whole vectors: the lanes up to the end of the vector's first row at
  /// its address, the lanes of each next row the same vector store p x
  /// (pitch - W) elements further on. Masked stores with run-time masks
  /// (the first row's lanes depend on the tile's position); some store
  /// nothing.
  void storeAcrossRows(OpBuilder &builder, Value value, unsigned k, int64_t i,
                       int64_t j) {
    MLIRContext *context = builder.getContext();
    int64_t width = plan.mergedIntoN.front().second;
    int64_t pitch = plan.strides[k][plan.mergedIntoN.front().first];
    Value first = indexAt(builder, k, i, j);
    auto maskType = VectorType::get({tileLanes}, builder.getI1Type());
    Value valid = maskOf(builder, lanesOf(j));
    // The lanes before the end of row p: W - (f mod W) + p W, f = iv[n] + j
    // lanes; row p's lanes are those of row p, less those of row p - 1.
    AffineExpr f = getAffineDimExpr(0, context) + j * tileLanes;
    Value before;
    for (int64_t row = 0; row < getRowsPerVector(tileLanes, width); ++row) {
      Value end = getValueOrCreateConstantIndexOp(
          builder, loc,
          affine::makeComposedFoldedAffineApply(
              builder, loc, -(f % width) + (row + 1) * width, {iv[plan.n]}));
      Value upToEnd = vector::CreateMaskOp::create(builder, loc, maskType, ValueRange{end});
      Value mask = before ? arith::XOrIOp::create(builder, loc, upToEnd, before).getResult()
                          : upToEnd;
      before = upToEnd;
      if (valid)
        mask = arith::AndIOp::create(builder, loc, mask, valid);
      Value index = getValueOrCreateConstantIndexOp(
          builder, loc,
          affine::makeComposedFoldedAffineApply(
              builder, loc, getAffineDimExpr(0, context) + row * (pitch - width),
              {first}));
      vector::MaskedStoreOp::create(builder, loc, buffers[k], index, mask, value);
    }
  }

  OpBuilder &b;
  Location loc;
  linalg::LinalgOp op;
  bool useFMA; // float contractions; other bodies run on vectors as they are
  const KernelPlan &plan;
  RegisterBlock block;
  int64_t vectorRows; // rows of a vector tile (AMX tiles have more)
  /// Int32 elements between two rows of an AMX tile's results in memory.
  int64_t scratchPitch = 0;
  Value amxScratch;
  SmallVector<Value, 3> buffers;        // the plan's operands, flattened
  SmallVector<OpFoldResult> iv;         // current value of each loop
  int64_t tileRows = 0, tileVectors = 0, tileLastLanes = 0;
  int64_t tileLanes; // lanes of the tile's vectors: block.lanes, or half
  unsigned out;                // the contraction's output among the buffers
  unsigned epilogueResult = 0; // the epilogue's output among them, if fused
  bool tilesMayOverlap = false; // readsNothingItStores()
  /// The tile's rows of 8-bit results not stored yet (storeChannelWord).
  DenseMap<std::pair<int64_t, int64_t>, Value> channelBytes;
};

/// The interior's dim whose planes (its last two dims) are the rows of M,
/// when the kernel's outer loop is M's blocks and no input reads the
/// buffer: each block then fills the padding around its planes before it
/// writes them, on the thread that writes them, rather than the fill on the
/// calling thread (with two threads, the other core then took the lines of
/// its planes' top and bottom rows from it: MobileNetV2's 14 x 14
/// expansions wrote their half 1.3-1.8x as slowly as the calling thread).
std::optional<int64_t> getPlanesOfRows(const KernelPlan &plan, int64_t result,
                                       memref::SubViewOp interior) {
  MemRefType source = interior.getSourceType();
  int64_t rank = source.getRank(), planeDim = rank - 3;
  bool singleOuter = llvm::all_of(plan.outer,
                                  [&](unsigned loop) { return plan.ranges[loop] == 1; });
  if (!plan.rowBlocksOuter() || !singleOuter || planeDim < 0 ||
      !source.getLayout().isIdentity() ||
      plan.strides[result][*plan.m] !=
          source.getDimSize(rank - 2) * source.getDimSize(rank - 1) ||
      interior.getStaticSizes()[planeDim] != plan.ranges[*plan.m] ||
      llvm::any_of(interior.getStaticSizes().take_front(planeDim),
                   [](int64_t size) { return size != 1; }))
    return std::nullopt;
  Value buffer = getAllocation(interior);
  for (auto [k, operand] : llvm::enumerate(plan.operands))
    if (int64_t(k) != result && getAllocation(operand) == buffer)
      return std::nullopt;
  return planeDim;
}

/// When the epilogue's output is the interior of a padded buffer that the
/// buffer's fill filled before, its rows along N (N's own loop, with a
/// loop merged into it or another loop for the rows): the kernel stores
/// the padding between the rows (KernelEmitter::storeRowGaps), and the fill
/// keeps the rest (fillAroundRows).
void storePaddingBetweenRows(RewriterBase &rewriter, KernelPlan &plan) {
  linalg::LinalgOp epilogue = plan.epilogue->op;
  int64_t result = plan.epilogue->operands[epilogue.getNumDpsInputs()];
  if (result < 0 || plan.mergedIntoN.size() > 1 || plan.strides[result][plan.n] != 1)
    return;
  auto interior = plan.operands[result].getDefiningOp<memref::SubViewOp>();
  if (!interior || !onnxq::hasRowBelow(interior))
    return;
  int64_t width = plan.mergedIntoN.empty() ? plan.ranges[plan.n]
                                           : plan.mergedIntoN.front().second;
  int64_t pitch = interior.getSourceType().getShape().back();
  auto isRows = [&](unsigned loop) {
    return loop != plan.n && plan.strides[result][loop] == pitch;
  };
  if (interior.getStaticSizes().back() != width ||
      (plan.mergedIntoN.empty() ? llvm::none_of(llvm::seq(plan.ranges.size()), isRows)
                                : !isRows(plan.mergedIntoN.front().first)))
    return;
  linalg::FillOp fill = onnxq::findInteriorFill(interior, epilogue);
  if (!fill)
    return;
  plan.rowGaps = KernelPlan::RowGaps{fill.getInputs()[0], width, pitch, interior,
                                     getPlanesOfRows(plan, result, interior)};
  onnxq::fillAroundRows(rewriter, fill, interior, plan.rowGaps->planeDim);
}

/// When the epilogue's 8-bit result is read only by its packing into
/// channel words, which takes its channels whole, and the kernel's register
/// rows are channels, 4 x whole channel words a tile: the kernel stores the
/// words (KernelEmitter::storeChannelWord) into the packing's buffer, which
/// it takes among its operands in place of the result, and the packing
/// goes (after the kernel: onnxq::erasePacking). So for a result read only
/// by the copy that drops its rows' pitch columns, one channel a word.
void storeChannelWords(RewriterBase &rewriter, KernelPlan &plan,
                       const RegisterBlock &block, Operation *kernelPosition) {
  linalg::LinalgOp epilogue = plan.epilogue->op;
  int64_t result = plan.epilogue->operands[epilogue.getNumDpsInputs()];
  if (result < 0 || plan.amx || plan.rowGaps || !plan.m || block.lanes != 16 ||
      plan.strides[result][plan.n] != 1 || plan.isPitchedN(result))
    return;
  Value view = plan.operands[result];
  std::optional<onnxq::ChannelWordPacking> packing =
      onnxq::findChannelWordPacking(getAllocation(view), epilogue);
  if (!packing)
    packing = onnxq::findCompactingCopy(getAllocation(view), epilogue);
  // Rows with columns the words do not take are stored in one part a row
  // that a vector spans.
  if (!packing || block.rows % packing->channelsPerWord != 0 ||
      plan.strides[result][*plan.m] != packing->channelStride ||
      plan.ranges[*plan.m] != packing->channels ||
      (packing->pitch != packing->width &&
       getRowsPerVector(block.lanes, packing->pitch) > kMaxRowsPerVector))
    return;
  // The result is every channel's first elements, the rows' too.
  auto viewType = cast<MemRefType>(view.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(viewType.getStridesAndOffset(strides, offset)) || offset != 0 ||
      viewType.getNumElements() / packing->channels <
          (packing->rows - 1) * packing->pitch + packing->width)
    return;
  // The kernel stores where the epilogue was; the packing's buffer (and the
  // view of the channels it packs, when it packs some of them) may come
  // after it.
  SmallVector<Operation *> definitions = {packing->words.getDefiningOp()};
  while (auto view = dyn_cast<ViewLikeOpInterface>(definitions.back()))
    definitions.push_back(view.getViewSource().getDefiningOp());
  for (Operation *definition : llvm::reverse(definitions))
    if (definition->getBlock() == kernelPosition->getBlock() &&
        kernelPosition->isBeforeInBlock(definition))
      rewriter.moveOpBefore(definition, kernelPosition);
  plan.operands[result] = packing->words;
  plan.channelWords = packing;
}

struct ContractionToKernel : OpInterfaceRewritePattern<linalg::LinalgOp> {
  ContractionToKernel(MLIRContext *context, unsigned vectorBits, int64_t rows,
                      int64_t vectors, bool byteWindows, bool amx,
                      bool saturatingPacks)
      : OpInterfaceRewritePattern(context), vectorBits(vectorBits), rows(rows),
        vectors(vectors), byteWindows(byteWindows), amx(amx),
        saturatingPacks(saturatingPacks) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<KernelPlan> plan = planKernel(op, byteWindows);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "not a static element-wise reduction");
    RegisterBlock block{
        std::max<int64_t>(1, vectorBits / getWidestBodyBits(op)), rows, vectors};
    // vpdpbusd works on 512-bit vectors (16 int32 lanes), sdot on 128-bit
    // ones (4 lanes).
    if ((plan->dot4 == Dot4::U8S8 && block.lanes != 16) ||
        (plan->dot4 == Dot4::S8S8 && block.lanes != 4))
      return rewriter.notifyMatchFailure(op, "no dot-product instruction for these vectors");
    if (block.lanes != 16)
      plan->byteWindow.reset();
    // AMX tiles: 32 filters (two tiles of 16) x 32 positions.
    if (amx && block.lanes == 16 && (plan->amx = getAMXOperands(*plan))) {
      block.rows = 2 * kTileRows;
      plan->amx->zeroSteps = findZeroSteps(*plan);
    }
    // Without rows (a matrix-vector product), a wider tile: its
    // accumulators are the only independent chains of multiply-adds.
    if (!plan->m)
      block.vectors = block.rows * block.vectors / 2;
    // A tile no wider than the output: short rows use fewer vectors.
    block.vectors = std::min<int64_t>(
        block.vectors, llvm::divideCeil(plan->ranges[plan->n], block.lanes));
    plan->lanes = block.lanes;
    sinkOutputFill(rewriter, op);
    fuseNeighbours(op, *plan);
    if (saturatingPacks && block.lanes == 16 && plan->epilogue)
      plan->saturation = onnxq::matchSaturatingRequant(plan->epilogue->op);
    if (plan->epilogue) {
      storePaddingBetweenRows(rewriter, *plan);
      storeChannelWords(rewriter, *plan, block, plan->epilogue->op);
    }
    // Where every operand is defined (getFirstReader: what lies between
    // the contraction and its epilogue leaves the contraction's inputs be).
    rewriter.setInsertionPoint(plan->epilogue ? plan->epilogue->op : op);
    KernelEmitter(rewriter, op, *plan, block, rows).emit();
    for (Operation *dealloc : plan->deallocs)
      rewriter.moveOpBefore(dealloc, rewriter.getInsertionBlock(),
                            rewriter.getInsertionPoint());
    for (const std::optional<FusedOp> &fused : {plan->prologue, plan->epilogue})
      if (fused)
        rewriter.eraseOp(fused->op);
    rewriter.eraseOp(op);
    if (plan->channelWords)
      onnxq::erasePacking(rewriter, *plan->channelWords);
    return success();
  }

  unsigned vectorBits;
  int64_t rows, vectors;
  bool byteWindows, amx, saturatingPacks;
};

struct ContractionKernelsPass
    : onnxq::impl::ContractionKernelsPassBase<ContractionKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ContractionToKernel>(&getContext(), vectorBits, rows, vectors,
                                      byteWindows, amx, saturatingPacks);
    ModuleOp module = getOperation();
    // In program order: a contraction's epilogue may lie past later
    // contractions (getFirstReader), which must still be linalg ops then,
    // whose memory effects are known, not kernels calling out.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal();
    if (failed(applyPatternsGreedily(module, std::move(patterns), config)))
      return signalPassFailure();
    // AMX kernels ask whether the process may use AMX (onnxq-emit-abi
    // defines the function).
    bool asks = false;
    module.walk([&](func::CallOp call) {
      asks |= call.getCallee() == kAMXReadyFunction;
    });
    if (asks && !module.lookupSymbol(kAMXReadyFunction)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      auto ready = func::FuncOp::create(b, module.getLoc(), kAMXReadyFunction,
                                        b.getFunctionType({}, {b.getI1Type()}));
      ready.setPrivate();
    }
  }
};

} // namespace
