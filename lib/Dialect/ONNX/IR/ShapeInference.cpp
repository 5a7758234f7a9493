//===- ShapeInference.cpp - result types from the ops' rules --------------===//

#include "onnx-quant/Dialect/ONNX/IR/ShapeInference.h"
#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace mlir;
using namespace mlir::onnxq;

#include "onnx-quant/Dialect/ONNX/IR/ShapeInferenceInterface.cpp.inc"

Type mlir::onnxq::meetTypes(Type declared, Type inferred) {
  auto a = dyn_cast<TensorType>(declared), b = dyn_cast<TensorType>(inferred);
  if (!a || !b)
    return declared == inferred ? declared : nullptr;
  if (a.getElementType() != b.getElementType())
    return nullptr;
  if (!b.hasRank())
    return a;
  if (!a.hasRank())
    return b;
  if (a.getRank() != b.getRank())
    return nullptr;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape())) {
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return nullptr;
    shape.push_back(ShapedType::isDynamic(x) ? y : x);
  }
  return RankedTensorType::get(shape, a.getElementType());
}

FailureOr<bool> mlir::onnxq::refineResultTypes(Operation *op) {
  auto rule = dyn_cast<ShapeInferenceOpInterface>(op);
  SmallVector<Type> inferred;
  if (!rule || failed(rule.inferResultTypes(inferred)) ||
      inferred.size() != op->getNumResults())
    return false;
  bool changed = false;
  for (auto [result, type] : llvm::zip(op->getResults(), inferred)) {
    Type refined = meetTypes(result.getType(), type);
    if (!refined)
      return op->emitOpError() << "result #" << result.getResultNumber()
                               << " is declared " << result.getType()
                               << " but its operands give " << type;
    if (refined != result.getType()) {
      result.setType(refined);
      changed = true;
    }
  }
  return changed;
}

bool mlir::onnxq::isShapeComputation(Operation *op) {
  if (!isa<ONNXDialect>(op->getDialect()) ||
      isa<QuantizeLinearOp, DequantizeLinearOp>(op))
    return false;
  // Float scalars too: Range's float bounds decide its length (the window
  // functions' expanded forms compute them from a size).
  return llvm::all_of(op->getResultTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor && tensor.getRank() == 0 &&
        isa<FloatType>(tensor.getElementType()))
      return true;
    auto element = tensor ? dyn_cast<IntegerType>(tensor.getElementType())
                          : nullptr;
    return element && element.isSignless() &&
           (element.getWidth() == 1 || element.getWidth() >= 32) &&
           tensor.hasStaticShape() && tensor.getNumElements() <= 64;
  });
}

SmallVector<Value> mlir::onnxq::foldShapeComputation(OpBuilder &builder,
                                                     Operation *op) {
  if (op->getNumResults() == 0 || isa<ConstantOp>(op) ||
      !isShapeComputation(op))
    return {};
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(op);
  SmallVector<Value> folded;
  if (failed(builder.tryFold(op, folded)) || folded.empty())
    return {};
  op->replaceAllUsesWith(folded);
  op->erase();
  return folded;
}

bool mlir::onnxq::eraseUnusedConstants(Block &block) {
  bool erased = false;
  for (Operation &op : llvm::make_early_inc_range(block))
    if (isa<ConstantOp>(op) && op.use_empty()) {
      op.erase();
      erased = true;
    }
  return erased;
}

FailureOr<bool> mlir::onnxq::inferShapes(func::FuncOp graph) {
  if (graph.isExternal())
    return false;
  OpBuilder builder(graph.getContext());
  bool changed = false;
  for (Block &block : graph.getBody()) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      FailureOr<bool> refined = refineResultTypes(&op);
      if (failed(refined))
        return failure();
      changed |= *refined;
      changed |= !foldShapeComputation(builder, &op).empty();
    }
    changed |= eraseUnusedConstants(block);
  }
  auto ret = dyn_cast<func::ReturnOp>(graph.getBody().back().getTerminator());
  if (ret && TypeRange(ret.getOperandTypes()) != graph.getResultTypes())
    graph.setType(FunctionType::get(graph.getContext(),
                                    graph.getArgumentTypes(),
                                    ret.getOperandTypes()));
  return changed;
}

static bool isStatic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return !isa<TensorType>(type) || (tensor && tensor.hasStaticShape());
}

SmallVector<std::string> mlir::onnxq::getGraphInputsFeeding(Value value) {
  SmallVector<Value> work{value};
  DenseSet<Value> seen;
  std::set<std::pair<unsigned, std::string>> inputs;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second || getConstantValue(v))
      continue;
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg) {
      llvm::append_range(work, v.getDefiningOp()->getOperands());
      continue;
    }
    // The importer names arguments by location before it sets the
    // onnx.name attributes.
    auto graph = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    StringAttr name =
        graph ? graph.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                   kTensorNameAttrName)
              : nullptr;
    if (auto loc = dyn_cast<NameLoc>(arg.getLoc()); !name && loc)
      name = loc.getName();
    inputs.emplace(arg.getArgNumber(),
                   name ? name.str() : "#" + std::to_string(arg.getArgNumber()));
  }
  SmallVector<std::string> names;
  for (const auto &input : inputs)
    names.push_back(input.second);
  return names;
}

LogicalResult mlir::onnxq::verifyStaticShapes(func::FuncOp graph) {
  if (graph.isExternal())
    return success();
  for (BlockArgument arg : graph.getArguments()) {
    if (isStatic(arg.getType()))
      continue;
    auto name = graph.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                   kTensorNameAttrName);
    std::string input = name ? name.str() : "#" + std::to_string(arg.getArgNumber());
    return emitError(arg.getLoc())
           << "graph input '" << input << "' has the dynamic type "
           << arg.getType() << "; give its shape with --input-shape=" << input
           << ":<d0>x<d1>x...";
  }
  WalkResult walk = graph.walk([&](Operation *op) {
    if (llvm::all_of(op->getResultTypes(), isStatic) ||
        !llvm::all_of(op->getOperandTypes(), isStatic))
      return WalkResult::advance();
    Value dynamic = *llvm::find_if(op->getResults(), [](Value v) {
      return !isStatic(v.getType());
    });
    InFlightDiagnostic error = op->emitError()
        << op->getName() << " result #"
        << cast<OpResult>(dynamic).getResultNumber() << " ("
        << dynamic.getType() << ") has no static shape although every input "
        << "has one: ";
    // Shapes come from integer operands, and from every operand of Range.
    auto unknown = llvm::find_if(op->getOpOperands(), [&](OpOperand &operand) {
      Value v = operand.get();
      return !getConstantValue(v) &&
             (isa<RangeOp>(op) ||
              isa<IntegerType>(getElementTypeOrSelf(v.getType())));
    });
    if (unknown != op->getOpOperands().end()) {
      error << "it depends on the run-time value of input #"
            << unknown->getOperandNumber();
      SmallVector<std::string> inputs = getGraphInputsFeeding(unknown->get());
      if (!inputs.empty())
        error << ", computed from graph input"
              << (inputs.size() > 1 ? "s '" : " '")
              << llvm::join(inputs, "', '") << "'";
      error << "; native code needs it computed from shapes and constants";
    }
    else
      error << "its shape rule does not determine it";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}
