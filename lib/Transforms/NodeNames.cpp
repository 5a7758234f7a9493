//===- NodeNames.cpp - ONNX node names on the IR --------------------------===//

#include "PassDetail.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::onnxq;

StringRef mlir::onnxq::getNodeName(Operation *op) {
  auto name = dyn_cast<NameLoc>(op->getLoc());
  return name ? name.getName().getValue() : StringRef();
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
