//===- LookupTables.cpp - float islands of one byte as table lookups ------===//
//
// Q(f(DQ(x))) with f element-wise and x 8-bit takes at most 256 values: it
// is Gather(table, x) with table = Q(f(DQ(0..255))). The table is built by
// cloning the island onto a 256-element constant, so it runs the same code
// the island would have run on each element.
//
//===----------------------------------------------------------------------===//

#include "Matchers.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Quantization/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_LOOKUPTABLESPASS
#include "onnx-quant/Quantization/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The ops between an 8-bit tensor and a QuantizeLinear that computes each
/// element from the same element of `source` and scalar constants only.
struct Island {
  Value source;
  SmallVector<Operation *> ops; // program order, ending with the Q
};

bool isByteTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getElementType().isInteger(8);
}

bool isScalarConstant(Value value) {
  ElementsAttr constant = getConstantValue(value);
  return constant && constant.getNumElements() == 1;
}

/// Finds the island ending in `q`.
class IslandMatcher {
public:
  explicit IslandMatcher(QuantizeLinearOp q)
      : q(q), shape(cast<ShapedType>(q.getY().getType()).getShape()),
        block(q->getBlock()) {}

  std::optional<Island> match() {
    if (!isByteTensor(q.getY()) || !isPerTensorQuantize(q) ||
        failed(explore(q.getY())) || !source)
      return std::nullopt;
    Island island{source, inside.takeVector()};
    llvm::sort(island.ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    // A bare requantization Q(DQ(x)) is cheaper computed than looked up.
    if (llvm::all_of(island.ops, [](Operation *op) {
          return isa<QuantizeLinearOp, DequantizeLinearOp>(op);
        }))
      return std::nullopt;
    return island;
  }

private:
  /// Whether `value` is a function of one element of the source: succeeds
  /// with the ops that compute it recorded in `inside`.
  LogicalResult explore(Value value) {
    if (value == source || isScalarConstant(value))
      return success();
    auto [it, inserted] = explored.try_emplace(value, false);
    if (!inserted)
      return success(it->second);
    Operation *op = value.getDefiningOp();
    if (op && op->getBlock() == block && inside.size() < kMaxOps &&
        isElementwiseStep(op) && tryOperands(op)) {
      explored[value] = true;
      return success();
    }
    // Not computed element-wise from one byte tensor: it is the source.
    if (!source && isByteTensor(value) &&
        cast<ShapedType>(value.getType()).getShape() == shape) {
      source = value;
      explored[value] = true;
      return success();
    }
    return failure();
  }

  /// Explores `op`'s operands, undoing what it recorded when one fails (an
  /// 8-bit result may still be the source itself).
  bool tryOperands(Operation *op) {
    Value savedSource = source;
    llvm::SetVector<Operation *> savedInside = inside;
    auto savedExplored = explored;
    for (Value operand : op->getOperands())
      if (failed(explore(operand))) {
        source = savedSource;
        inside = std::move(savedInside);
        explored = std::move(savedExplored);
        return false;
      }
    inside.insert(op);
    return true;
  }

  /// An op that maps elements to elements of the island's shape.
  bool isElementwiseStep(Operation *op) const {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0)
      return false;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || type.getShape() != shape)
      return false;
    if (auto q = dyn_cast<QuantizeLinearOp>(op))
      return isPerTensorQuantize(q);
    if (isa<DequantizeLinearOp>(op))
      return getDequantize(op->getResult(0)) != nullptr;
    return op->hasTrait<Pointwise>();
  }

  /// Islands are activation functions: a few ops. The bound keeps the
  /// search local in long element-wise chains.
  static constexpr size_t kMaxOps = 32;

  QuantizeLinearOp q;
  ArrayRef<int64_t> shape;
  Block *block;
  Value source;
  llvm::SetVector<Operation *> inside;
  DenseMap<Value, bool> explored;
};

/// The 256 bytes of `type`'s element type (i8 or ui8) in the order Gather
/// reads them with the byte as index: 0..255, for signed bytes 0..127 then
/// -128..-1 (Gather counts negative indices from the end).
Value createAllBytes(OpBuilder &b, Location loc, RankedTensorType type) {
  bool isSigned = !type.getElementType().isUnsignedInteger();
  SmallVector<int64_t> bytes(256);
  for (int64_t i = 0; i < 256; ++i)
    bytes[i] = isSigned && i >= 128 ? i - 256 : i;
  return ConstantOp::create(b, loc, createIntegerElements(type, bytes));
}

constexpr int64_t kONNXInt32 = 6; // TensorProto.INT32

/// Replaces the island's QuantizeLinear by Gather(table, source) and erases
/// the island ops nothing else reads (recorded in `erased`).
void tabulate(RewriterBase &rewriter, const Island &island,
              DenseSet<Operation *> &erased) {
  auto q = cast<QuantizeLinearOp>(island.ops.back());
  Location loc = q.getLoc();
  rewriter.setInsertionPoint(q);
  // The table has the source's rank, so scalar constants of any rank
  // broadcast to it as they did to the source.
  auto sourceType = cast<RankedTensorType>(island.source.getType());
  SmallVector<int64_t> tableShape(std::max<int64_t>(sourceType.getRank(), 1), 1);
  tableShape.back() = 256;
  IRMapping mapping;
  mapping.map(island.source,
              createAllBytes(rewriter, loc, sourceType.clone(tableShape)));
  for (Operation *op : island.ops) {
    Operation *clone = rewriter.clone(*op, mapping);
    for (Value result : clone->getResults())
      result.setType(cast<RankedTensorType>(result.getType()).clone(tableShape));
  }
  Value table = mapping.lookup(q.getY());
  auto outType = cast<RankedTensorType>(q.getY().getType());
  if (tableShape.size() != 1) {
    auto shapeType = RankedTensorType::get({1}, rewriter.getI64Type());
    Value shape = ConstantOp::create(
        rewriter, loc, createIntegerElements(shapeType, {int64_t(256)}));
    table = ReshapeOp::create(rewriter, loc, outType.clone({256}), table, shape);
  }
  Value indices =
      CastOp::create(rewriter, loc, sourceType.clone(rewriter.getI32Type()),
                     island.source, kONNXInt32);
  rewriter.replaceOpWithNewOp<GatherOp>(q, outType, table, indices, /*axis=*/0);
  for (Operation *op : llvm::reverse(ArrayRef(island.ops).drop_back()))
    if (op->use_empty()) {
      erased.insert(op);
      rewriter.eraseOp(op);
    }
}

struct LookupTablesPass
    : onnxq::impl::LookupTablesPassBase<LookupTablesPass> {
  void runOnOperation() override {
    SmallVector<QuantizeLinearOp> quantizes;
    getOperation().walk([&](QuantizeLinearOp q) { quantizes.push_back(q); });
    IRRewriter rewriter(&getContext());
    DenseSet<Operation *> erased;
    // Last first: a QuantizeLinear inside a later island is part of its
    // table (and erased with it) before it would become a table of its own.
    for (QuantizeLinearOp q : llvm::reverse(quantizes)) {
      if (erased.contains(q))
        continue;
      if (std::optional<Island> island = IslandMatcher(q).match())
        tabulate(rewriter, *island, erased);
    }
  }
};

} // namespace
