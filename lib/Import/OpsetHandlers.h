//===- OpsetHandlers.h - ONNX node forms to the dialect's form --*- C++ -*-===//
//
// The dialect has the semantics of opset 17 (kDialectOpset). A node of
// another opset whose op changed since is rewritten into the dialect's form
// by a handler, which then builds the op: older forms in OlderOpsets.cpp
// (attributes that later became inputs), newer ones in NewerOpsets.cpp
// (inputs that used to be attributes, new attributes at their defaults).
// lookupOpsetHandler's table says which opsets each handler covers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_IMPORT_OPSETHANDLERS_H
#define ONNXQUANT_LIB_IMPORT_OPSETHANDLERS_H

#include "GraphImporter.h"

namespace mlir::onnxq {

//===----------------------------------------------------------------------===//
// Helpers for handlers
//===----------------------------------------------------------------------===//

/// Removes attribute `name` from the node and returns its integers.
std::optional<SmallVector<int64_t>> takeInts(ImportedNode &node,
                                             StringRef name);
std::optional<double> takeFloat(ImportedNode &node, StringRef name);
std::optional<int64_t> takeInt(ImportedNode &node, StringRef name);
std::optional<StringRef> takeString(ImportedNode &node, StringRef name);
/// The node's input at `slot`, or null when absent.
Value getInput(const ImportedNode &node, size_t slot);
/// Sets input slot `slot` (growing the operand list with absent inputs).
void setInput(ImportedNode &node, size_t slot, Value value);
/// Moves an INTS attribute into input slot `slot` as a 1-D i64 constant.
void intsToInput(GraphImporter &importer, ImportedNode &node, StringRef name,
                 size_t slot);
/// The element type of input 0.
Type getDataElementType(const ImportedNode &node);

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

#define ONNXQ_OPSET_HANDLER(name)                                              \
  LogicalResult name(GraphImporter &importer, ImportedNode &node,              \
                     SmallVectorImpl<Value> &results)

// Every opset.
ONNXQ_OPSET_HANDLER(importCast);
ONNXQ_OPSET_HANDLER(importConstant);

// Older forms.
ONNXQ_OPSET_HANDLER(importAxesAttr);
ONNXQ_OPSET_HANDLER(importBatchNorm9);
ONNXQ_OPSET_HANDLER(importClip6);
ONNXQ_OPSET_HANDLER(importDropout7);
ONNXQ_OPSET_HANDLER(importPad2);
ONNXQ_OPSET_HANDLER(importPRelu7);
ONNXQ_OPSET_HANDLER(importResize10);
ONNXQ_OPSET_HANDLER(importSlice1);
ONNXQ_OPSET_HANDLER(importSoftmax11);
ONNXQ_OPSET_HANDLER(importSplit11);
ONNXQ_OPSET_HANDLER(importTopK1);

// com.microsoft ops the dialect spells with its own (MicrosoftExpansions.cpp).
ONNXQ_OPSET_HANDLER(importMatMulNBits);

// Newer forms.
ONNXQ_OPSET_HANDLER(importPad18);
ONNXQ_OPSET_HANDLER(importQuantizeLinear19);
ONNXQ_OPSET_HANDLER(importReduce18);
ONNXQ_OPSET_HANDLER(importGroupNormalization18);
ONNXQ_OPSET_HANDLER(importReduceSum13);
ONNXQ_OPSET_HANDLER(importResize11);
ONNXQ_OPSET_HANDLER(importResize18);
ONNXQ_OPSET_HANDLER(importSplit18);

#undef ONNXQ_OPSET_HANDLER

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_IMPORT_OPSETHANDLERS_H
