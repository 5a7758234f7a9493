//===- CheckIndices.cpp - index ranges of gathers and scatters ------------===//
//
// Constant indices are checked at compile time; run-time ones by `onnx` ops
// added to the graph, whose combined flag becomes an extra result that
// NAME_run turns into its status (docs/input-validation.md).
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_CHECKINDICESPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// An op's indices and, per component of one index, the size of the dim it
/// indexes: one for Gather, GatherElements and ScatterElements, k for the
/// (..., k) tuples of ScatterND.
struct IndexedAccess {
  Value indices;
  SmallVector<int64_t> sizes;
};

std::optional<IndexedAccess> getIndexedAccess(Operation *op) {
  auto alongAxis = [](Value data, Value indices,
                      int64_t axis) -> std::optional<IndexedAccess> {
    auto type = cast<RankedTensorType>(data.getType());
    int64_t rank = type.getRank();
    if (axis < 0)
      axis += rank;
    return IndexedAccess{indices, {type.getDimSize(axis)}};
  };
  return TypeSwitch<Operation *, std::optional<IndexedAccess>>(op)
      .Case([&](GatherOp g) {
        return alongAxis(g.getData(), g.getIndices(), g.getAxis());
      })
      .Case([&](GatherElementsOp g) {
        return alongAxis(g.getData(), g.getIndices(), g.getAxis());
      })
      .Case([&](ScatterElementsOp s) {
        return alongAxis(s.getData(), s.getIndices(), s.getAxis());
      })
      .Case([&](ScatterNDOp s) -> std::optional<IndexedAccess> {
        auto data = cast<RankedTensorType>(s.getData().getType());
        auto indices = cast<RankedTensorType>(s.getIndices().getType());
        int64_t k = indices.getShape().back();
        return IndexedAccess{s.getIndices(),
                             SmallVector<int64_t>(data.getShape().take_front(k))};
      })
      .Default(std::nullopt);
}

/// "[1, 2]": the position of flat element `flat` in `shape`.
std::string describePosition(ArrayRef<int64_t> shape, int64_t flat) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    position[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (auto [i, p] : llvm::enumerate(position))
    text += (i ? ", " : "") + std::to_string(p);
  return text + "]";
}

LogicalResult checkConstantIndices(Operation *op, const IndexedAccess &access,
                                   ArrayRef<int64_t> values) {
  auto type = cast<RankedTensorType>(access.indices.getType());
  for (auto [flat, value] : llvm::enumerate(values)) {
    int64_t component = flat % access.sizes.size();
    int64_t size = access.sizes[component];
    if (value >= -size && value < size)
      continue;
    InFlightDiagnostic diag = op->emitError()
                              << "index " << value << " at "
                              << describePosition(type.getShape(), flat)
                              << " of the indices is out of range for ";
    if (access.sizes.size() > 1)
      diag << "dim " << component << " of the data";
    else
      diag << "its axis";
    return diag << " (size " << size << "): indices must lie in [" << -size
                << ", " << size - 1 << "]";
  }
  return success();
}

/// An i32 scalar: 1 when an index of `access` is out of range, else 0.
Value buildRangeCheck(OpBuilder &b, Location loc, const IndexedAccess &access) {
  auto indicesType = cast<RankedTensorType>(access.indices.getType());
  SmallVector<int64_t> boundShape;
  if (access.sizes.size() > 1)
    boundShape.push_back(access.sizes.size());
  auto boundType =
      RankedTensorType::get(boundShape, indicesType.getElementType());
  SmallVector<int64_t> lows, highs;
  for (int64_t size : access.sizes) {
    lows.push_back(-size);
    highs.push_back(size);
  }
  Value low = ConstantOp::create(b, loc, createIntegerElements(boundType, lows));
  Value high =
      ConstantOp::create(b, loc, createIntegerElements(boundType, highs));
  auto boolType = indicesType.clone(b.getI1Type());
  Value outside = OrOp::create(
      b, loc, boolType, LessOp::create(b, loc, boolType, access.indices, low),
      GreaterOrEqualOp::create(b, loc, boolType, access.indices, high));
  Value flags = CastOp::create(b, loc, indicesType.clone(b.getI32Type()),
                               outside, int64_t(ONNXDataType::Int32));
  return ReduceMaxOp::create(b, loc, RankedTensorType::get({}, b.getI32Type()),
                             flags, /*axes=*/nullptr, /*keepdims=*/0);
}

struct CheckIndicesPass : onnxq::impl::CheckIndicesPassBase<CheckIndicesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> graph = getGraphFunction(module);
    FailureOr<ModelABI> abi = readModelABI(module);
    if (failed(graph) || failed(abi))
      return signalPassFailure();
    SmallVector<std::pair<Operation *, IndexedAccess>> runtime;
    WalkResult walk = graph->walk([&](Operation *op) {
      std::optional<IndexedAccess> access = getIndexedAccess(op);
      if (!access || ShapedType::getNumElements(
                         cast<ShapedType>(access->indices.getType()).getShape()) == 0)
        return WalkResult::advance();
      if (std::optional<SmallVector<int64_t>> values =
              getConstantIntegers(access->indices))
        return succeeded(checkConstantIndices(op, *access, *values))
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      runtime.push_back({op, *access});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (runtime.empty())
      return;

    // Each check right after the op it checks (its indices are defined);
    // the flags combine at the return.
    OpBuilder b(module.getContext());
    SmallVector<Value> flags;
    for (auto &[op, access] : runtime) {
      b.setInsertionPointAfter(op);
      flags.push_back(buildRangeCheck(b, op->getLoc(), access));
    }
    Operation *terminator = graph->getBody().front().getTerminator();
    b.setInsertionPoint(terminator);
    Value status = flags.front();
    if (flags.size() > 1)
      status = MaxOp::create(b, terminator->getLoc(), status.getType(), flags);
    if (failed(graph->insertResult(graph->getNumResults(), status.getType(),
                                   DictionaryAttr())))
      return signalPassFailure();
    terminator->insertOperands(terminator->getNumOperands(), status);
    abi->indexChecks = true;
    writeModelABI(module, *abi);
  }
};

} // namespace
