//===- Outlining.cpp - moving code into a function of its own -------------===//

#include "Outlining.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::onnxq;

bool mlir::onnxq::isRematerializable(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

bool mlir::onnxq::isScratch(Operation *op) {
  auto alloca = dyn_cast<memref::AllocaOp>(op);
  return alloca && alloca.getType().hasStaticShape() &&
         alloca->hasAttr(kScratchAttrName);
}

FailureOr<OutlinedInputs>
mlir::onnxq::collectOutlinedInputs(ArrayRef<Operation *> ops, Block &scope) {
  auto isMoved = [&](Operation *op) {
    Operation *top = scope.findAncestorOpInBlock(*op);
    return top && llvm::is_contained(ops, top);
  };
  llvm::SetVector<BlockArgument> arguments;
  llvm::SetVector<Operation *> rematerialized;
  SmallVector<Value> worklist;
  for (Operation *top : ops)
    top->walk([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def ? !isMoved(def)
                : cast<BlockArgument>(operand).getOwner() == &scope)
          worklist.push_back(operand);
      }
    });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != &scope)
        return failure();
      arguments.insert(arg);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != &scope || !(isRematerializable(def) || isScratch(def)))
      return failure();
    if (rematerialized.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  OutlinedInputs inputs;
  inputs.arguments.assign(arguments.begin(), arguments.end());
  llvm::sort(inputs.arguments, [](BlockArgument a, BlockArgument b) {
    return a.getArgNumber() < b.getArgNumber();
  });
  inputs.rematerialized.assign(rematerialized.begin(), rematerialized.end());
  llvm::sort(inputs.rematerialized, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return inputs;
}

void mlir::onnxq::cloneInputs(OpBuilder &b, const OutlinedInputs &inputs,
                              ValueRange arguments, IRMapping &mapping) {
  mapping.map(inputs.arguments, arguments);
  for (Operation *op : inputs.rematerialized)
    b.clone(*op, mapping);
}
