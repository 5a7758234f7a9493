//===- ModelLoader.h - read, validate and shape-infer a model ---*- C++ -*-===//

#ifndef ONNXQUANT_LIB_IMPORT_MODELLOADER_H
#define ONNXQUANT_LIB_IMPORT_MODELLOADER_H

#include "onnx-quant/Import/ONNXImporter.h"

#include "onnx/onnx_pb.h"

namespace mlir::onnxq {

/// Parses `data`, the contents of the model file `path` (whose extension
/// says the format, and whose folder holds external data), into `model`,
/// checks that every node is an op the dialect has, fixes dynamic
/// graph-input dimensions, then runs the ONNX checker and shape inference
/// when libonnx knows the model's opset and IR version (the importer's own
/// checks and shape rules stand for them otherwise). Reports errors at
/// `fileLoc` and returns failure.
LogicalResult loadModel(MLIRContext *context, StringRef data, StringRef path,
                        Location fileLoc, const ImportOptions &options,
                        ONNX_NAMESPACE::ModelProto &model);

/// The ai.onnx opset the model imports (0 when it declares none).
int64_t getDefaultDomainOpset(const ONNX_NAMESPACE::ModelProto &model);

/// The name used for a node in diagnostics and locations: its own name, or
/// `<op_type>_<index>` when it has none.
std::string getNodeName(const ONNX_NAMESPACE::NodeProto &node, int index);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_IMPORT_MODELLOADER_H
