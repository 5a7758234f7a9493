//===- CodebookQuantize.h - weights=ewq|fastewq (codebook weights) -*- C++ -*-===//
//
// Weight-only quantization to codebooks (Codebook.h): a weight becomes the
// index of its level, stored as a `bits`-bit constant, and the op reads
// Gather(levels, Cast(indices) [+ channel offset]): the form ONNX Runtime
// runs, and the one the native code evaluates when the model runs (the
// indices stay `bits` wide in the object).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_QUANTIZATION_CODEBOOKQUANTIZE_H
#define ONNXQUANT_LIB_QUANTIZATION_CODEBOOKQUANTIZE_H

#include "Codebook.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::onnxq {

struct CodebookOptions {
  CodebookMethod method = CodebookMethod::EWQ;
  unsigned bits = 4;
  /// One table per output channel, or one per tensor.
  bool perChannel = true;
};

/// A weight to quantize: its op, operand number and output-channel axis.
struct WeightOperand {
  Operation *op;
  unsigned operand;
  int64_t channelAxis;
};

/// What the codebooks cost and give, per layer and in all.
struct CodebookSummary {
  struct Layer {
    std::string node;
    /// Weight SQNR (dB) of uniform weight-only quantization at the same bits
    /// and granularity, of EWQ and of FastEWQ codebooks.
    double uniform, ewq, fastEWQ;
  };
  SmallVector<Layer> layers;
  /// Time to compute every layer's codebooks, each method.
  double ewqSeconds = 0, fastEWQSeconds = 0;
};

/// Replaces each weight (float constants) by its codebook form, with the
/// levels of `options.method`; both methods are computed for the summary.
CodebookSummary quantizeWithCodebooks(ArrayRef<WeightOperand> weights,
                                      const CodebookOptions &options);

void printCodebookSummary(const CodebookSummary &summary,
                          const CodebookOptions &options, raw_ostream &os);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_QUANTIZATION_CODEBOOKQUANTIZE_H
