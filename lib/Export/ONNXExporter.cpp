//===- ONNXExporter.cpp - onnx dialect to an ONNX model -------------------===//

#include "onnx-quant/Export/ONNXExporter.h"

#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"
#include "onnx-quant/Dialect/ONNX/IR/WindowGeometry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/checker.h"
#include "onnx/onnx_pb.h"

using namespace mlir;
using namespace mlir::onnxq;
namespace onnxpb = ONNX_NAMESPACE;

namespace {
class Exporter {
public:
  Exporter(func::FuncOp func, int64_t opset) : func(func), opset(opset) {}
  LogicalResult run(onnxpb::ModelProto &model);

private:
  std::string uniqueName(StringRef base, llvm::StringSet<> &used);
  std::string uniqueName(StringRef base) { return uniqueName(base, usedNames); }
  /// A node name: the op's NameLoc, unique among node names (tensor names
  /// live in their own namespace, as in ONNX).
  std::string nodeName(Location loc, StringRef fallback);
  LogicalResult exportTensor(ElementsAttr attr, Location loc,
                             onnxpb::TensorProto &tensor);
  LogicalResult exportType(Type type, Location loc, onnxpb::TypeProto &proto);
  LogicalResult exportAttribute(NamedAttribute attr, Operation *op,
                                onnxpb::AttributeProto &proto);
  LogicalResult exportOp(Operation *op, onnxpb::GraphProto &graph);
  LogicalResult addValueInfo(
      Value value, const std::string &name,
      google::protobuf::RepeatedPtrField<onnxpb::ValueInfoProto> &infos);

  /// Opset 18+ forms of the dialect's opset 17 ops.
  LogicalResult writeNewerForm(Operation *op, onnxpb::NodeProto &node,
                               onnxpb::GraphProto &graph);

  func::FuncOp func;
  int64_t opset;
  llvm::StringSet<> usedNames, usedNodeNames;
  llvm::DenseMap<Value, std::string> names;
};
} // namespace

std::string Exporter::uniqueName(StringRef base, llvm::StringSet<> &used) {
  std::string name = base.empty() ? "v" : base.str();
  for (int i = 1; !used.insert(name).second; ++i)
    name = (base + "_" + Twine(i)).str();
  return name;
}

std::string Exporter::nodeName(Location loc, StringRef fallback) {
  StringRef name = getNodeName(loc);
  return uniqueName(name.empty() ? fallback : name, usedNodeNames);
}

/// 4-bit values held a byte each, two to a byte as ONNX stores them (the
/// first in the low nibble).
static void pack4Bit(ArrayRef<char> values, std::string &raw) {
  raw.assign((values.size() + 1) / 2, 0);
  for (auto [i, v] : llvm::enumerate(values))
    raw[i / 2] |= char((uint8_t(v) & 0xF) << (4 * (i % 2)));
}

LogicalResult Exporter::exportTensor(ElementsAttr attr, Location loc,
                                     onnxpb::TensorProto &tensor) {
  auto type = cast<ShapedType>(attr.getType());
  std::optional<ONNXDataType> dataType = getONNXDataType(type.getElementType());
  if (!dataType || !type.hasStaticShape())
    return emitError(loc) << "cannot export constant of type " << type;
  tensor.set_data_type(static_cast<int>(*dataType));
  for (int64_t dim : type.getShape())
    tensor.add_dims(dim);
  std::string &raw = *tensor.mutable_raw_data();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "constant refers to a resource with no data";
    ArrayRef<char> data = blob->getData();
    if (isPacked4Bit(type.getElementType()))
      pack4Bit(data, raw);
    else
      raw.assign(data.begin(), data.end());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return emitError(loc) << "cannot export constant attribute " << attr;
  if (type.getElementType().isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      raw.push_back(b ? 1 : 0);
    return success();
  }
  if (isPacked4Bit(type.getElementType())) {
    SmallVector<char> values;
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(char(v.getZExtValue()));
    pack4Bit(values, raw);
    return success();
  }
  ArrayRef<char> data = dense.getRawData();
  int64_t count = dense.isSplat() ? type.getNumElements() : 1;
  raw.reserve(data.size() * count);
  for (int64_t i = 0; i < count; ++i)
    raw.append(data.begin(), data.end());
  return success();
}

LogicalResult Exporter::exportType(Type type, Location loc,
                                   onnxpb::TypeProto &proto) {
  auto tensorType = dyn_cast<TensorType>(type);
  std::optional<ONNXDataType> dataType =
      tensorType ? getONNXDataType(tensorType.getElementType()) : std::nullopt;
  if (!dataType)
    return emitError(loc) << "cannot export a value of type " << type;
  auto *tensorProto = proto.mutable_tensor_type();
  tensorProto->set_elem_type(static_cast<int>(*dataType));
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    auto *shape = tensorProto->mutable_shape();
    for (int64_t dim : ranked.getShape()) {
      auto *d = shape->add_dim();
      if (!ShapedType::isDynamic(dim))
        d->set_dim_value(dim);
    }
  }
  return success();
}

LogicalResult Exporter::addValueInfo(
    Value value, const std::string &name,
    google::protobuf::RepeatedPtrField<onnxpb::ValueInfoProto> &infos) {
  onnxpb::ValueInfoProto *info = infos.Add();
  info->set_name(name);
  return exportType(value.getType(), value.getLoc(), *info->mutable_type());
}

LogicalResult Exporter::exportAttribute(NamedAttribute attr, Operation *op,
                                        onnxpb::AttributeProto &proto) {
  using A = onnxpb::AttributeProto;
  proto.set_name(attr.getName().str());
  Attribute value = attr.getValue();
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    proto.set_type(A::INT);
    proto.set_i(i.getInt());
  } else if (auto f = dyn_cast<FloatAttr>(value)) {
    proto.set_type(A::FLOAT);
    proto.set_f(f.getValueAsDouble());
  } else if (auto s = dyn_cast<StringAttr>(value)) {
    proto.set_type(A::STRING);
    proto.set_s(s.str());
  } else if (auto e = dyn_cast<ElementsAttr>(value)) {
    proto.set_type(A::TENSOR);
    return exportTensor(e, op->getLoc(), *proto.mutable_t());
  } else if (auto array = dyn_cast<ArrayAttr>(value)) {
    bool floats = !array.empty() && isa<FloatAttr>(array[0]);
    proto.set_type(floats ? A::FLOATS : A::INTS);
    for (Attribute element : array) {
      if (auto f = dyn_cast<FloatAttr>(element))
        proto.add_floats(f.getValueAsDouble());
      else
        proto.add_ints(cast<IntegerAttr>(element).getInt());
    }
  } else {
    return op->emitError() << "cannot export attribute '"
                           << attr.getName().getValue() << "' = " << value;
  }
  return success();
}

/// Whether `op` reads 4-bit values (the weights of a DequantizeLinear, a
/// codebook's indices) or is a DequantizeLinear of blocked scales: ai.onnx
/// has them from opset 21.
static bool needsOpset21(Operation *op) {
  auto dq = dyn_cast<DequantizeLinearOp>(op);
  return (dq && dq.getBlockSize() != 0) ||
         llvm::any_of(op->getOperandTypes(), [](Type type) {
           return isPacked4Bit(getElementTypeOrSelf(type));
         });
}

int64_t mlir::onnxq::getRequiredOpset(ModuleOp module) {
  bool newer = module.walk([](Operation *op) {
                       return needsOpset21(op) ? WalkResult::interrupt()
                                               : WalkResult::advance();
                     })
                   .wasInterrupted();
  return newer ? 21 : kDialectOpset;
}

/// Forms the dialect takes from opsets newer than the one written fail,
/// naming the node; AveragePool's unit dilations are the opset 17 default
/// and are left out.
static LogicalResult checkWrittenOpset(Operation *op, int64_t written) {
  auto newer = [&](StringRef what, int64_t opset) -> LogicalResult {
    if (opset <= written)
      return success();
    return op->emitError() << "cannot export " << what << " (opset " << opset
                           << ") in an opset " << written
                           << " model; write opset 21 (--opset=21)";
  };
  if (needsOpset21(op))
    return newer(!isPacked4Bit(getElementTypeOrSelf(op->getOperand(0).getType()))
                     ? "a DequantizeLinear with blocked scales (block-size= of "
                       "--onnx-quantize)"
                 : isa<DequantizeLinearOp>(op)
                     ? "a DequantizeLinear of 4-bit weights (weights=s4|u4 of "
                       "--onnx-quantize)"
                     : (op->getName().stripDialect() +
                        " of 4-bit values (weights=ewq|fastewq bits=4 of "
                        "--onnx-quantize)")
                           .str(),
                 21);
  if (auto pool = dyn_cast<AveragePoolOp>(op);
      pool && pool.getDilationsAttr() &&
      llvm::any_of(getIntsOr(pool.getDilationsAttr(), 0, 1),
                   [](int64_t d) { return d != 1; }))
    if (failed(newer("AveragePool dilations", 19)))
      return failure();
  if (auto resize = dyn_cast<ResizeOp>(op);
      resize &&
      resize.getCoordinateTransformationMode() == "half_pixel_symmetric")
    if (failed(newer("Resize half_pixel_symmetric coordinates", 19)))
      return failure();
  if (auto pad = dyn_cast<PadOp>(op); pad && pad.getMode() == "wrap")
    if (failed(newer("Pad wrap mode", 19)))
      return failure();
  auto scatterReduction = [](Operation *op) -> StringRef {
    if (auto scatter = dyn_cast<ScatterNDOp>(op))
      return scatter.getReduction();
    if (auto scatter = dyn_cast<ScatterElementsOp>(op))
      return scatter.getReduction();
    return "";
  };
  if (llvm::is_contained({"max", "min"}, scatterReduction(op)))
    if (failed(newer((op->getName().stripDialect() + " max/min reduction").str(), 18)))
      return failure();
  if (isa<MishOp>(op))
    return newer("Mish", 18);
  if (isa<GroupNormalizationOp>(op))
    return newer("GroupNormalization", 21);
  if (isa<GeluOp>(op))
    return newer("Gelu", 20);
  return success();
}

/// Whether `op` is a QuantizeLinear or DequantizeLinear of 16-bit integers:
/// ai.onnx has them from opset 21, so an opset 17 model writes them as
/// com.microsoft's QuantizeLinear/DequantizeLinear (the same semantics,
/// and the form ONNX Runtime's quantizer writes for 16-bit types before
/// opset 21).
static bool isMicrosoft16BitQDQ(Operation *op) {
  auto is16Bit = [](Value v) {
    return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() == 16;
  };
  if (auto q = dyn_cast<QuantizeLinearOp>(op))
    return is16Bit(q.getY());
  if (auto dq = dyn_cast<DequantizeLinearOp>(op))
    return is16Bit(dq.getX());
  return false;
}

/// The domain `op` is written in, in an opset `opset` model.
static StringRef getWrittenDomain(Operation *op, int64_t opset) {
  return opset < 21 && isMicrosoft16BitQDQ(op) ? "com.microsoft"
                                               : getONNXDomain(op);
}

/// The reductions whose `axes` became an input in opset 18 (ReduceSum's in 13,
/// the dialect's form already).
static bool hasAxesInputFrom18(Operation *op) {
  return isa<ReduceMaxOp, ReduceMinOp, ReduceProdOp, ReduceL1Op, ReduceL2Op,
             ReduceLogSumOp, ReduceLogSumExpOp, ReduceSumSquareOp, ReduceMeanOp>(
      op);
}

LogicalResult Exporter::writeNewerForm(Operation *op, onnxpb::NodeProto &node,
                                       onnxpb::GraphProto &graph) {
  if (opset < 18)
    return success();
  if (hasAxesInputFrom18(op)) {
    auto axes = dyn_cast_or_null<ArrayAttr>(op->getAttr("axes"));
    if (!axes)
      return success(); // all axes: no input
    onnxpb::TensorProto *tensor = graph.add_initializer();
    tensor->set_name(uniqueName(node.name() + "_axes"));
    tensor->set_data_type(static_cast<int>(ONNXDataType::Int64));
    tensor->add_dims(axes.size());
    for (Attribute axis : axes)
      tensor->add_int64_data(cast<IntegerAttr>(axis).getInt());
    node.add_input(tensor->name());
  }
  if (auto split = dyn_cast<SplitOp>(op); split && !split.getSplit()) {
    onnxpb::AttributeProto *attr = node.add_attribute();
    attr->set_name("num_outputs");
    attr->set_type(onnxpb::AttributeProto::INT);
    attr->set_i(op->getNumResults());
  }
  return success();
}

LogicalResult Exporter::exportOp(Operation *op, onnxpb::GraphProto &graph) {
  if (failed(checkWrittenOpset(op, opset)))
    return failure();
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    StringRef initializer = getNodeName(op);
    std::string name = uniqueName(initializer.empty() ? "const" : initializer);
    names[constant.getResult()] = name;
    onnxpb::TensorProto *tensor = graph.add_initializer();
    tensor->set_name(name);
    return exportTensor(constant.getValue(), op->getLoc(), *tensor);
  }
  if (!isa_and_nonnull<ONNXDialect>(op->getDialect()))
    return op->emitError() << "cannot export '" << op->getName()
                           << "' to ONNX: only onnx dialect ops can be written";
  onnxpb::NodeProto *node = graph.add_node();
  StringRef opType = op->getName().stripDialect();
  node->set_op_type(opType.str());
  node->set_domain(getWrittenDomain(op, opset).str());
  node->set_name(nodeName(op->getLoc(), opType));

  // Absent optional inputs are empty names, as in ONNX.
  auto segments = dyn_cast_or_null<DenseI32ArrayAttr>(
      op->getInherentAttr("operandSegmentSizes").value_or(Attribute()));
  SmallVector<Value> present(op->getOperands());
  size_t next = 0;
  auto addInput = [&](Value v) { node->add_input(v ? names.lookup(v) : ""); };
  if (segments) {
    for (int32_t size : segments.asArrayRef())
      addInput(size ? present[next++] : Value());
    while (node->input_size() && node->input(node->input_size() - 1).empty())
      node->mutable_input()->RemoveLast();
  } else {
    for (Value v : present)
      addInput(v);
  }
  for (OpResult result : op->getResults()) {
    std::string name = names.lookup(result);
    if (name.empty())
      name = names[result] = uniqueName(node->name() + "_out" +
                                        std::to_string(result.getResultNumber()));
    node->add_output(name);
    if (failed(addValueInfo(result, name, *graph.mutable_value_info())))
      return failure();
  }
  auto properties = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
  if (properties)
    for (NamedAttribute attr : properties) {
      if (attr.getName() == "operandSegmentSizes" ||
          (isa<AveragePoolOp>(op) && attr.getName() == "dilations") ||
          (opset >= 18 && hasAxesInputFrom18(op) && attr.getName() == "axes") ||
          (isa<DequantizeLinearOp>(op) && attr.getName() == "block_size" &&
           cast<DequantizeLinearOp>(op).getBlockSize() == 0))
        continue;
      if (failed(exportAttribute(attr, op, *node->add_attribute())))
        return failure();
    }
  return writeNewerForm(op, *node, graph);
}

LogicalResult Exporter::run(onnxpb::ModelProto &model) {
  // IR version 10 brought the 4-bit types.
  model.set_ir_version(opset >= 21 ? 10 : 8);
  model.set_producer_name("onnx-quant");
  auto *opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(this->opset);
  bool microsoft = false;
  func.walk([&](Operation *op) {
    microsoft |= getWrittenDomain(op, this->opset) == "com.microsoft";
  });
  if (microsoft) {
    auto *msOpset = model.add_opset_import();
    msOpset->set_domain("com.microsoft");
    msOpset->set_version(1);
  }
  onnxpb::GraphProto &graph = *model.mutable_graph();
  graph.set_name(func.getSymName().str());
  Block &body = func.getBody().front();

  for (BlockArgument arg : body.getArguments()) {
    StringRef input = getInputName(func, arg.getArgNumber());
    std::string name = uniqueName(
        input.empty() ? "input_" + std::to_string(arg.getArgNumber()) : input);
    names[arg] = name;
    if (failed(addValueInfo(arg, name, *graph.mutable_input())))
      return failure();
  }
  // Graph outputs keep their names: name the producing op results after them.
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<std::string> outputNames;
  for (auto [i, value] : llvm::enumerate(returnOp.getOperands())) {
    StringRef output = getOutputName(func, i);
    std::string name =
        uniqueName(output.empty() ? "output_" + std::to_string(i) : output);
    outputNames.push_back(name);
    Operation *def = value.getDefiningOp();
    if (def && !isa<ConstantOp>(def) && !names.count(value))
      names[value] = name;
  }
  for (Operation &op : body.without_terminator())
    if (failed(exportOp(&op, graph)))
      return failure();
  // Outputs that are inputs, constants or returned twice need an Identity.
  for (auto [value, name] : llvm::zip(returnOp.getOperands(), outputNames)) {
    if (names.lookup(value) != name) {
      onnxpb::NodeProto *identity = graph.add_node();
      identity->set_op_type("Identity");
      identity->set_name(uniqueName(name + "_identity", usedNodeNames));
      identity->add_input(names.lookup(value));
      identity->add_output(name);
    }
    if (failed(addValueInfo(value, name, *graph.mutable_output())))
      return failure();
  }
  // value_info must not repeat graph outputs.
  llvm::StringSet<> outputs;
  for (const std::string &name : outputNames)
    outputs.insert(name);
  auto *infos = graph.mutable_value_info();
  infos->erase(std::remove_if(infos->begin(), infos->end(),
                              [&](const onnxpb::ValueInfoProto &info) {
                                return outputs.contains(info.name());
                              }),
               infos->end());
  return success();
}

LogicalResult mlir::onnxq::exportONNXModel(ModuleOp module,
                                           llvm::raw_ostream &os,
                                           int64_t opset) {
  FailureOr<func::FuncOp> graph = getGraphFunction(module, "--emit=onnx");
  if (failed(graph))
    return failure();
  if (opset == 0)
    opset = getRequiredOpset(module);
  if (!llvm::is_contained(kExportOpsets, opset))
    return module.emitError() << "--opset=" << opset
                              << " cannot be written (17 or 21)";
  onnxpb::ModelProto model;
  if (failed(Exporter(*graph, opset).run(model)))
    return failure();
  // libonnx here knows opsets up to 17 (tests check opset 21 models with
  // Python's onnx.checker and ONNX Runtime).
  if (opset <= kDialectOpset) {
    try {
      onnxpb::checker::check_model(model);
    } catch (const std::exception &e) {
      return module.emitError() << "the exported model fails the ONNX checker: "
                                << e.what();
    }
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes))
    return module.emitError("cannot serialize the ONNX model (over 2 GiB?)");
  os << bytes;
  return success();
}
