//===- BufferUses.h - a buffer and its views ----------------*- C++ -*-===//

#ifndef ONNXQUANT_LIB_CODEGEN_BUFFERUSES_H
#define ONNXQUANT_LIB_CODEGEN_BUFFERUSES_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::onnxq {

/// The value `value` is a view of (through any number of views), or itself.
inline Value getAllocation(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// The ops that use `buffer`, directly or through views of it (one entry
/// per use), and, if asked, those views, each before the views of it.
inline void collectBufferUses(Value buffer, SmallVectorImpl<Operation *> &users,
                              SmallVectorImpl<Operation *> *views = nullptr) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    if (!view || view.getViewSource() != buffer) {
      users.push_back(user);
      continue;
    }
    if (views)
      views->push_back(user);
    for (Value result : user->getResults())
      collectBufferUses(result, users, views);
  }
}

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_BUFFERUSES_H
