//===- ConvertONNXToLinalg.cpp - the convert-onnx-to-linalg pass ----------===//

#include "onnx-quant/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "onnx-quant/Conversion/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_CONVERTONNXTOLINALGPASS
#include "onnx-quant/Conversion/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

ONNXToLinalgTypeConverter::ONNXToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  // Signless integers; 4-bit ones held a byte each, extended by their
  // signedness (only the constants' storage keeps two to a byte).
  addConversion([](RankedTensorType type) -> Type {
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || (intType.isSignless() && intType.getWidth() != 4))
      return type;
    return type.clone(
        IntegerType::get(type.getContext(), std::max(8u, intType.getWidth())));
  });
}

void mlir::onnxq::populateONNXToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LinalgLoweringOptions &options) {
  Requantization mode = options.requant;
  populateElementwiseToLinalgPatterns(converter, patterns);
  populateConvToLinalgPatterns(converter, patterns, options.vectorBits);
  populatePoolToLinalgPatterns(converter, patterns, options.vectorBits);
  populateMatMulToLinalgPatterns(converter, patterns);
  populateEinsumToLinalgPatterns(converter, patterns);
  populateNormalizationToLinalgPatterns(converter, patterns, options.vectorBits);
  populateTensorToLinalgPatterns(converter, patterns);
  populateResizeToLinalgPatterns(converter, patterns);
  populateQuantizeDequantizeToLinalgPatterns(converter, patterns, options.vectorBits);
  populateQLinearConvToLinalgPatterns(converter, patterns, options);
  populateQLinearMatMulToLinalgPatterns(converter, patterns, options);
  populateQLinearElementwiseToLinalgPatterns(converter, patterns, mode,
                                             options.vectorBits);
  populateReductionToLinalgPatterns(converter, patterns);
  populateScatterToLinalgPatterns(converter, patterns);
  populateTriluToLinalgPatterns(converter, patterns);
  populateGeneratorsToLinalgPatterns(converter, patterns);
  populateIntegerContractionsToLinalgPatterns(converter, patterns, options);
  populateConvTransposeToLinalgPatterns(converter, patterns);
  populateRuntimeGatherToLinalgPatterns(converter, patterns);
}

namespace {
struct ConvertONNXToLinalgPass
    : onnxq::impl::ConvertONNXToLinalgPassBase<ConvertONNXToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    if (requant != "float" && requant != "integer") {
      func.emitError() << "convert-onnx-to-linalg: requant='" << requant
                       << "' is not one of float, integer";
      return signalPassFailure();
    }
    if (int8Dot != "none" && int8Dot != "vnni" && int8Dot != "sdot" &&
        int8Dot != "amx") {
      func.emitError() << "convert-onnx-to-linalg: int8-dot='" << int8Dot
                       << "' is not one of none, vnni, sdot, amx";
      return signalPassFailure();
    }
    ONNXToLinalgTypeConverter converter;
    RewritePatternSet patterns(ctx);
    LinalgLoweringOptions options;
    options.requant =
        requant == "integer" ? Requantization::Integer : Requantization::Float;
    options.int8Dot = int8Dot == "vnni"   ? Int8DotProduct::VNNI
                      : int8Dot == "sdot" ? Int8DotProduct::SDot
                      : int8Dot == "amx"  ? Int8DotProduct::AMX
                                          : Int8DotProduct::None;
    options.vectorBits = vectorBits;
    populateONNXToLinalgConversionPatterns(converter, patterns, options);

    // An op with no pattern at all gets a precise error before conversion.
    llvm::DenseSet<OperationName> lowered;
    for (const auto &pattern : patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        lowered.insert(*root);
    bool missing = false;
    func.walk([&](Operation *op) {
      if (isa<ONNXDialect>(op->getDialect()) && !lowered.contains(op->getName())) {
        op->emitError() << "'" << op->getName()
                        << "' has no lowering to native code yet";
        missing = true;
      }
    });
    if (missing)
      return signalPassFailure();

    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<ONNXDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect, tensor::TensorDialect,
                           vector::VectorDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return converter.isLegal(op); });
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
