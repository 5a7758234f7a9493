//===- Parallelize.cpp - split parallel loops over the application's threads ===//
//
// `NAME_run_parallel` hands the graph function a parallel context (the
// application's parallel-for, its pool and a thread count; NULL from
// `NAME_run`). Each top-level `scf.parallel` of a node function with enough
// work becomes a task function that runs a contiguous part of its
// iterations, and the loop becomes a dispatch: the parallel-for runs the
// task over `chunks` parts (the thread count, at most the iterations and the
// `max-threads` cap), or, with no context or one thread, the node calls the
// task once for all of them. Every iteration runs the same code whatever
// the split, and the loops split are parallel (no reduction crosses an
// iteration), so results are bit-identical for any thread count.
//
// The parallel-for's task is `void (*)(void *ctx, int64_t begin, int64_t
// end)`: an entry function reads the chunk count and the buffers' pointers
// from `ctx` (a stack array the node fills) and calls the task with them as
// buffers, so the task keeps the node's noalias arguments.
//
//===----------------------------------------------------------------------===//

#include "Outlining.h"

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_PARALLELIZEPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Iterations of a loop dim with constant bounds.
std::optional<int64_t> getTripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return std::nullopt;
  return llvm::divideCeil(std::max<int64_t>(0, *u - *l), *s);
}

/// Bytes an op moves to or from memory: the vector or element it loads or
/// stores (0 for other ops).
int64_t getMemoryBytes(Operation *op) {
  auto bytesOf = [](Type type) -> int64_t {
    if (auto vector = dyn_cast<VectorType>(type))
      return vector.getNumElements() * vector.getElementTypeBitWidth() / 8;
    return type.isIntOrFloat() ? std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8)
                               : 0;
  };
  if (isa<memref::LoadOp, vector::LoadOp, vector::MaskedLoadOp,
          vector::TransferReadOp, vector::GatherOp>(op))
    return bytesOf(op->getResult(0).getType());
  if (isa<memref::StoreOp, vector::StoreOp, vector::MaskedStoreOp,
          vector::TransferWriteOp>(op))
    return bytesOf(op->getOperand(0).getType());
  return 0;
}

/// The work of one run of `block`: each op once per iteration of the loops
/// around it (a loop of unknown trip count counts once), a load or store
/// also once per 8 bytes it moves: a core does a few arithmetic ops per
/// nanosecond but moves some 30 bytes, so fills and copies take longer per
/// op than arithmetic.
int64_t countWork(Block &block) {
  int64_t work = 0;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>() || op.hasTrait<OpTrait::ConstantLike>())
      continue;
    int64_t trips = 1;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      trips = getTripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())
                  .value_or(1);
    } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                                           loop.getStep()))
        trips *= getTripCount(lb, ub, step).value_or(1);
    }
    int64_t inner = 1 + getMemoryBytes(&op) / 8;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        inner += countWork(nested);
    work += trips * inner;
  }
  return work;
}

/// A loop split into parts: its leading dims (the fewest whose iterations
/// number at least kMinItems, or all) are linearized, and each part runs a
/// contiguous range of them with the other dims whole.
struct LoopSplit {
  scf::ParallelOp loop;
  SmallVector<int64_t> trips;
  unsigned splitDims;
  int64_t items;
  int64_t work;
  OutlinedInputs inputs;
};

/// Items a split aims at: enough for up to this many threads to get parts
/// that differ by little.
constexpr int64_t kMinItems = 16;

class Parallelizer {
public:
  Parallelizer(ModuleOp module, SymbolTable &symbols, int64_t maxThreads,
               int64_t minWork)
      : module(module), symbols(symbols), maxThreads(maxThreads),
        minWork(minWork), converter(module.getContext()),
        ptr(LLVM::LLVMPointerType::get(module.getContext())),
        i64(IntegerType::get(module.getContext(), 64)) {}

  /// The splits worth making among the top-level loops of `func`.
  SmallVector<LoopSplit> findSplits(func::FuncOp func) {
    SmallVector<LoopSplit> splits;
    if (maxThreads == 1 || func.isExternal())
      return splits;
    Block &body = func.getBody().front();
    for (auto loop : body.getOps<scf::ParallelOp>()) {
      if (loop.getNumResults() != 0)
        continue;
      LoopSplit split{loop, {}, 0, 1, 0, {}};
      for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                                           loop.getStep()))
        if (std::optional<int64_t> trips = getTripCount(lb, ub, step))
          split.trips.push_back(*trips);
      if (split.trips.size() != loop.getNumLoops())
        continue;
      while (split.splitDims < split.trips.size() && split.items < kMinItems)
        split.items *= split.trips[split.splitDims++];
      split.work = workOf(loop);
      if (split.items < 2 || split.work < minWork)
        continue;
      FailureOr<OutlinedInputs> inputs = collectOutlinedInputs({loop}, body);
      if (failed(inputs) || !llvm::all_of(inputs->arguments, isPlainBuffer))
        continue;
      split.inputs = std::move(*inputs);
      splits.push_back(std::move(split));
    }
    return splits;
  }

  /// Replaces the loop of `split` in `func` by a task and its dispatch
  /// through the parallel context `context`.
  void emit(func::FuncOp func, LoopSplit &split, Value context) {
    func::FuncOp task = createTask(func, split);
    LLVM::LLVMFuncOp entry = createEntry(task, split);
    emitDispatch(func, split, context, task, entry);
    split.loop.erase();
  }

private:
  /// Operations one run of `loop` executes.
  static int64_t workOf(scf::ParallelOp loop) {
    int64_t trips = 1;
    for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                                         loop.getStep()))
      trips *= getTripCount(lb, ub, step).value_or(1);
    return trips * countWork(*loop.getBody());
  }

  /// A buffer the task can rebuild from its pointer: static, identity layout.
  static bool isPlainBuffer(BlockArgument arg) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    return type && type.hasStaticShape() && type.getLayout().isIdentity();
  }

  Value index(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value constantI64(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  }

  /// `<func>_part<N>(buffers..., chunks, begin, end)`: the iterations of
  /// parts [begin, end) of `chunks`.
  func::FuncOp createTask(func::FuncOp func, LoopSplit &split) {
    MLIRContext *ctx = module.getContext();
    Location loc = split.loop.getLoc();
    SmallVector<Type> types;
    for (BlockArgument arg : split.inputs.arguments)
      types.push_back(arg.getType());
    types.append({i64, i64, i64});
    OpBuilder b(ctx);
    auto task = func::FuncOp::create(b, loc, func.getName().str() + "_part",
                                     b.getFunctionType(types, {}));
    task.setPrivate();
    // One copy of the loop for the serial call and the parallel entry.
    task->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
    for (unsigned i = 0; i < split.inputs.arguments.size(); ++i)
      task.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
    symbols.insert(task, Block::iterator(func));

    Block *entry = task.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    cloneInputs(b, split.inputs, entry->getArguments(), mapping);
    unsigned numBuffers = split.inputs.arguments.size();
    Value chunks = entry->getArgument(numBuffers);
    auto itemAt = [&](Value part) -> Value {
      Value item = arith::DivUIOp::create(
          b, loc, arith::MulIOp::create(b, loc, part, constantI64(b, loc, split.items)),
          chunks);
      // At most `items` (part <= chunks): the bound lets range analysis see
      // the loops' indices are never negative.
      item = arith::MinUIOp::create(b, loc, item, constantI64(b, loc, split.items));
      return arith::IndexCastOp::create(b, loc, b.getIndexType(), item);
    };
    Value first = itemAt(entry->getArgument(numBuffers + 1));
    Value last = itemAt(entry->getArgument(numBuffers + 2));
    scf::ParallelOp loop = split.loop;
    auto items = scf::ForOp::create(b, loc, first, last, index(b, loc, 1));
    b.setInsertionPoint(items.getBody()->getTerminator());
    // The split dims' induction variables from the linear item.
    Value rest = items.getInductionVar();
    SmallVector<Value> ivs(split.splitDims);
    for (int64_t d = split.splitDims - 1; d >= 0; --d) {
      Value trips = index(b, loc, split.trips[d]);
      Value position = rest;
      if (d > 0) {
        position = arith::RemUIOp::create(b, loc, rest, trips);
        rest = arith::DivUIOp::create(b, loc, rest, trips);
      }
      ivs[d] = arith::AddIOp::create(
          b, loc, mapping.lookup(loop.getLowerBound()[d]),
          arith::MulIOp::create(b, loc, position, mapping.lookup(loop.getStep()[d])));
    }
    mapping.map(ValueRange(loop.getInductionVars()).take_front(split.splitDims), ivs);
    auto cloneBody = [&](OpBuilder &nb) {
      for (Operation &op : loop.getBody()->without_terminator())
        nb.clone(op, mapping);
    };
    if (split.splitDims == loop.getNumLoops()) {
      cloneBody(b);
    } else {
      auto tail = [&](ValueRange values) {
        return llvm::map_to_vector(values.drop_front(split.splitDims),
                                   [&](Value v) { return mapping.lookup(v); });
      };
      scf::ParallelOp::create(
          b, loc, tail(loop.getLowerBound()), tail(loop.getUpperBound()),
          tail(loop.getStep()), [&](OpBuilder &nb, Location, ValueRange inner) {
            mapping.map(ValueRange(loop.getInductionVars()).drop_front(split.splitDims), inner);
            cloneBody(nb);
          });
    }
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc);
    return task;
  }

  /// `void <task>_entry(void *ctx, int64_t begin, int64_t end)`, the
  /// parallel-for's task: ctx holds the chunk count, then the buffers'
  /// pointers.
  LLVM::LLVMFuncOp createEntry(func::FuncOp task, const LoopSplit &split) {
    MLIRContext *ctx = module.getContext();
    Location loc = task.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(task);
    auto entry = LLVM::LLVMFuncOp::create(
        b, loc, task.getName().str() + "_entry",
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, i64, i64}));
    symbols.insert(entry);
    Block *body = entry.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    Value context = body->getArgument(0);
    SmallVector<Value> operands;
    for (auto [i, arg] : llvm::enumerate(split.inputs.arguments)) {
      auto type = cast<MemRefType>(arg.getType());
      Value pointer = LLVM::LoadOp::create(b, loc, ptr, slot(b, loc, context, i + 1));
      Value descriptor =
          MemRefDescriptor::fromStaticShape(b, loc, converter, type, pointer);
      operands.push_back(
          UnrealizedConversionCastOp::create(b, loc, type, descriptor).getResult(0));
    }
    operands.push_back(LLVM::LoadOp::create(b, loc, i64, slot(b, loc, context, 0)));
    operands.append({body->getArgument(1), body->getArgument(2)});
    func::CallOp::create(b, loc, task, operands);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return entry;
  }

  /// The address of 8-byte slot `i` of the task context.
  Value slot(OpBuilder &b, Location loc, Value context, int64_t i) {
    return LLVM::GEPOp::create(b, loc, ptr, i64, context,
                               ArrayRef<LLVM::GEPArg>{int32_t(i)});
  }

  /// Where the loop was: chunks = min(threads, items, max-threads); more
  /// than one goes through the parallel-for, else one call does it all.
  void emitDispatch(func::FuncOp func, LoopSplit &split, Value context,
                    func::FuncOp task, LLVM::LLVMFuncOp entry) {
    Location loc = split.loop.getLoc();
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    unsigned numBuffers = split.inputs.arguments.size();
    Value taskContext = LLVM::AllocaOp::create(
        b, loc, ptr, i64, constantI64(b, loc, numBuffers + 1), /*alignment=*/8);

    b.setInsertionPoint(split.loop);
    Value isSet = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, context,
                                       LLVM::ZeroOp::create(b, loc, ptr));
    auto contextField = [&](OpBuilder &nb, ParallelContextField field, Type type) {
      Value address = LLVM::GEPOp::create(
          nb, loc, ptr, getParallelContextType(nb.getContext()), context,
          ArrayRef<LLVM::GEPArg>{0, int32_t(field)});
      return LLVM::LoadOp::create(nb, loc, type, address).getResult();
    };
    Value threads =
        scf::IfOp::create(
            b, loc, isSet,
            [&](OpBuilder &nb, Location l) {
              scf::YieldOp::create(nb, l,
                                   contextField(nb, ParallelContextField::Threads, i64));
            },
            [&](OpBuilder &nb, Location l) {
              scf::YieldOp::create(nb, l, constantI64(nb, l, 1));
            })
            .getResult(0);
    int64_t limit = maxThreads > 0 ? std::min(maxThreads, split.items) : split.items;
    Value chunks = arith::MinSIOp::create(b, loc, threads, constantI64(b, loc, limit));
    Value parallel = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, chunks,
                                           constantI64(b, loc, 1));
    SmallVector<Value> buffers(split.inputs.arguments.begin(),
                               split.inputs.arguments.end());
    scf::IfOp::create(
        b, loc, parallel,
        [&](OpBuilder &nb, Location l) {
          LLVM::StoreOp::create(nb, l, chunks, slot(nb, l, taskContext, 0));
          for (auto [i, buffer] : llvm::enumerate(buffers)) {
            Value address = memref::ExtractAlignedPointerAsIndexOp::create(nb, l, buffer);
            Value pointer = LLVM::IntToPtrOp::create(
                nb, l, ptr, arith::IndexCastOp::create(nb, l, i64, address).getResult());
            LLVM::StoreOp::create(nb, l, pointer, slot(nb, l, taskContext, i + 1));
          }
          Value parallelFor = contextField(nb, ParallelContextField::ParallelFor, ptr);
          Value pool = contextField(nb, ParallelContextField::Pool, ptr);
          auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(nb.getContext()),
                                                  {ptr, i64, ptr, ptr});
          LLVM::CallOp::create(nb, l, type,
                               ValueRange{parallelFor, pool, chunks,
                                          LLVM::AddressOfOp::create(nb, l, entry),
                                          taskContext});
          scf::YieldOp::create(nb, l);
        },
        [&](OpBuilder &nb, Location l) {
          SmallVector<Value> operands(buffers);
          operands.append({constantI64(nb, l, 1), constantI64(nb, l, 0),
                           constantI64(nb, l, 1)});
          func::CallOp::create(nb, l, task, operands);
          scf::YieldOp::create(nb, l);
        });
  }

  ModuleOp module;
  SymbolTable &symbols;
  int64_t maxThreads, minWork;
  LLVMTypeConverter converter;
  Type ptr, i64;
};

struct ParallelizePass : onnxq::impl::ParallelizePassBase<ParallelizePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> found = lookupGraphFunction(module, "to parallelize");
    if (failed(found))
      return signalPassFailure();
    func::FuncOp graph = *found;
    Type ptr = LLVM::LLVMPointerType::get(&getContext());
    // The parallel context: the graph always takes it (the ABI passes it).
    if (failed(graph.insertArgument(graph.getNumArguments(), ptr, {}, graph.getLoc())))
      return signalPassFailure();
    Value context = graph.getArguments().back();

    SymbolTable symbols(module);
    Parallelizer parallelizer(module, symbols, maxThreads, minWork);
    // The splits of the graph and of each node it calls, and their work.
    SmallVector<LoopSplit> graphSplits = parallelizer.findSplits(graph);
    struct NodeSplits {
      func::CallOp call;
      func::FuncOp node;
      SmallVector<LoopSplit> splits;
    };
    SmallVector<NodeSplits> nodeSplits;
    int64_t work = 0;
    for (LoopSplit &split : graphSplits)
      work += split.work;
    for (func::CallOp call : graph.getBody().getOps<func::CallOp>()) {
      auto node = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!node || node.isExternal())
        continue;
      SmallVector<LoopSplit> splits = parallelizer.findSplits(node);
      for (LoopSplit &split : splits)
        work += split.work;
      if (!splits.empty())
        nodeSplits.push_back({call, node, std::move(splits)});
    }
    // A model this small runs faster on the calling thread alone.
    if (work < minModelWork)
      return;

    for (LoopSplit &split : graphSplits)
      parallelizer.emit(graph, split, context);
    for (auto &[call, node, splits] : nodeSplits) {
      if (failed(node.insertArgument(node.getNumArguments(), ptr, {}, node.getLoc())))
        return signalPassFailure();
      for (LoopSplit &split : splits)
        parallelizer.emit(node, split, node.getArguments().back());
      call.getOperandsMutable().append(context);
    }
  }
};

} // namespace
