//===- ONNXToLinalg.h - onnx to linalg conversion patterns ------*- C++ -*-===//

#ifndef ONNXQUANT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
#define ONNXQUANT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxq {

/// Maps unsigned integer element types to signless ones (linalg and arith
/// work on signless integers); everything else is unchanged.
class ONNXToLinalgTypeConverter : public TypeConverter {
public:
  ONNXToLinalgTypeConverter();
};

// One populate function per op family (one .cpp each).
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateConvToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);
void populatePoolToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateMatMulToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateNormalizationToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
void populateTensorToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateResizeToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateReductionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateConvTransposeToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
void populateRuntimeGatherToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
void populateTriluToLinalgPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

void populateQuantizeDequantizeToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns);
// Integer-only lowering of the quantized ops (QLinear*, QGemm, Q of DQ).
void populateQLinearConvToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateQLinearMatMulToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
void populateQLinearElementwiseToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns);

/// All of the above.
void populateONNXToLinalgConversionPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns);

} // namespace mlir::onnxq

#endif // ONNXQUANT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
