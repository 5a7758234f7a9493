//===- HoistConstants.cpp - work on constants, once per process -----------===//
//
// Some constants are kept small in the object on purpose and expanded by the
// generated code: 4-bit weights two a byte, codebook indices. Expanding them
// at every inference costs time (a weight-only 4-bit SqueezeNet ran 6-15 %
// slower than float); once per process, into a zero-initialized global that
// the object does not store, it costs nothing after the first run. The
// "constant expression hoisting" of IREE's util dialect does the same for
// its module initializers.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_HOISTCONSTANTSPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// A hoisted value may be at most this many times the bytes of the
/// constants it is computed from: 4-bit weights dequantized to float.
constexpr int64_t kMaxExpansion = 8;

/// What the graph function computes from constants alone.
class ConstantWork {
public:
  explicit ConstantWork(Block &body) {
    for (Operation &op : body.without_terminator())
      visit(op);
  }

  bool contains(Operation *op) const { return sources.contains(op); }

  /// The results worth computing once: see the pass description.
  SmallVector<Value> findHoistable() const {
    SmallVector<Value> values;
    for (auto &[op, constants] : sources) {
      if (!computes.contains(op))
        continue;
      int64_t constantBytes = 0;
      for (Operation *constant : constants)
        constantBytes += getBytes(constant->getResult(0));
      for (Value result : op->getResults())
        if (constantBytes > 0 && isReadOutside(result) &&
            getBytes(result) <= kMaxExpansion * constantBytes)
          values.push_back(result);
    }
    llvm::sort(values, [](Value a, Value b) {
      return a.getDefiningOp()->isBeforeInBlock(b.getDefiningOp());
    });
    return values;
  }

  /// The ops `values` need, in program order.
  SmallVector<Operation *> getSlice(ArrayRef<Value> values) const {
    llvm::SetVector<Operation *> slice;
    SmallVector<Operation *> worklist;
    for (Value v : values)
      worklist.push_back(v.getDefiningOp());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!slice.insert(op))
        continue;
      for (Value input : getInputs(op))
        worklist.push_back(input.getDefiningOp());
    }
    SmallVector<Operation *> ordered(slice.begin(), slice.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    return ordered;
  }

private:
  /// Operands and values captured by the regions.
  static SmallVector<Value> getInputs(Operation *op) {
    SmallVector<Value> inputs(op->getOperands());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    inputs.append(captured.begin(), captured.end());
    return inputs;
  }

  static int64_t getBytes(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape())
      return std::numeric_limits<int64_t>::max();
    return getTensorBytes(type).value_or(std::numeric_limits<int64_t>::max());
  }

  void visit(Operation &op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<ElementsAttr>(constant.getValue());
      sources[&op];
      if (dense && !dense.isSplat())
        sources[&op].insert(&op);
      return;
    }
    if (op.getNumResults() == 0 || !isMemoryEffectFree(&op))
      return;
    llvm::SetVector<Operation *> constants;
    bool computed = false;
    for (Value input : getInputs(&op)) {
      auto it = sources.find(input.getDefiningOp());
      if (it == sources.end())
        return;
      constants.insert(it->second.begin(), it->second.end());
      computed |= computes.contains(it->first);
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && linalgOp.getNumDpsInputs() > 0)
      computed = true;
    if (computed)
      computes.insert(&op);
    sources[&op] = std::move(constants);
  }

  /// Whether work that is not on constants reads `value`, and none
  /// writes it (as its destination).
  bool isReadOutside(Value value) const {
    bool read = false;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (contains(user))
        continue;
      auto dps = dyn_cast<DestinationStyleOpInterface>(user);
      if (dps && dps.isDpsInit(&use))
        return false;
      read = true;
    }
    return read;
  }

  /// Each op on constants alone, with the non-splat constants it reads.
  llvm::MapVector<Operation *, llvm::SetVector<Operation *>> sources;
  /// Those among them that compute (a linalg op with inputs, or after one).
  llvm::SmallPtrSet<Operation *, 16> computes;
};

struct HoistConstantsPass
    : onnxq::impl::HoistConstantsPassBase<HoistConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> graph = lookupGraphFunction(module, "to hoist constants from");
    FailureOr<ModelABI> abi = readModelABI(module);
    if (failed(graph) || failed(abi))
      return signalPassFailure();
    if (!graph->getBody().hasOneBlock() ||
        module.lookupSymbol(kInitConstantsFunction))
      return;
    Block &body = graph->getBody().front();
    ConstantWork work(body);
    SmallVector<Value> hoisted = work.findHoistable();
    if (hoisted.empty())
      return;

    // The function that computes them into their globals.
    OpBuilder b(module.getContext());
    b.setInsertionPoint(*graph);
    Location loc = graph->getLoc();
    auto init = func::FuncOp::create(b, loc, kInitConstantsFunction,
                                     b.getFunctionType({}, {}));
    init.setPrivate();
    SymbolTable symbols(module);
    SmallVector<memref::GlobalOp> globals;
    for (Value value : hoisted) {
      auto type = cast<RankedTensorType>(value.getType());
      abi->constantsSize += *getTensorBytes(type);
      b.setInsertionPoint(init);
      auto global = memref::GlobalOp::create(
          b, value.getLoc(), "onnxq_constant",
          b.getStringAttr("private"),
          MemRefType::get(type.getShape(), type.getElementType()),
          b.getUnitAttr(), /*constant=*/false, b.getI64IntegerAttr(64));
      symbols.insert(global);
      globals.push_back(global);
    }
    b.setInsertionPointToStart(init.addEntryBlock());
    IRMapping mapping;
    for (Operation *op : work.getSlice(hoisted))
      b.clone(*op, mapping);
    for (auto [value, global] : llvm::zip(hoisted, globals)) {
      Value buffer = memref::GetGlobalOp::create(b, value.getLoc(), global.getType(),
                                                 global.getSymName());
      bufferization::MaterializeInDestinationOp::create(
          b, value.getLoc(), TypeRange{}, mapping.lookup(value), buffer,
          /*restrict=*/true, /*writable=*/true);
    }
    func::ReturnOp::create(b, loc);
    writeModelABI(module, *abi);

    // The graph computes them first (the first time), then reads them.
    b.setInsertionPointToStart(&body);
    func::CallOp::create(b, loc, init, ValueRange{});
    for (auto [value, global] : llvm::zip(hoisted, globals)) {
      b.setInsertionPointAfterValue(value);
      Value buffer = memref::GetGlobalOp::create(b, value.getLoc(), global.getType(),
                                                 global.getSymName());
      Value read = bufferization::ToTensorOp::create(
          b, value.getLoc(), value.getType(), buffer, /*restrict=*/true);
      value.replaceAllUsesWith(read);
    }
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (work.contains(&op) && op.use_empty())
        op.erase();
  }
};

} // namespace
