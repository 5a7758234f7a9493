//===- NodeNames.h - ONNX node names on the IR ------------------*- C++ -*-===//

#ifndef ONNXQUANT_TRANSFORMS_NODENAMES_H
#define ONNXQUANT_TRANSFORMS_NODENAMES_H

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::onnxq {

/// The ONNX node name of `op` (its NameLoc, as the importer sets it), or "".
StringRef getNodeName(Operation *op);

/// Fails with an error on `root` naming `option` when one of `names` is not
/// the name of a node under `root` (constants, which carry initializer names,
/// do not count), listing near matches.
LogicalResult checkNodeNamesExist(Operation *root, ArrayRef<std::string> names,
                                  StringRef option);

} // namespace mlir::onnxq

#endif // ONNXQUANT_TRANSFORMS_NODENAMES_H
