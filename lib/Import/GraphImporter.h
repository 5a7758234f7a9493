//===- GraphImporter.h - ONNX graph to a func.func of onnx ops --*- C++ -*-===//

#ifndef ONNXQUANT_LIB_IMPORT_GRAPHIMPORTER_H
#define ONNXQUANT_LIB_IMPORT_GRAPHIMPORTER_H

#include "onnx-quant/Import/ONNXImporter.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

namespace mlir::onnxq {

/// One ONNX node on its way to becoming an op. Opset handlers rewrite it
/// into the dialect's (opset 17) form before the generic build.
struct ImportedNode {
  const ONNX_NAMESPACE::NodeProto &proto;
  std::string name;   ///< Node name for diagnostics.
  int64_t opset;      ///< Opset of the node's domain.
  Location loc;
  /// One entry per ONNX input slot; null where the input is absent.
  SmallVector<Value> operands;
  /// ONNX attributes, converted; handlers add, remove or rename them.
  NamedAttrList attributes;
  /// Result types, one per output up to the last one that is used.
  SmallVector<Type> resultTypes;
};

class GraphImporter {
public:
  GraphImporter(MLIRContext *context, const ONNX_NAMESPACE::ModelProto &model,
                StringRef path, const ImportOptions &options);

  OwningOpRef<ModuleOp> importModel();

  // Services for the opset handlers.
  OpBuilder &getBuilder() { return builder; }
  /// Creates `onnx.<opType>` (the node's op type by default) from the node's
  /// operands and attributes.
  LogicalResult buildGeneric(ImportedNode &node, SmallVectorImpl<Value> &results,
                             StringRef opType = {});
  /// An `onnx.Constant` holding `value`.
  Value createConstant(ElementsAttr value, Location loc);
  Value createI64Vector(ArrayRef<int64_t> values, Location loc);
  /// A rank-0 constant of `elementType` (a float or integer type).
  Value createScalar(Type elementType, double value, Location loc);
  /// Reports an error about `node`, naming it and its op type.
  InFlightDiagnostic emitNodeError(const ImportedNode &node);

private:
  LogicalResult importNode(const ONNX_NAMESPACE::NodeProto &proto, int index);
  LogicalResult inferResultTypes(const ImportedNode &node,
                                 MutableArrayRef<Value> results,
                                 ArrayRef<bool> placeholders);
  FailureOr<Attribute> importAttribute(const ONNX_NAMESPACE::AttributeProto &attr,
                                       Location loc);
  FailureOr<Value> lookupValue(const std::string &name, Location loc);
  Type lookupType(const std::string &name) const;

  MLIRContext *context;
  const ONNX_NAMESPACE::ModelProto &model;
  const ImportOptions &options;
  std::string modelDir;
  Location fileLoc;
  OpBuilder builder;
  llvm::StringMap<Value> values;
  llvm::StringMap<const ONNX_NAMESPACE::TensorProto *> initializers;
  llvm::StringMap<const ONNX_NAMESPACE::TypeProto *> valueTypes;
  llvm::StringMap<int64_t> opsets;
  llvm::StringSet<> usedNames;
};

/// Rewrites a node of another opset into the dialect's form, then builds it.
using OpsetHandler = LogicalResult (*)(GraphImporter &, ImportedNode &,
                                       SmallVectorImpl<Value> &);

/// The handler for `opType` at `opset`, or null when the generic build is
/// right as it is.
OpsetHandler lookupOpsetHandler(StringRef opType, int64_t opset);

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_IMPORT_GRAPHIMPORTER_H
