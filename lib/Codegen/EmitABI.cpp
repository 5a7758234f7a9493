//===- EmitABI.cpp - the C entry points in the LLVM dialect ---------------===//
//
// After lowering with the bare-pointer calling convention the graph is
// `graph(in0, ..., out0, ..., workspace, parallel context)`. This pass adds
// the exported C functions of the header around it and makes everything
// else internal.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"


#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_EMITABIPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// States of onnxq_amx_ready's global.
enum AMXState : int32_t {
  kAMXNotAsked = 0,
  kAMXGranted = 1,
  kAMXRefused = 2,
  kAMXAsking = 3,
};

class ABIBuilder {
public:
  ABIBuilder(ModuleOp module, const ModelABI &abi)
      : module(module), abi(abi), b(module.getContext()),
        loc(module.getLoc()), i1(b.getI1Type()), i32(b.getI32Type()),
        i64(b.getI64Type()), ptr(LLVM::LLVMPointerType::get(b.getContext())) {
    b.setInsertionPointToEnd(module.getBody());
  }

  /// `int NAME_<suffix>(...)` or `size_t NAME_<suffix>(...)` returning a
  /// constant whatever its arguments.
  void emitConstant(StringRef suffix, Type type, int64_t value,
                    ArrayRef<Type> args = {}) {
    Block *body = beginFunction(suffix, type, args);
    LLVM::ReturnOp::create(b, loc, constant(type, value));
    b.setInsertionPointAfter(body->getParentOp());
  }

  /// `size_t NAME_<suffix>(int i)`: element counts, 0 out of range.
  void emitSizes(StringRef suffix, const std::vector<TensorABI> &tensors) {
    Block *body = beginFunction(suffix, i64, {i32});
    Value index = body->getArgument(0);
    Value result = constant(i64, 0);
    for (auto [i, t] : llvm::enumerate(tensors)) {
      Value match = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, index,
                                         constant(i32, i));
      result = LLVM::SelectOp::create(b, loc, match,
                                      constant(i64, t.getNumElements()), result);
    }
    LLVM::ReturnOp::create(b, loc, result);
    b.setInsertionPointAfter(body->getParentOp());
  }

  /// int NAME_run(const void *const *inputs, void *const *outputs, void *ws)
  /// and, with `parallel`, int NAME_run_parallel(..., ws,
  /// onnxq_parallel_for_fn parallel_for, void *pool, int threads).
  LogicalResult emitRun(LLVM::LLVMFuncOp graph, bool parallel) {
    SmallVector<Type> params{ptr, ptr, ptr};
    if (parallel)
      params.append({ptr, ptr, i32});
    Block *entry = beginFunction(parallel ? "run_parallel" : "run", i32, params);
    Region &region = *entry->getParent();
    Value inputs = entry->getArgument(0), outputs = entry->getArgument(1),
          given = entry->getArgument(2);
    Value context = parallel ? emitParallelContext(entry->getArguments().drop_front(3))
                             : LLVM::ZeroOp::create(b, loc, ptr).getResult();
    Block *pointers = new Block(), *start = new Block(), *invalid = new Block(),
          *alloc = new Block(), *call = new Block(), *release = new Block(),
          *done = new Block(), *fail = new Block();
    for (Block *block :
         {pointers, start, invalid, alloc, call, release, done, fail})
      region.push_back(block);
    Value workspace = call->addArgument(ptr, loc);
    Value owned = call->addArgument(i1, loc);
    Value mustFree = release->addArgument(ptr, loc);
    Value releasedStatus = release->addArgument(i32, loc);
    Value status = done->addArgument(i32, loc);
    // The index-check flag (onnxq-check-indices), written by the graph.
    Value flagSlot;
    if (abi.indexChecks)
      flagSlot = LLVM::AllocaOp::create(b, loc, ptr, i32, constant(i64, 1));

    // NULL arrays, or a NULL pointer in them: ONNXQ_STATUS_NULL_POINTER
    // rather than a crash.
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    auto isNullPointer = [&](Value p) {
      return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, p, null);
    };
    LLVM::CondBrOp::create(
        b, loc,
        LLVM::OrOp::create(b, loc, isNullPointer(inputs), isNullPointer(outputs)),
        invalid, ValueRange{}, pointers, ValueRange{});
    b.setInsertionPointToStart(pointers);
    Value anyNull = constant(i1, 0);
    for (size_t i = 0; i < abi.inputs.size(); ++i)
      anyNull = LLVM::OrOp::create(b, loc, anyNull,
                                   isNullPointer(loadPointer(inputs, i)));
    for (size_t i = 0; i < abi.outputs.size(); ++i)
      anyNull = LLVM::OrOp::create(b, loc, anyNull,
                                   isNullPointer(loadPointer(outputs, i)));
    LLVM::CondBrOp::create(b, loc, anyNull, invalid, ValueRange{}, start,
                           ValueRange{});
    b.setInsertionPointToStart(invalid);
    LLVM::ReturnOp::create(b, loc, constant(i32, kStatusNullPointer));

    // A NULL workspace is allocated here (unless none is needed).
    b.setInsertionPointToStart(start);
    Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, given,
                                        LLVM::ZeroOp::create(b, loc, ptr));
    Value needed = constant(i1, abi.workspaceSize > 0);
    Value allocate = LLVM::AndOp::create(b, loc, isNull, needed);
    LLVM::CondBrOp::create(b, loc, allocate, alloc, ValueRange{}, call,
                           ValueRange{given, constant(i1, 0)});

    b.setInsertionPointToStart(alloc);
    LLVM::LLVMFuncOp malloc = declare("malloc", ptr, {i64});
    Value memory = LLVM::CallOp::create(b, loc, malloc,
                                        ValueRange{constant(i64, abi.workspaceSize)})
                       .getResult();
    Value failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, memory,
                                        LLVM::ZeroOp::create(b, loc, ptr));
    LLVM::CondBrOp::create(b, loc, failed, fail, ValueRange{}, call,
                           ValueRange{memory, constant(i1, 1)});

    b.setInsertionPointToStart(call);
    SmallVector<Value> args;
    for (size_t i = 0; i < abi.inputs.size(); ++i)
      args.push_back(loadPointer(inputs, i));
    for (size_t i = 0; i < abi.outputs.size(); ++i)
      args.push_back(loadPointer(outputs, i));
    if (flagSlot)
      args.push_back(flagSlot);
    args.push_back(workspace);
    args.push_back(context);
    if (graph.getNumArguments() != args.size())
      return graph.emitError() << "expects the graph lowered with bare pointers "
                                  "and a parallel context: "
                               << args.size() << " arguments, got "
                               << graph.getNumArguments();
    LLVM::CallOp::create(b, loc, graph, args);
    Value result = constant(i32, kStatusOK);
    if (flagSlot) {
      Value flag = LLVM::LoadOp::create(b, loc, i32, flagSlot);
      Value outside = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, flag,
                                           constant(i32, 0));
      result = LLVM::SelectOp::create(b, loc, outside,
                                      constant(i32, kStatusIndexOutOfRange), result);
    }
    LLVM::CondBrOp::create(b, loc, owned, release, ValueRange{workspace, result},
                           done, ValueRange{result});

    b.setInsertionPointToStart(release);
    LLVM::CallOp::create(b, loc, declare("free", {}, {ptr}), ValueRange{mustFree});
    LLVM::BrOp::create(b, loc, ValueRange{releasedStatus}, done);

    b.setInsertionPointToStart(done);
    LLVM::ReturnOp::create(b, loc, status);
    b.setInsertionPointToStart(fail);
    LLVM::ReturnOp::create(b, loc, constant(i32, kStatusNoMemory));
    b.setInsertionPointToEnd(module.getBody());
    return success();
  }

  /// The body of `bool onnxq_amx_ready(void)` (declared by the AMX kernels):
  /// a process may use AMX tiles once it has asked Linux
  /// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)). An internal
  /// global keeps the answer: 0 not asked, 1 granted, 2 refused, 3 being
  /// asked. Only the call that swaps 0 for 3 asks, so the process asks
  /// once however many threads race; the others answer "no" until the
  /// answer is in, and their kernels run on vpdpbusd meanwhile (same
  /// outputs, integer sums being exact).
  void defineAMXReady(LLVM::LLVMFuncOp ready) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ready);
    auto state = LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/false,
                                        LLVM::Linkage::Internal, "onnxq_amx_state",
                                        b.getI32IntegerAttr(kAMXNotAsked));
    LLVM::LLVMFuncOp syscall = declare(
        "syscall", LLVM::LLVMFunctionType::get(i64, {i64}, /*isVarArg=*/true));
    Block *entry = ready.addEntryBlock(b);
    Region &region = ready.getBody();
    Block *claim = new Block(), *ask = new Block(), *done = new Block();
    region.push_back(claim);
    region.push_back(ask);
    region.push_back(done);
    Value answer = done->addArgument(i32, loc);

    b.setInsertionPointToStart(entry);
    Value address = LLVM::AddressOfOp::create(b, loc, state);
    Value known = LLVM::LoadOp::create(b, loc, i32, address, /*alignment=*/4, false,
                                       false, false, false,
                                       LLVM::AtomicOrdering::acquire);
    Value asked = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, known,
                                       constant(i32, kAMXNotAsked));
    LLVM::CondBrOp::create(b, loc, asked, done, ValueRange{known}, claim,
                           ValueRange{});

    // Claim the question; a caller that loses the race answers with what
    // it found (3 while the winner asks, or the winner's answer).
    b.setInsertionPointToStart(claim);
    Value exchange = LLVM::AtomicCmpXchgOp::create(
        b, loc, address, constant(i32, kAMXNotAsked), constant(i32, kAMXAsking),
        LLVM::AtomicOrdering::acq_rel, LLVM::AtomicOrdering::acquire);
    Value found = LLVM::ExtractValueOp::create(b, loc, exchange, 0);
    Value won = LLVM::ExtractValueOp::create(b, loc, exchange, 1);
    LLVM::CondBrOp::create(b, loc, won, ask, ValueRange{}, done, ValueRange{found});

    b.setInsertionPointToStart(ask);
    // x86-64 Linux: SYS_arch_prctl 158, ARCH_REQ_XCOMP_PERM 0x1023,
    // XFEATURE_XTILEDATA 18.
    Value result = LLVM::CallOp::create(b, loc, syscall,
                                        ValueRange{constant(i64, 158),
                                                   constant(i64, 0x1023),
                                                   constant(i64, 18)})
                       .getResult();
    Value granted =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, result, constant(i64, 0));
    Value decided = LLVM::SelectOp::create(b, loc, granted, constant(i32, kAMXGranted),
                                           constant(i32, kAMXRefused));
    LLVM::StoreOp::create(b, loc, decided, address, /*alignment=*/4, false, false,
                          false, LLVM::AtomicOrdering::release);
    LLVM::BrOp::create(b, loc, ValueRange{decided}, done);

    b.setInsertionPointToStart(done);
    LLVM::ReturnOp::create(b, loc,
                           LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, answer,
                                                constant(i32, kAMXGranted))
                               .getResult());
    ready.setLinkage(LLVM::Linkage::Internal);
  }

  /// Makes `init` (onnxq-hoist-constants' function) do its work once per
  /// process: an internal global says 0 not done, 1 being done, 2 done. The
  /// call that swaps 0 for 1 does the work and publishes 2 (release); the
  /// others wait (sched_yield) until they see 2 (acquire), then read the
  /// globals it wrote.
  void guardInitConstants(LLVM::LLVMFuncOp init) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(init);
    auto state = LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/false,
                                        LLVM::Linkage::Internal,
                                        "onnxq_constants_state", b.getI32IntegerAttr(0));
    Region &region = init.getBody();
    Block *work = &region.front();
    for (Block &block : region)
      if (auto ret = dyn_cast<LLVM::ReturnOp>(block.getTerminator())) {
        b.setInsertionPoint(ret);
        LLVM::StoreOp::create(b, loc, constant(i32, 2),
                              LLVM::AddressOfOp::create(b, loc, state), /*alignment=*/4,
                              false, false, false, LLVM::AtomicOrdering::release);
      }
    // A new entry block takes the arguments; the work block gets none.
    Block *entry = new Block(), *claim = new Block(), *wait = new Block(),
          *done = new Block();
    region.getBlocks().insert(region.begin(), entry);
    for (BlockArgument arg : work->getArguments())
      arg.replaceAllUsesWith(entry->addArgument(arg.getType(), arg.getLoc()));
    work->eraseArguments(0, work->getNumArguments());
    region.push_back(claim);
    region.push_back(wait);
    region.push_back(done);
    auto isDone = [&] {
      Value known = LLVM::LoadOp::create(b, loc, i32, LLVM::AddressOfOp::create(b, loc, state),
                                         /*alignment=*/4, false, false, false, false,
                                         LLVM::AtomicOrdering::acquire);
      return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, known, constant(i32, 2));
    };
    b.setInsertionPointToStart(entry);
    LLVM::CondBrOp::create(b, loc, isDone(), done, claim);
    b.setInsertionPointToStart(claim);
    Value exchange = LLVM::AtomicCmpXchgOp::create(
        b, loc, LLVM::AddressOfOp::create(b, loc, state), constant(i32, 0), constant(i32, 1),
        LLVM::AtomicOrdering::acq_rel, LLVM::AtomicOrdering::acquire);
    LLVM::CondBrOp::create(b, loc, LLVM::ExtractValueOp::create(b, loc, exchange, 1), work,
                           wait);
    // The wait gives the core away: the caller doing the work may need it.
    b.setInsertionPointToStart(wait);
    LLVM::CallOp::create(b, loc, declare("sched_yield", i32, {}), ValueRange{});
    LLVM::CondBrOp::create(b, loc, isDone(), done, wait);
    b.setInsertionPointToStart(done);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }

private:
  /// The parallel context on the stack: {parallel_for, pool, threads}, or
  /// NULL when there is no parallel-for (then the model runs serially).
  Value emitParallelContext(ValueRange args) {
    Value parallelFor = args[0], pool = args[1], threads = args[2];
    LLVM::LLVMStructType type = getParallelContextType(b.getContext());
    Value context =
        LLVM::AllocaOp::create(b, loc, ptr, type, constant(i64, 1), /*alignment=*/8);
    auto store = [&](Value value, ParallelContextField field) {
      Value address = LLVM::GEPOp::create(b, loc, ptr, type, context,
                                          ArrayRef<LLVM::GEPArg>{0, int32_t(field)});
      LLVM::StoreOp::create(b, loc, value, address);
    };
    store(parallelFor, ParallelContextField::ParallelFor);
    store(pool, ParallelContextField::Pool);
    store(LLVM::SExtOp::create(b, loc, i64, threads), ParallelContextField::Threads);
    Value none = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, parallelFor,
                                      LLVM::ZeroOp::create(b, loc, ptr));
    return LLVM::SelectOp::create(b, loc, none, LLVM::ZeroOp::create(b, loc, ptr),
                                  context);
  }

  Block *beginFunction(StringRef suffix, Type result, ArrayRef<Type> args) {
    auto type = LLVM::LLVMFunctionType::get(result, args);
    auto func = LLVM::LLVMFuncOp::create(b, loc, abi.entry + "_" + suffix.str(), type);
    Block *body = func.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    return body;
  }

  Value constant(Type type, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
  }

  /// ((void **)array)[index]
  Value loadPointer(Value array, int64_t index) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, array,
                                     ArrayRef<LLVM::GEPArg>{int32_t(index)});
    return LLVM::LoadOp::create(b, loc, ptr, slot);
  }

  /// An external libc function, declared once.
  LLVM::LLVMFuncOp declare(StringRef name, Type result, ArrayRef<Type> args) {
    Type resultType = result ? result : LLVM::LLVMVoidType::get(b.getContext());
    return declare(name, LLVM::LLVMFunctionType::get(resultType, args));
  }
  LLVM::LLVMFuncOp declare(StringRef name, LLVM::LLVMFunctionType type) {
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    return LLVM::LLVMFuncOp::create(b, loc, name, type);
  }

  ModuleOp module;
  const ModelABI &abi;
  OpBuilder b;
  Location loc;
  Type i1, i32, i64, ptr;
};

struct EmitABIPass : onnxq::impl::EmitABIPassBase<EmitABIPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ModelABI> abi = readModelABI(module);
    if (failed(abi))
      return signalPassFailure();
    auto graph = module.lookupSymbol<LLVM::LLVMFuncOp>(abi->function);
    if (!graph) {
      module.emitError() << "no lowered graph function '" << abi->function << "'";
      return signalPassFailure();
    }
    // LLVM IR has no place for the ONNX names kept on the graph's arguments.
    graph.removeArgAttrsAttr();
    graph.removeResAttrsAttr();
    // Inputs, outputs and the workspace never overlap (the ABI says so):
    // this lets LLVM keep accumulators in registers and vectorize.
    for (unsigned i = 0; i < graph.getNumArguments(); ++i)
      graph.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                       UnitAttr::get(module.getContext()));
    // Only the ABI is exported: two models never clash on other symbols.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (!func.isExternal())
        func.setLinkage(LLVM::Linkage::Internal);
    for (auto global : module.getOps<LLVM::GlobalOp>())
      global.setLinkage(LLVM::Linkage::Internal);

    ABIBuilder builder(module, *abi);
    if (auto ready = module.lookupSymbol<LLVM::LLVMFuncOp>(kAMXReadyFunction);
        ready && ready.isExternal())
      builder.defineAMXReady(ready);
    if (auto init = module.lookupSymbol<LLVM::LLVMFuncOp>(kInitConstantsFunction);
        init && !init.isExternal())
      builder.guardInitConstants(init);
    Type i32 = IntegerType::get(module.getContext(), 32);
    Type i64 = IntegerType::get(module.getContext(), 64);
    builder.emitConstant("num_inputs", i32, abi->inputs.size());
    builder.emitConstant("num_outputs", i32, abi->outputs.size());
    builder.emitConstant("workspace_size", i64, abi->workspaceSize);
    // No scratch per thread (yet): every thread count needs the same.
    builder.emitConstant("workspace_size_parallel", i64, abi->workspaceSize, {i32});
    builder.emitSizes("input_size", abi->inputs);
    builder.emitSizes("output_size", abi->outputs);
    if (failed(builder.emitRun(graph, /*parallel=*/false)) ||
        failed(builder.emitRun(graph, /*parallel=*/true)))
      return signalPassFailure();
  }
};
} // namespace
