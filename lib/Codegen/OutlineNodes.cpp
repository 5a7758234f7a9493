//===- OutlineNodes.cpp - one function per graph node ---------------------===//
//
// LLVM optimizes a function at a time, and ScalarEvolution's guard search
// (IndVarSimplify, LoopRotate) walks back over every loop before the one it
// looks at: on one function holding the whole graph that is quadratic in the
// number of layers (40 % of SqueezeNet's -O3 time). One function per node
// keeps it linear, lets MLIR run the function passes that follow in parallel,
// and names each layer's machine code after its ONNX node in profiles.
//
//===----------------------------------------------------------------------===//

#include "Outlining.h"

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"


#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_OUTLINENODESPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// `<graph>_<node>`, made a C identifier.
std::string getFunctionName(StringRef graph, Location loc, unsigned index) {
  std::optional<StringRef> node = findNodeName(loc);
  return makeCIdentifier(graph.str() + "_" +
                         (node ? node->str() : "node" + std::to_string(index)));
}

/// The call that computes the hoisted constants (onnxq-hoist-constants):
/// a function already, not a node.
bool isInitConstantsCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && call.getCallee() == kInitConstantsFunction;
}

/// Consecutive ops of one node (same location) that do the work, and the
/// graph arguments and views/constants they need.
struct NodeGroup {
  SmallVector<Operation *> ops;
  OutlinedInputs inputs;
};

class NodeOutliner {
public:
  NodeOutliner(func::FuncOp graph, SymbolTable &symbols)
      : graph(graph), symbols(symbols), body(graph.getBody().front()) {}

  void run() {
    SmallVector<NodeGroup> groups = collectGroups();
    for (auto [i, group] : llvm::enumerate(groups))
      if (succeeded(collectInputs(group)))
        outline(group, i);
    // Views and constants only the outlined nodes used.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (isRematerializable(&op) && op.use_empty())
        op.erase();
  }

private:
  SmallVector<NodeGroup> collectGroups() {
    SmallVector<NodeGroup> groups;
    for (Operation &op : body.without_terminator()) {
      if (isRematerializable(&op) || isInitConstantsCall(&op))
        continue;
      if (groups.empty() || groups.back().ops.front()->getLoc() != op.getLoc())
        groups.emplace_back();
      groups.back().ops.push_back(&op);
    }
    return groups;
  }

  /// What the group needs from the graph. Fails when it needs anything but
  /// arguments, views and constants, or its results are used elsewhere (the
  /// group then stays in the graph).
  LogicalResult collectInputs(NodeGroup &group) {
    for (Operation *top : group.ops)
      for (Value result : top->getResults())
        for (Operation *user : result.getUsers())
          if (!llvm::is_contained(group.ops, body.findAncestorOpInBlock(*user)))
            return failure();
    FailureOr<OutlinedInputs> inputs = collectOutlinedInputs(group.ops, body);
    if (failed(inputs))
      return failure();
    group.inputs = std::move(*inputs);
    return success();
  }

  void outline(const NodeGroup &group, unsigned index) {
    MLIRContext *context = graph.getContext();
    Location loc = group.ops.front()->getLoc();
    SmallVector<Type> types;
    for (BlockArgument arg : group.inputs.arguments)
      types.push_back(arg.getType());
    OpBuilder b(context);
    auto node = func::FuncOp::create(
        b, loc, getFunctionName(graph.getName(), loc, index),
        b.getFunctionType(types, {}));
    node.setPrivate();
    // LLVM would inline a function called once, and undo the point.
    node->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
    // Distinct graph buffers (the ABI's promise), as on the graph itself.
    for (unsigned i = 0; i < types.size(); ++i)
      if (isa<MemRefType>(types[i]))
        node.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                        b.getUnitAttr());
    symbols.insert(node, Block::iterator(graph));

    Block *entry = node.addEntryBlock();
    IRMapping mapping;
    b.setInsertionPointToStart(entry);
    cloneInputs(b, group.inputs, entry->getArguments(), mapping);
    for (Operation *op : group.ops)
      b.clone(*op, mapping);
    func::ReturnOp::create(b, loc);

    b.setInsertionPoint(group.ops.front());
    SmallVector<Value> operands(group.inputs.arguments.begin(),
                                group.inputs.arguments.end());
    func::CallOp::create(b, loc, node, operands);
    for (Operation *op : llvm::reverse(group.ops))
      op->erase();
  }

  func::FuncOp graph;
  SymbolTable &symbols;
  Block &body;
};

struct OutlineNodesPass : onnxq::impl::OutlineNodesPassBase<OutlineNodesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> found = lookupGraphFunction(module, "to outline nodes from");
    if (failed(found))
      return signalPassFailure();
    func::FuncOp graph = *found;
    if (!graph.getBody().hasOneBlock())
      return; // not the straight-line graph the pipeline makes: leave it
    SymbolTable symbols(module);
    NodeOutliner(graph, symbols).run();
  }
};
} // namespace
