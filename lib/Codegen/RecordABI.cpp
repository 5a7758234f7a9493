//===- RecordABI.cpp - record the graph's inputs and outputs --------------===//

#include "PassDetail.h"

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_RECORDABIPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

FailureOr<func::FuncOp> mlir::onnxq::getGraphFunction(ModuleOp module,
                                                     StringRef user) {
  // Declarations are functions the graph calls (calibration's observers).
  auto funcs = llvm::to_vector(llvm::make_filter_range(
      module.getOps<func::FuncOp>(), [](func::FuncOp f) { return !f.isExternal(); }));
  if (funcs.size() != 1) {
    InFlightDiagnostic error = module.emitError();
    if (!user.empty())
      error << user << " ";
    return error << "expects exactly one function (the graph), found "
                 << funcs.size();
  }
  return funcs.front();
}

namespace {
struct RecordABIPass : onnxq::impl::RecordABIPassBase<RecordABIPass> {
  using Base::Base;

  FailureOr<TensorABI> describe(func::FuncOp func, Type type, StringAttr name,
                                StringRef fallback) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    std::optional<ONNXDataType> dtype =
        tensorType ? getONNXDataType(tensorType.getElementType()) : std::nullopt;
    if (!tensorType || !tensorType.hasStaticShape() || !dtype)
      return func.emitError() << "graph input/output '"
                              << (name ? name.getValue() : fallback)
                              << "' needs a static shape and an ONNX element "
                                 "type, got "
                              << type;
    unsigned bits = tensorType.getElementType().getIntOrFloatBitWidth();
    return TensorABI{name ? name.str() : fallback.str(), int64_t(*dtype),
                     std::max<int64_t>(1, bits / 8),
                     SmallVector<int64_t>(tensorType.getShape())};
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!isValidCIdentifier(entry)) {
      module.emitError() << "entry name '" << entry
                         << "' is not a C identifier (use --entry=NAME)";
      return signalPassFailure();
    }
    FailureOr<func::FuncOp> func = getGraphFunction(module);
    if (failed(func))
      return signalPassFailure();
    ModelABI abi;
    abi.entry = entry;
    abi.function = func->getSymName().str();
    FunctionType type = func->getFunctionType();
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      FailureOr<TensorABI> t =
          describe(*func, input, func->getArgAttrOfType<StringAttr>(i, "onnx.name"),
                   "input_" + std::to_string(i));
      if (failed(t))
        return signalPassFailure();
      abi.inputs.push_back(*t);
    }
    for (auto [i, output] : llvm::enumerate(type.getResults())) {
      FailureOr<TensorABI> t = describe(
          *func, output, func->getResultAttrOfType<StringAttr>(i, "onnx.name"),
          "output_" + std::to_string(i));
      if (failed(t))
        return signalPassFailure();
      abi.outputs.push_back(*t);
    }
    writeModelABI(module, abi);
  }
};
} // namespace
