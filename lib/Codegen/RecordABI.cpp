//===- RecordABI.cpp - record the graph's inputs and outputs --------------===//

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_RECORDABIPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {
struct RecordABIPass : onnxq::impl::RecordABIPassBase<RecordABIPass> {
  using Base::Base;

  FailureOr<TensorABI> describe(func::FuncOp func, Type type, StringRef name,
                                StringRef fallback) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    std::optional<ONNXDataType> dtype =
        tensorType ? getONNXDataType(tensorType.getElementType()) : std::nullopt;
    if (!tensorType || !tensorType.hasStaticShape() || !dtype)
      return func.emitError() << "graph input/output '"
                              << (name.empty() ? fallback : name)
                              << "' needs a static shape and an ONNX element "
                                 "type, got "
                              << type;
    if (!getTensorBytes(tensorType))
      return func.emitError() << "graph input/output '"
                              << (name.empty() ? fallback : name) << "' ("
                              << type
                              << ") is larger than a 64-bit size can hold";
    unsigned bits = tensorType.getElementType().getIntOrFloatBitWidth();
    return TensorABI{(name.empty() ? fallback : name).str(), int64_t(*dtype),
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
          describe(*func, input, getInputName(*func, i),
                   "input_" + std::to_string(i));
      if (failed(t))
        return signalPassFailure();
      abi.inputs.push_back(*t);
    }
    for (auto [i, output] : llvm::enumerate(type.getResults())) {
      FailureOr<TensorABI> t = describe(
          *func, output, getOutputName(*func, i),
          "output_" + std::to_string(i));
      if (failed(t))
        return signalPassFailure();
      abi.outputs.push_back(*t);
    }
    writeModelABI(module, abi);
  }
};
} // namespace
