//===- IsolatedConversion.h - libonnx's version converter, in a child ------===//
//
// libonnx's version converter and the shape inference it needs trust their
// input: malformed models crash them (found by tools/fuzz), which would take
// the compiler down. They run in a forked child process, which sends the
// converted model back through a pipe; a crash there is an error here.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_IMPORT_ISOLATEDCONVERSION_H
#define ONNXQUANT_LIB_IMPORT_ISOLATEDCONVERSION_H

#include "mlir/Support/LLVM.h"

#include "onnx/onnx_pb.h"

#include <string>

namespace mlir::onnxq {

/// Converts `model` to ai.onnx opset `targetOpset` with libonnx (shape
/// inference first: the adapters read input shapes). On failure, returns
/// failure and sets `error` to what went wrong (libonnx's message, or how
/// the converter process ended).
LogicalResult convertVersionIsolated(ONNX_NAMESPACE::ModelProto &model,
                                     int64_t targetOpset, std::string &error);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_IMPORT_ISOLATEDCONVERSION_H
