//===- ModelABI.cpp - the model's C ABI recorded on the module ------------===//

#include "onnx-quant/Dialect/ONNX/IR/ModelABI.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::onnxq;

int64_t TensorABI::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t ModelABI::getBatchSize() const {
  return inputs.empty() || inputs[0].shape.empty() ? 1 : inputs[0].shape[0];
}

static Attribute tensorToAttr(Builder &b, const TensorABI &t) {
  return b.getDictionaryAttr({
      b.getNamedAttr("name", b.getStringAttr(t.name)),
      b.getNamedAttr("dtype", b.getI64IntegerAttr(t.dtype)),
      b.getNamedAttr("element_bytes", b.getI64IntegerAttr(t.elementBytes)),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(t.shape)),
  });
}

DictionaryAttr mlir::onnxq::getModelABIAttr(MLIRContext *context,
                                            const ModelABI &abi) {
  Builder b(context);
  auto tensors = [&](const std::vector<TensorABI> &list) {
    SmallVector<Attribute> attrs;
    for (const TensorABI &t : list)
      attrs.push_back(tensorToAttr(b, t));
    return b.getArrayAttr(attrs);
  };
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("entry", b.getStringAttr(abi.entry)),
      b.getNamedAttr("function", b.getStringAttr(abi.function)),
      b.getNamedAttr("inputs", tensors(abi.inputs)),
      b.getNamedAttr("outputs", tensors(abi.outputs)),
      b.getNamedAttr("workspace_size", b.getI64IntegerAttr(abi.workspaceSize)),
  };
  if (abi.indexChecks)
    fields.push_back(b.getNamedAttr("index_checks", b.getUnitAttr()));
  if (abi.constantsSize)
    fields.push_back(
        b.getNamedAttr("constants_size", b.getI64IntegerAttr(abi.constantsSize)));
  return b.getDictionaryAttr(fields);
}

FailureOr<ModelABI> mlir::onnxq::parseModelABI(DictionaryAttr dict) {
  if (!dict)
    return failure();
  ModelABI abi;
  auto entry = dict.getAs<StringAttr>("entry");
  auto function = dict.getAs<StringAttr>("function");
  auto workspace = dict.getAs<IntegerAttr>("workspace_size");
  if (!entry || !function || !workspace)
    return failure();
  abi.entry = entry.str();
  abi.function = function.str();
  abi.workspaceSize = workspace.getInt();
  abi.indexChecks = dict.contains("index_checks");
  if (auto constants = dict.getAs<IntegerAttr>("constants_size"))
    abi.constantsSize = constants.getInt();
  for (auto [key, list] : {std::pair{"inputs", &abi.inputs},
                           std::pair{"outputs", &abi.outputs}}) {
    auto array = dict.getAs<ArrayAttr>(key);
    if (!array)
      return failure();
    for (Attribute a : array) {
      auto t = dyn_cast<DictionaryAttr>(a);
      auto name = t ? t.getAs<StringAttr>("name") : nullptr;
      auto dtype = t ? t.getAs<IntegerAttr>("dtype") : nullptr;
      auto bytes = t ? t.getAs<IntegerAttr>("element_bytes") : nullptr;
      auto shape = t ? t.getAs<DenseI64ArrayAttr>("shape") : nullptr;
      if (!name || !dtype || !bytes || !shape)
        return failure();
      list->push_back({name.str(), dtype.getInt(), bytes.getInt(),
                       SmallVector<int64_t>(shape.asArrayRef())});
    }
  }
  return abi;
}

void mlir::onnxq::writeModelABI(ModuleOp module, const ModelABI &abi) {
  module->setAttr(kABIAttrName, getModelABIAttr(module.getContext(), abi));
}

FailureOr<ModelABI> mlir::onnxq::readModelABI(ModuleOp module) {
  FailureOr<ModelABI> abi =
      parseModelABI(module->getAttrOfType<DictionaryAttr>(kABIAttrName));
  if (failed(abi))
    return module.emitError() << "no valid '" << kABIAttrName
                              << "' attribute: run --onnxq-record-abi first";
  return abi;
}
