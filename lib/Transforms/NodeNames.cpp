//===- NodeNames.cpp - ONNX node names on the IR --------------------------===//

#include "PassDetail.h"

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
  llvm::StringSet<> known;
  root->walk([&](Operation *op) {
    if (StringRef name = getNodeName(op); !name.empty())
      known.insert(name);
  });
  for (const std::string &name : names) {
    if (known.contains(name))
      continue;
    // Near matches: small edit distance, or one name containing the other.
    SmallVector<std::pair<unsigned, StringRef>> near;
    for (const auto &entry : known) {
      StringRef candidate = entry.getKey();
      unsigned distance = StringRef(name).edit_distance(candidate, true, 8);
      bool contains = candidate.contains(name) || StringRef(name).contains(candidate);
      if (distance <= std::max<size_t>(2, name.size() / 3) || contains)
        near.push_back({contains ? 0 : distance, candidate});
    }
    llvm::sort(near);
    InFlightDiagnostic diag = root->emitError()
                              << option << ": no node named '" << name << "'";
    if (near.empty()) {
      diag << " (and no similar name)";
    } else {
      diag << "; did you mean ";
      for (auto [i, match] : llvm::enumerate(ArrayRef(near).take_front(5)))
        diag << (i ? ", '" : "'") << match.second << "'";
      diag << "?";
    }
    return failure();
  }
  return success();
}
