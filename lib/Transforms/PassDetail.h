//===- PassDetail.h - shared by the graph passes ----------------*- C++ -*-===//

#ifndef ONNXQUANT_LIB_TRANSFORMS_PASSDETAIL_H
#define ONNXQUANT_LIB_TRANSFORMS_PASSDETAIL_H

#include "onnx-quant/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::onnxq {
/// The ONNX node name of `op` (its NameLoc, as the importer sets it), or "".
StringRef getNodeName(Operation *op);

/// Fails with an error on `root` naming `option` when one of `names` is not
/// the name of a node under `root`, listing near matches.
LogicalResult checkNodeNamesExist(Operation *root, ArrayRef<std::string> names,
                                  StringRef option);
} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_TRANSFORMS_PASSDETAIL_H
