//===- EinsumEquation.h - Einsum equations as loop labels -------*- C++ -*-===//
//
// An Einsum equation ("bij,bjk->bik", "...ii->...i", "ij") names every axis
// of every operand and of the result with a label; one loop per label
// computes it. The verifier, the shape rule and the lowering share this one
// reading of the equation.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_DIALECT_ONNX_IR_EINSUMEQUATION_H
#define ONNXQUANT_DIALECT_ONNX_IR_EINSUMEQUATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::onnxq {

/// Labels are small integers: letters first (a-z, A-Z), then the axes an
/// ellipsis stands for, numbered from the right (the last ellipsis axis of
/// every operand is the same label, as numpy broadcasts them).
struct EinsumEquation {
  /// Per operand, the label of each of its axes.
  SmallVector<SmallVector<unsigned>> operands;
  /// The label of each result axis: the explicit output, or (without "->")
  /// the ellipsis axes then the letters used once, in alphabetical order.
  SmallVector<unsigned> result;
  /// How many labels there are (loops of the computation).
  unsigned numLabels = 0;
};

/// Reads `equation` for operands of the given ranks; on failure `error`
/// says why.
FailureOr<EinsumEquation> parseEinsumEquation(StringRef equation,
                                              ArrayRef<int64_t> ranks,
                                              std::string &error);

} // namespace mlir::onnxq

#endif // ONNXQUANT_DIALECT_ONNX_IR_EINSUMEQUATION_H
