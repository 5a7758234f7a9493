//===- PlanWorkspace.cpp - one workspace for all intermediate buffers -----===//
//
// Every static allocation of the graph function becomes a view into a single
// workspace argument. Two buffers share bytes only when their live ranges
// (first to last use, through views, in the function's op order) are
// disjoint. Placement is greedy, largest buffer first, at the lowest offset
// that fits (the arena planners of TFLite and ONNX Runtime do the same).
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"


#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_PLANWORKSPACEPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr int64_t kAlignment = 64;
/// Above this the workspace is refused rather than risk offsets wrapping.
constexpr int64_t kMaxWorkspaceBytes = int64_t(1) << 62;

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes, first, last;
  int64_t offset = 0;
};

int64_t alignUp(int64_t v) { return (v + kAlignment - 1) / kAlignment * kAlignment; }

/// Extends `buffer.last` over every use of the allocation and of the views
/// made of it; collects deallocations to erase.
void computeLiveRange(Buffer &buffer, Block &body,
                      const DenseMap<Operation *, int64_t> &position,
                      SmallVectorImpl<Operation *> &deallocs) {
  SmallVector<Value> worklist = {buffer.alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
        continue;
      }
      if (Operation *top = body.findAncestorOpInBlock(*user))
        buffer.last = std::max(buffer.last, position.lookup(top));
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value)
        worklist.append(user->result_begin(), user->result_end());
    }
  }
}

/// Lowest aligned offset where `buffer` overlaps no placed buffer that is
/// alive at the same time.
int64_t findOffset(const Buffer &buffer, ArrayRef<Buffer *> placed) {
  SmallVector<const Buffer *> conflicts;
  for (const Buffer *other : placed)
    if (other->first <= buffer.last && buffer.first <= other->last)
      conflicts.push_back(other);
  llvm::sort(conflicts, [](const Buffer *a, const Buffer *b) {
    return a->offset < b->offset;
  });
  int64_t offset = 0;
  for (const Buffer *other : conflicts) {
    if (offset + buffer.bytes <= other->offset)
      break;
    offset = std::max(offset, alignUp(other->offset + other->bytes));
  }
  return offset;
}

/// A function's static allocations and the offsets that place them.
struct Plan {
  func::FuncOp func;
  SmallVector<Buffer> buffers;
  SmallVector<Operation *> deallocs;
  int64_t size = 0;
};

/// Places the allocations of `func`'s body; errors name the allocation.
FailureOr<Plan> planFunction(func::FuncOp func) {
  Plan plan;
  plan.func = func;
  Block &body = func.getBody().front();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;

  int64_t totalBytes = 0;
  WalkResult walk = func.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (alloc->getBlock() != &body || !type.hasStaticShape() ||
        !type.getLayout().isIdentity()) {
      alloc.emitError("only static, identity-layout allocations at the top "
                      "of the graph function can be placed in the workspace");
      return WalkResult::interrupt();
    }
    // Offsets never exceed the sum of all sizes: bounded, no offset wraps.
    std::optional<int64_t> bytes = getTensorBytes(type);
    if (!bytes || (totalBytes += *bytes) > kMaxWorkspaceBytes) {
      alloc.emitError() << "the workspace would need more than 2^62 bytes "
                           "(a buffer of "
                        << type << " here); check the model's shapes";
      return WalkResult::interrupt();
    }
    Buffer buffer{alloc, *bytes, position.lookup(alloc), position.lookup(alloc)};
    computeLiveRange(buffer, body, position, plan.deallocs);
    plan.buffers.push_back(buffer);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  SmallVector<Buffer *> order;
  for (Buffer &b : plan.buffers)
    order.push_back(&b);
  // Largest first; ties in program order (deterministic offsets).
  llvm::sort(order, [](Buffer *a, Buffer *b) {
    return a->bytes != b->bytes ? a->bytes > b->bytes : a->first < b->first;
  });
  SmallVector<Buffer *> placed;
  for (Buffer *buffer : order) {
    buffer->offset = findOffset(*buffer, placed);
    plan.size = std::max(plan.size, alignUp(buffer->offset + buffer->bytes));
    placed.push_back(buffer);
  }
  return plan;
}

/// Gives `plan.func` the workspace argument and its allocations views of it.
FailureOr<Value> applyPlan(Plan &plan, MemRefType workspaceType) {
  func::FuncOp func = plan.func;
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, workspaceType, {}, func.getLoc())))
    return failure();
  Value workspace = func.getArgument(index);
  for (Operation *dealloc : plan.deallocs)
    dealloc->erase();
  OpBuilder b(func.getContext());
  for (Buffer &buffer : plan.buffers) {
    b.setInsertionPoint(buffer.alloc);
    Location loc = buffer.alloc.getLoc();
    Value offset = arith::ConstantIndexOp::create(b, loc, buffer.offset);
    Value view = memref::ViewOp::create(b, loc, buffer.alloc.getType(), workspace,
                                        offset, ValueRange{});
    buffer.alloc.replaceAllUsesWith(view);
    buffer.alloc.erase();
  }
  return workspace;
}

struct PlanWorkspacePass : onnxq::impl::PlanWorkspacePassBase<PlanWorkspacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ModelABI> abi = readModelABI(module);
    FailureOr<func::FuncOp> graph = lookupGraphFunction(module, "to plan the workspace of");
    if (failed(abi) || failed(graph))
      return signalPassFailure();
    SmallVector<Plan> plans;
    for (func::FuncOp func :
         {*graph, module.lookupSymbol<func::FuncOp>(kInitConstantsFunction)}) {
      if (!func)
        continue;
      FailureOr<Plan> plan = planFunction(func);
      if (failed(plan))
        return signalPassFailure();
      plans.push_back(std::move(*plan));
    }
    // The constants' function runs before the graph uses the workspace.
    int64_t size = 0;
    for (const Plan &plan : plans)
      size = std::max(size, plan.size);
    auto workspaceType = MemRefType::get({size}, IntegerType::get(&getContext(), 8));
    SmallVector<Value> workspaces;
    for (Plan &plan : plans) {
      FailureOr<Value> workspace = applyPlan(plan, workspaceType);
      if (failed(workspace))
        return signalPassFailure();
      workspaces.push_back(*workspace);
    }
    graph->walk([&](func::CallOp call) {
      if (call.getCallee() == kInitConstantsFunction)
        call->insertOperands(call->getNumOperands(), workspaces.front());
    });
    abi->workspaceSize = size;
    writeModelABI(module, *abi);
  }
};
} // namespace
