//===- ObservingModel.cpp - run a graph and read its tensors --------------===//

#include "onnx-quant/Execution/ObservingModel.h"

#include "JITModel.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <utility>

using namespace mlir;
using namespace mlir::onnxq;

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

std::vector<ObservedTensor>
mlir::onnxq::collectObservedTensors(func::FuncOp func) {
  std::vector<ObservedTensor> tensors;
  llvm::StringSet<> used;
  auto add = [&](Value value, std::string name) {
    std::string unique = name;
    for (int i = 1; !used.insert(unique).second; ++i)
      unique = name + "_" + std::to_string(i);
    tensors.push_back({value, unique});
  };
  for (BlockArgument arg : func.getArguments()) {
    if (!isFloatTensor(arg.getType()))
      continue;
    StringRef name = getInputName(func, arg.getArgNumber());
    add(arg, !name.empty() ? name.str()
                           : "input" + std::to_string(arg.getArgNumber()));
  }
  int unnamed = 0;
  // Results computed from constants only are weights (a Reshape of one, say),
  // not activations: --onnx-simplify folds them.
  DenseSet<Operation *> constantDerived;
  std::vector<ObservedTensor> results; // named after their node, for now
  func.walk([&](Operation *op) {
    if (!isa_and_nonnull<ONNXDialect>(op->getDialect()))
      return;
    if (isa<ConstantOp>(op) ||
        (op->getNumOperands() > 0 &&
         llvm::all_of(op->getOperands(), [&](Value v) {
           Operation *def = v.getDefiningOp();
           return def && constantDerived.contains(def);
         }))) {
      constantDerived.insert(op);
      return;
    }
    StringRef name = getNodeName(op);
    std::string node = !name.empty() ? name.str()
                                     : (op->getName().stripDialect() + "_" +
                                        Twine(unnamed++)).str();
    for (OpResult result : op->getResults())
      if (isFloatTensor(result.getType()))
        results.push_back(
            {result, op->getNumResults() == 1
                         ? node
                         : node + ":" + std::to_string(result.getResultNumber())});
  });
  // A node the importer expands into several ops (Softmax before opset 13:
  // Reshape, Softmax, Reshape) gives its name to the last one, which computes
  // the node's ONNX output; the earlier ones are NODE_1, NODE_2, ... in order.
  llvm::StringMap<unsigned> total, seen;
  for (const ObservedTensor &tensor : results)
    ++total[tensor.name];
  for (ObservedTensor &tensor : results) {
    unsigned k = ++seen[tensor.name];
    add(tensor.value, k == total[tensor.name]
                          ? tensor.name
                          : tensor.name + "_" + std::to_string(k));
  }
  return tensors;
}

namespace {

/// The external function observed tensor `k` is handed to.
std::string getObserverName(size_t k) {
  return "onnxq_observe_" + std::to_string(k);
}

/// A copy of `module` in which every observed tensor, as soon as it is
/// computed, is passed (as f32) to `onnxq_observe_<k>(k, tensor)`. Bufferized
/// and lowered, that is a call with a pointer into the workspace: the host
/// reads the tensor in place while it is still in cache, instead of the model
/// copying every observed tensor into an output buffer.
OwningOpRef<ModuleOp> instrument(ModuleOp module, func::FuncOp func,
                                 ArrayRef<ObservedTensor> observed) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone(mapping));
  OpBuilder builder(copy->getContext());
  Type i64 = builder.getI64Type(), f32 = builder.getF32Type();
  for (auto [k, tensor] : llvm::enumerate(observed)) {
    Value value = mapping.lookup(tensor.value);
    Location loc = value.getLoc();
    if (auto arg = dyn_cast<BlockArgument>(value))
      builder.setInsertionPointToStart(arg.getOwner());
    else
      builder.setInsertionPointAfter(value.getDefiningOp());
    auto type = cast<RankedTensorType>(value.getType());
    if (!type.getElementType().isF32()) {
      type = type.clone(f32);
      value = CastOp::create(builder, loc, type, value,
                             int64_t(ONNXDataType::Float));
    }
    Value index = arith::ConstantIntOp::create(builder, loc, i64, int64_t(k));
    std::string name = getObserverName(k);
    func::CallOp::create(builder, loc, name, TypeRange{},
                         ValueRange{index, value});

    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(copy->getBody());
    auto observer = func::FuncOp::create(
        builder, loc, name, builder.getFunctionType({i64, type}, {}));
    observer.setPrivate();
    // Only read: bufferization passes the tensor's buffer without a copy.
    observer.setArgAttr(1, bufferization::BufferizationDialect::kBufferAccessAttrName,
                        builder.getStringAttr("read"));
  }
  return copy;
}

} // namespace

//===----------------------------------------------------------------------===//
// ObservingModel
//===----------------------------------------------------------------------===//

namespace {
/// The run in progress on this thread: where the generated code's observer
/// calls go.
struct ActiveRun {
  ArrayRef<int64_t> sizes;
  ObservingModel::Observer observe;
};
thread_local const ActiveRun *activeRun = nullptr;

/// Every `onnxq_observe_<k>` resolves to this function.
void observeTensor(int64_t k, const float *data) {
  activeRun->observe(size_t(k), ArrayRef(data, size_t(activeRun->sizes[k])));
}
} // namespace

ObservingModel::ObservingModel() = default;
ObservingModel::~ObservingModel() = default;

FailureOr<std::unique_ptr<ObservingModel>>
ObservingModel::compile(ModuleOp module, func::FuncOp func,
                        ArrayRef<ObservedTensor> observed, StringRef entry,
                        Location loc) {
  std::unique_ptr<ObservingModel> result(new ObservingModel());
  std::vector<std::pair<std::string, void *>> symbols;
  for (auto [k, tensor] : llvm::enumerate(observed)) {
    result->sizes.push_back(
        cast<RankedTensorType>(tensor.value.getType()).getNumElements());
    symbols.push_back(
        {getObserverName(k), reinterpret_cast<void *>(&observeTensor)});
  }
  FailureOr<std::unique_ptr<JITModel>> model = JITModel::compile(
      instrument(module, func, observed), entry, symbols, loc);
  if (failed(model))
    return failure();
  result->model = std::move(*model);
  result->outputs = allocateBuffers(result->getABI().outputs);
  for (std::vector<char> &buffer : result->outputs)
    result->outputPtrs.push_back(buffer.data());
  return result;
}

const ModelABI &ObservingModel::getABI() const { return model->getABI(); }

int ObservingModel::run(ArrayRef<const void *> inputs, Observer observe) {
  ActiveRun run{sizes, observe};
  const ActiveRun *outer = std::exchange(activeRun, &run);
  int status = model->run(inputs, outputPtrs);
  activeRun = outer;
  return status;
}

int ObservingModel::run(ArrayRef<const void *> inputs) {
  kept.resize(sizes.size());
  return run(inputs, [&](size_t k, ArrayRef<float> values) {
    kept[k].assign(values.begin(), values.end());
  });
}

