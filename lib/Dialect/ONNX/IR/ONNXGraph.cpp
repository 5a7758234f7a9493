//===- ONNXGraph.cpp - conventions of a graph in the onnx dialect ---------===//

#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

//===----------------------------------------------------------------------===//
// The graph and its names
//===----------------------------------------------------------------------===//

FailureOr<func::FuncOp> mlir::onnxq::getGraphFunction(ModuleOp module,
                                                     StringRef user) {
  // Declarations are functions the graph calls (calibration's observers).
  auto funcs = llvm::to_vector(llvm::make_filter_range(
      module.getOps<func::FuncOp>(), [](func::FuncOp f) { return !f.isExternal(); }));
  if (funcs.size() != 1) {
    InFlightDiagnostic error = module.emitError();
    if (!user.empty())
      error << user << " ";
    return error << "expects exactly one function (the graph), found "
                 << funcs.size();
  }
  return funcs.front();
}

StringRef mlir::onnxq::getNodeName(Location loc) {
  auto name = dyn_cast<NameLoc>(loc);
  return name ? name.getName().getValue() : StringRef();
}

std::optional<StringRef> mlir::onnxq::findNodeName(Location loc) {
  std::optional<StringRef> name;
  loc->walk([&](Location inner) {
    if (auto nameLoc = dyn_cast<NameLoc>(inner)) {
      name = nameLoc.getName().getValue();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

StringRef mlir::onnxq::getInputName(func::FuncOp graph, unsigned index) {
  auto name = graph.getArgAttrOfType<StringAttr>(index, kTensorNameAttrName);
  return name ? name.getValue() : StringRef();
}

StringRef mlir::onnxq::getOutputName(func::FuncOp graph, unsigned index) {
  auto name = graph.getResultAttrOfType<StringAttr>(index, kTensorNameAttrName);
  return name ? name.getValue() : StringRef();
}

LogicalResult mlir::onnxq::checkNodeNamesExist(Operation *root,
                                               ArrayRef<std::string> names,
                                               StringRef option) {
  // Node names. Constants carry their initializer's name: not nodes an option
  // can act on, but a name near one suggests the nodes that read it (an old
  // model's unnamed nodes are named 'Conv_0' on import; the user may know
  // them by their weights, 'conv1_w_0').
  llvm::StringSet<> known;
  llvm::StringMap<SmallVector<std::string>> readers;
  root->walk([&](Operation *op) {
    StringRef name = getNodeName(op);
    if (name.empty())
      return;
    if (!isa<ConstantOp>(op)) {
      known.insert(name);
      return;
    }
    for (Operation *user : op->getUsers())
      if (StringRef reader = getNodeName(user); !reader.empty())
        readers[name].push_back(reader.str());
  });
  for (const std::string &name : names) {
    if (known.contains(name))
      continue;
    // Near matches: small edit distance, or one name containing the other
    // (rank 0); then by name.
    auto rank = [&](StringRef candidate) -> std::optional<unsigned> {
      if (candidate.contains(name) || StringRef(name).contains(candidate))
        return 0;
      unsigned distance = StringRef(name).edit_distance(candidate, true, 8);
      if (distance <= std::max<size_t>(2, name.size() / 3))
        return distance;
      return std::nullopt;
    };
    // (rank, node, how it is shown); each node once, at its best rank.
    SmallVector<std::tuple<unsigned, std::string, std::string>> near;
    for (const auto &entry : known)
      if (std::optional<unsigned> r = rank(entry.getKey()))
        near.push_back({*r, entry.getKey().str(), ""});
    for (const auto &entry : readers)
      if (std::optional<unsigned> r = rank(entry.getKey()))
        for (const std::string &reader : entry.getValue())
          near.push_back({*r, reader, " (reads '" + entry.getKey().str() + "')"});
    llvm::sort(near);
    llvm::StringSet<> shown;
    SmallVector<std::string> suggestions;
    for (auto &[r, node, via] : near)
      if (shown.insert(node).second && suggestions.size() < 5)
        suggestions.push_back("'" + node + "'" + via);
    InFlightDiagnostic diag = root->emitError()
                              << option << ": no node named '" << name << "'";
    if (suggestions.empty())
      diag << " (and no similar name)";
    else
      diag << "; did you mean " << llvm::join(suggestions, ", ") << "?";
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Ranges and where they came from
//===----------------------------------------------------------------------===//

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

bool mlir::onnxq::hasAnnotatedRanges(func::FuncOp graph) {
  for (unsigned i = 0, e = graph.getNumArguments(); i < e; ++i)
    if (graph.getArgAttr(i, kArgRangeAttrName))
      return true;
  return graph
      .walk([](Operation *op) {
        return op->hasAttr(kRangesAttrName) ? WalkResult::interrupt()
                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

void mlir::onnxq::setCalibrationInfo(ModuleOp module,
                                     const CalibrationInfo &info) {
  Builder b(module.getContext());
  SmallVector<NamedAttribute> fields;
  if (!info.data.empty())
    fields.push_back(b.getNamedAttr("data", b.getStringAttr(info.data)));
  if (!info.file.empty())
    fields.push_back(b.getNamedAttr("file", b.getStringAttr(info.file)));
  fields.push_back(b.getNamedAttr("method", b.getStringAttr(info.method)));
  if (!info.preprocess.empty())
    fields.push_back(
        b.getNamedAttr("preprocess", b.getStringAttr(info.preprocess)));
  fields.push_back(b.getNamedAttr("samples", b.getI64IntegerAttr(info.samples)));
  module->setAttr(kCalibrationAttrName, b.getDictionaryAttr(fields));
}

std::optional<CalibrationInfo> mlir::onnxq::getCalibrationInfo(ModuleOp module) {
  auto dict = module->getAttrOfType<DictionaryAttr>(kCalibrationAttrName);
  if (!dict)
    return std::nullopt;
  CalibrationInfo info;
  auto str = [&](StringRef key) {
    auto value = dict.getAs<StringAttr>(key);
    return value ? value.str() : std::string();
  };
  info.method = str("method");
  info.data = str("data");
  info.preprocess = str("preprocess");
  info.file = str("file");
  if (auto samples = dict.getAs<IntegerAttr>("samples"))
    info.samples = samples.getInt();
  return info;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// A range: `array<f32: min, max>` with min <= max (or `array<f32>` where
/// `allowEmpty`).
static bool isValidRange(Attribute attr, bool allowEmpty) {
  auto range = dyn_cast<DenseF32ArrayAttr>(attr);
  if (!range)
    return false;
  if (range.empty())
    return allowEmpty;
  return range.size() == 2 && !std::isnan(range[0]) && !std::isnan(range[1]) &&
         range[0] <= range[1];
}

/// Whether `dict` has exactly the keys of `required` and some of `optional`,
/// each of the type `isValid` accepts.
static bool hasFields(DictionaryAttr dict,
                      ArrayRef<std::pair<StringRef, bool (*)(Attribute)>> required,
                      ArrayRef<std::pair<StringRef, bool (*)(Attribute)>> optional) {
  size_t found = 0;
  for (auto [key, isValid] : required) {
    Attribute value = dict.get(key);
    if (!value || !isValid(value))
      return false;
    ++found;
  }
  for (auto [key, isValid] : optional)
    if (Attribute value = dict.get(key)) {
      if (!isValid(value))
        return false;
      ++found;
    }
  return found == dict.size();
}

static bool isString(Attribute a) { return isa<StringAttr>(a); }
static bool isInteger(Attribute a) { return isa<IntegerAttr>(a); }
static bool isBool(Attribute a) { return isa<BoolAttr>(a); }

LogicalResult
mlir::onnxq::verifyGraphAttribute(Operation *op, NamedAttribute attr,
                                  std::optional<unsigned> argIndex,
                                  std::optional<unsigned> resultIndex) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto error = [&]() -> InFlightDiagnostic {
    InFlightDiagnostic diag = op->emitError() << "'" << name << "'";
    if (argIndex)
      diag << " of argument " << *argIndex;
    else if (resultIndex)
      diag << " of result " << *resultIndex;
    diag << " ";
    return diag;
  };
  bool onArgument = argIndex.has_value(), onResult = resultIndex.has_value();
  bool onOp = !onArgument && !onResult;

  if (name == kTensorNameAttrName) {
    if (onOp)
      return error() << "names a graph input or output: it belongs on a "
                        "function argument or result";
    if (!isa<StringAttr>(value))
      return error() << "must be a string";
    return success();
  }
  if (name == kArgRangeAttrName) {
    if (!onArgument)
      return error() << "belongs on a graph argument (op results use '"
                     << kRangesAttrName << "')";
    if (!isValidRange(value, /*allowEmpty=*/false))
      return error() << "must be array<f32: min, max> with min <= max";
    return success();
  }
  if (name == kRangesAttrName) {
    if (!onOp)
      return error() << "belongs on an op (graph arguments use '"
                     << kArgRangeAttrName << "')";
    auto ranges = dyn_cast<ArrayAttr>(value);
    if (!ranges || ranges.size() != op->getNumResults())
      return error() << "must be an array with one range per result ("
                     << op->getNumResults() << ")";
    for (Attribute range : ranges)
      if (!isValidRange(range, /*allowEmpty=*/true))
        return error() << "must hold array<f32: min, max> with min <= max, "
                          "or array<f32> for a result without a range";
    return success();
  }

  // Module records.
  auto dict = dyn_cast<DictionaryAttr>(value);
  bool onModule = onOp && isa<ModuleOp>(op);
  if (name == kCalibrationAttrName) {
    if (!onModule || !dict ||
        !hasFields(dict, {{"method", isString}, {"samples", isInteger}},
                   {{"data", isString},
                    {"preprocess", isString},
                    {"file", isString}}))
      return error() << "must be a module attribute {method: string, samples: "
                        "integer, and data, preprocess or file: string}";
    return success();
  }
  if (name == kQuantizationAttrName) {
    if (!onModule || !dict ||
        !hasFields(dict,
                   {{"activations", isString},
                    {"weights", isString},
                    {"per_channel", isBool}},
                   {{"mode", isString}, {"block_size", isInteger}, {"bits", isInteger}}))
      return error() << "must be a module attribute {activations: string, "
                        "weights: string, per_channel: bool, and mode: string, "
                        "block_size, bits: integer}";
    return success();
  }
  if (name == kABIAttrName) {
    if (!onModule || failed(parseModelABI(dict)))
      return error() << "must be a module attribute {entry, function, "
                        "inputs, outputs, workspace_size} (written by "
                        "--onnxq-record-abi)";
    return success();
  }
  return error() << "is not an attribute of the onnx dialect";
}
