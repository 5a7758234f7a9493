//===- ONNXImporter.h - ONNX model to onnx dialect --------------*- C++ -*-===//
//
// Public entry point of the importer. The protobuf types stay behind this
// header: the rest of the compiler sees MLIR only.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_IMPORT_ONNXIMPORTER_H
#define ONNXQUANT_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace mlir::onnxq {

struct ImportOptions {
  /// Static shapes for graph inputs, by input name. An input missing here
  /// with a dynamic first dimension gets batch 1 (with a remark); any other
  /// dynamic dimension is an error.
  llvm::StringMap<SmallVector<int64_t>> inputShapes;
  /// Initializers of more bytes than this become `dense_resource` blobs.
  size_t resourceThresholdBytes = 1024;
  /// Name of the function holding the graph.
  std::string functionName = "main_graph";
  /// When set, receives the value each ONNX tensor name of the graph became
  /// (graph inputs, node outputs, initializers that are read), for tools
  /// that match tensors by name (onnx-quant-debug). Values of ops later
  /// passes replace are not updated.
  llvm::StringMap<Value> *tensorValues = nullptr;
};

/// Imports the model at `path`: binary protobuf, ONNX text syntax
/// (`.onnxtext`) or protobuf text format (`.textproto`, `.pbtxt`). Emits
/// diagnostics and returns null on failure.
OwningOpRef<ModuleOp> importONNXFile(MLIRContext *context, StringRef path,
                                     const ImportOptions &options);

/// Imports a model held in memory: `data` in the format the extension of
/// `path` names, as if read from `path` (which names it in locations and
/// whose folder holds its external data).
OwningOpRef<ModuleOp> importONNXModel(MLIRContext *context, StringRef data,
                                      StringRef path,
                                      const ImportOptions &options);

/// Parses `--input-shape` values `name:1x3x224x224` into `shapes`; returns an
/// error message on bad syntax.
std::optional<std::string>
parseInputShapes(ArrayRef<std::string> specs,
                 llvm::StringMap<SmallVector<int64_t>> &shapes);

/// The oldest and newest ai.onnx opsets the importer accepts.
constexpr int64_t kMinSupportedOpset = 7;
constexpr int64_t kMaxSupportedOpset = 22;

/// The (op type, domain) pairs without a dialect op that the importer
/// expands into dialect ops (com.microsoft's MatMulNBits).
ArrayRef<std::pair<StringRef, StringRef>> getImportExpansions();

} // namespace mlir::onnxq

#endif // ONNXQUANT_IMPORT_ONNXIMPORTER_H
