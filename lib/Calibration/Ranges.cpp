//===- Ranges.cpp - activation ranges on the IR and in JSON ---------------===//

#include "onnx-quant/Calibration/Ranges.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

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
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "onnx.name");
    add(arg, name ? name.str() : "input" + std::to_string(arg.getArgNumber()));
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
    auto nameLoc = dyn_cast<NameLoc>(op->getLoc());
    std::string node = nameLoc ? nameLoc.getName().str()
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

std::optional<std::pair<float, float>> mlir::onnxq::getAnnotatedRange(Value value) {
  DenseF32ArrayAttr range;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (func)
      range = func.getArgAttrOfType<DenseF32ArrayAttr>(arg.getArgNumber(),
                                                       kArgRangeAttrName);
  } else {
    auto result = cast<OpResult>(value);
    auto ranges = result.getOwner()->getAttrOfType<ArrayAttr>(kRangesAttrName);
    if (ranges && result.getResultNumber() < ranges.size())
      range = dyn_cast<DenseF32ArrayAttr>(ranges[result.getResultNumber()]);
  }
  if (!range || range.size() != 2)
    return std::nullopt;
  return std::pair(range[0], range[1]);
}

void mlir::onnxq::setAnnotatedRange(Value value, float min, float max) {
  MLIRContext *context = value.getContext();
  auto range = DenseF32ArrayAttr::get(context, {min, max});
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    func.setArgAttr(arg.getArgNumber(), kArgRangeAttrName, range);
    return;
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  SmallVector<Attribute> ranges(op->getNumResults(),
                                DenseF32ArrayAttr::get(context, {}));
  if (auto old = op->getAttrOfType<ArrayAttr>(kRangesAttrName))
    for (auto [i, attr] : llvm::enumerate(old.getValue()))
      if (i < ranges.size())
        ranges[i] = attr;
  ranges[result.getResultNumber()] = range;
  op->setAttr(kRangesAttrName, ArrayAttr::get(context, ranges));
}

void mlir::onnxq::writeRangesJSON(
    llvm::raw_ostream &os,
    ArrayRef<std::pair<std::string, TensorRange>> table) {
  llvm::json::Object tensors;
  for (const auto &[name, range] : table)
    tensors[name] = llvm::json::Object{{"min", double(range.min)},
                                       {"max", double(range.max)},
                                       {"method", range.method},
                                       {"samples", range.samples}};
  llvm::json::Value root = llvm::json::Object{
      {"format", "onnx-quant ranges 1"}, {"tensors", std::move(tensors)}};
  os << llvm::formatv("{0:2}", root) << "\n";
}

FailureOr<std::vector<std::pair<std::string, TensorRange>>>
mlir::onnxq::readRangesJSON(StringRef path, Location loc) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return emitError(loc) << "cannot read ranges file '" << path
                          << "': " << file.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return emitError(loc) << "ranges file '" << path << "' is not valid JSON: "
                          << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *tensors = root ? root->getObject("tensors") : nullptr;
  if (!tensors)
    return emitError(loc) << "ranges file '" << path
                          << "' has no \"tensors\" object";
  std::vector<std::pair<std::string, TensorRange>> table;
  for (const auto &[key, value] : *tensors) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<double> min = entry ? entry->getNumber("min") : std::nullopt;
    std::optional<double> max = entry ? entry->getNumber("max") : std::nullopt;
    if (!min || !max || !std::isfinite(*min) || !std::isfinite(*max) ||
        *min > *max)
      return emitError(loc) << "ranges file '" << path << "': tensor '"
                            << key.str()
                            << "' needs finite \"min\" <= \"max\"";
    TensorRange range;
    range.min = float(*min);
    range.max = float(*max);
    if (auto method = entry->getString("method"))
      range.method = method->str();
    if (auto samples = entry->getInteger("samples"))
      range.samples = *samples;
    table.push_back({key.str(), range});
  }
  llvm::sort(table, [](auto &a, auto &b) { return a.first < b.first; });
  return table;
}
