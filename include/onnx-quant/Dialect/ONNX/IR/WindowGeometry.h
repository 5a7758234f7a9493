//===- WindowGeometry.h - sliding-window sizes of convs and pools -*- C++ -*-===//
//
// The one place that turns kernel_shape, pads, strides, dilations and
// auto_pad into padding and output sizes: shape inference and the lowerings
// of Conv, ConvInteger, QLinearConv, MaxPool and AveragePool all ask here.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_WINDOWGEOMETRY_H
#define ONNXQUANT_DIALECT_ONNX_IR_WINDOWGEOMETRY_H

#include "mlir/IR/BuiltinAttributes.h"
#include <optional>
#include <string>

namespace mlir::onnxq {

/// The values of an optional I64ArrayAttr, or `fallback` repeated `size` times.
SmallVector<int64_t> getIntsOr(ArrayAttr attr, size_t size, int64_t fallback);

/// Why the window attributes cannot describe a window over `spatial`
/// dimensions, as a verifier's message ("expects strides values >= 1, got
/// 0"), or nullopt. Absent attributes take valid defaults. The verifiers
/// report it; the geometry below refuses it, since shape rules run on ops not
/// verified yet and must not divide by a zero stride.
std::optional<std::string> findWindowAttrError(size_t spatial,
                                               ArrayAttr kernelShape,
                                               ArrayAttr pads, ArrayAttr strides,
                                               ArrayAttr dilations);

/// `[begin..., end...]` padding of the spatial dimensions of a convolution or
/// pooling window, from explicit `pads` or `auto_pad`.
struct WindowGeometry {
  SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd, output;
};

/// `total` padding split into (begin, end) as auto_pad SAME_UPPER (the odd
/// one at the end) or SAME_LOWER (at the beginning) splits it.
std::pair<int64_t, int64_t> splitSamePadding(int64_t total, StringRef autoPad);

/// Computes the geometry for an NC + spatial input of `inputShape`; the output
/// sizes use `ceilMode` rounding, and are dynamic where the input's spatial
/// size is. Returns nullopt for unsupported auto_pad or a window larger than
/// the padded input.
std::optional<WindowGeometry>
computeWindowGeometry(ArrayRef<int64_t> inputShape, ArrayRef<int64_t> kernel,
                      ArrayAttr pads, ArrayAttr strides, ArrayAttr dilations,
                      StringRef autoPad, bool ceilMode);

/// ConvTranspose's window: ONNX's output-size rule full = s * (in - 1) +
/// output_padding + (k - 1) * d + 1; the output is `full` minus the pads, or
/// `output_shape` (auto_pad SAME_*: in * s) with the pads derived from it
/// (SAME_UPPER puts the smaller half first, as the ONNX reference does).
struct TransposeWindowGeometry {
  SmallVector<int64_t> strides, dilations, padBegin, full, output;
};
std::optional<TransposeWindowGeometry> computeTransposeWindowGeometry(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> kernel, ArrayAttr pads,
    ArrayAttr strides, ArrayAttr dilations, ArrayAttr outputPadding,
    ArrayAttr outputShape, StringRef autoPad);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_WINDOWGEOMETRY_H
