//===- TensorImporter.h - ONNX tensors and types to MLIR --------*- C++ -*-===//

#ifndef ONNXQUANT_LIB_IMPORT_TENSORIMPORTER_H
#define ONNXQUANT_LIB_IMPORT_TENSORIMPORTER_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

#include "onnx/onnx_pb.h"

namespace mlir::onnxq {

/// Converts a TensorProto (raw, typed or external data) into an elements
/// attribute. Data larger than `resourceThresholdBytes` becomes a
/// `dense_resource` blob: the bytes are copied exactly once, from the
/// protobuf (or the external file) into the blob. External data paths are
/// relative to `modelDir`.
FailureOr<ElementsAttr> importTensor(const ONNX_NAMESPACE::TensorProto &tensor,
                                     MLIRContext *context, StringRef modelDir,
                                     size_t resourceThresholdBytes,
                                     Location loc);

/// The file holding `tensor`'s external data, checked to lie inside
/// `modelDir` after resolving symlinks (absolute and `..` locations are
/// refused); errors name the tensor and the location.
FailureOr<std::string>
resolveExternalDataPath(const ONNX_NAMESPACE::TensorProto &tensor,
                        StringRef modelDir, Location loc);

/// Converts a tensor TypeProto: element type, and a shape when known (an
/// unknown dimension is dynamic, an unknown shape gives an unranked tensor).
/// Returns null for types the dialect does not represent.
TensorType importType(const ONNX_NAMESPACE::TypeProto &type,
                      MLIRContext *context);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_IMPORT_TENSORIMPORTER_H
