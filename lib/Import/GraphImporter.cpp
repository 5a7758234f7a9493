//===- GraphImporter.cpp - ONNX graph to a func.func of onnx ops ----------===//

#include "GraphImporter.h"
#include "ModelLoader.h"
#include "TensorImporter.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ShapeInference.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "onnx/defs/schema.h"

using namespace mlir;
using namespace mlir::onnxq;
namespace onnxpb = ONNX_NAMESPACE;

static std::string normalizeDomain(const std::string &domain) {
  return domain == "ai.onnx" ? "" : domain;
}

GraphImporter::GraphImporter(MLIRContext *context,
                             const onnxpb::ModelProto &model, StringRef path,
                             const ImportOptions &options)
    : context(context), model(model), options(options),
      modelDir(llvm::sys::path::parent_path(path).str()),
      fileLoc(FileLineColLoc::get(context, path, 0, 0)), builder(context) {
  const onnxpb::GraphProto &graph = model.graph();
  for (const auto &init : graph.initializer())
    initializers[init.name()] = &init;
  for (const auto *infos : {&graph.input(), &graph.value_info(), &graph.output()})
    for (const auto &info : *infos)
      valueTypes[info.name()] = &info.type();
  for (const auto &opset : model.opset_import())
    opsets[normalizeDomain(opset.domain())] = opset.version();
  for (const auto &node : graph.node())
    for (const auto &input : node.input())
      usedNames.insert(input);
  for (const auto &output : graph.output())
    usedNames.insert(output.name());
}

InFlightDiagnostic GraphImporter::emitNodeError(const ImportedNode &node) {
  return emitError(node.loc) << "node '" << node.name << "' ("
                             << node.proto.op_type() << ", opset "
                             << node.opset << "): ";
}

Value GraphImporter::createConstant(ElementsAttr value, Location loc) {
  // Constants go to the top of the function, in order of first use.
  OpBuilder::InsertionGuard guard(builder);
  Block *entry = builder.getInsertionBlock();
  auto it = entry->begin();
  while (it != entry->end() && isa<ConstantOp>(*it))
    ++it;
  builder.setInsertionPoint(entry, it);
  return ConstantOp::create(builder, loc, value);
}

Value GraphImporter::createI64Vector(ArrayRef<int64_t> values, Location loc) {
  auto type = RankedTensorType::get({int64_t(values.size())},
                                    builder.getI64Type());
  return createConstant(DenseElementsAttr::get(type, values), loc);
}

Value GraphImporter::createScalar(Type elementType, double value,
                                  Location loc) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute scalar;
  if (isa<FloatType>(elementType)) {
    scalar = builder.getFloatAttr(elementType, value);
  } else {
    // A float attribute (Clip-6's min, Pad-2's value) for integer data:
    // saturated to the type's range (converting an out-of-range double is
    // undefined behaviour; found by tools/fuzz), NaN as 0.
    unsigned width = elementType.getIntOrFloatBitWidth();
    bool isUnsigned = elementType.isUnsignedInteger() || width == 1;
    double lowest = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
    double highest = isUnsigned ? std::ldexp(1.0, width) - 1
                                : std::ldexp(1.0, width - 1) - 1;
    double saturated =
        std::isnan(value) ? 0.0 : std::clamp(value, lowest, highest);
    // highest rounds up to 2^width as a double when width is 64.
    APInt bits = isUnsigned
                     ? APInt(width, saturated >= 0x1p64 ? UINT64_MAX
                                                        : uint64_t(saturated))
                     : APInt(width,
                             saturated >= 0x1p63 ? INT64_MAX
                                                 : int64_t(saturated),
                             /*isSigned=*/true);
    scalar = builder.getIntegerAttr(elementType, bits);
  }
  return createConstant(DenseElementsAttr::get(type, scalar), loc);
}

FailureOr<Value> GraphImporter::lookupValue(const std::string &name,
                                            Location loc) {
  if (Value value = values.lookup(name))
    return value;
  const onnxpb::TensorProto *init = initializers.lookup(name);
  if (!init)
    return emitError(loc) << "value '" << name << "' is used before it is "
                          << "defined";
  FailureOr<ElementsAttr> attr = importTensor(
      *init, context, modelDir, options.resourceThresholdBytes, loc);
  if (failed(attr))
    return failure();
  Value value = createConstant(
      *attr, NameLoc::get(StringAttr::get(context, name), fileLoc));
  values[name] = value;
  return value;
}

Type GraphImporter::lookupType(const std::string &name) const {
  const onnxpb::TypeProto *type = valueTypes.lookup(name);
  return type ? importType(*type, context) : nullptr;
}

FailureOr<Attribute>
GraphImporter::importAttribute(const onnxpb::AttributeProto &attr,
                               Location loc) {
  using A = onnxpb::AttributeProto;
  switch (attr.type()) {
  case A::FLOAT: return Attribute(builder.getF32FloatAttr(attr.f()));
  case A::INT: return Attribute(builder.getI64IntegerAttr(attr.i()));
  case A::STRING: return Attribute(builder.getStringAttr(attr.s()));
  case A::FLOATS:
    return Attribute(builder.getF32ArrayAttr(
        SmallVector<float>(attr.floats().begin(), attr.floats().end())));
  case A::INTS:
    return Attribute(builder.getI64ArrayAttr(
        SmallVector<int64_t>(attr.ints().begin(), attr.ints().end())));
  case A::TENSOR: {
    FailureOr<ElementsAttr> tensor = importTensor(
        attr.t(), context, modelDir, options.resourceThresholdBytes, loc);
    if (failed(tensor))
      return failure();
    return Attribute(*tensor);
  }
  default:
    return emitError(loc) << "attribute '" << attr.name() << "' has type "
                          << A::AttributeType_Name(attr.type())
                          << ", which onnx-quant does not support";
  }
}

LogicalResult GraphImporter::buildGeneric(ImportedNode &node,
                                          SmallVectorImpl<Value> &results,
                                          StringRef opType) {
  if (opType.empty())
    opType = node.proto.op_type();
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(("onnx." + opType).str(), context);
  assert(opName && "the loader checked that every op is in the dialect");
  SmallVector<Value> operands(node.operands);
  while (!operands.empty() && !operands.back())
    operands.pop_back();

  OperationState state(node.loc, *opName);
  if (opName->hasTrait<OpTrait::AttrSizedOperandSegments>()) {
    // Optional inputs may be absent anywhere: one segment per ONNX input.
    bool microsoft = opName->hasTrait<MicrosoftDomain>();
    const onnxpb::OpSchema *schema = onnxpb::OpSchemaRegistry::Schema(
        opType.str(), microsoft ? 1 : kDialectOpset,
        microsoft ? "com.microsoft" : "");
    if (!schema)
      return emitNodeError(node) << "has no ONNX schema to place its inputs";
    size_t slots = schema->inputs().size();
    if (operands.size() > slots)
      return emitNodeError(node) << "has " << operands.size()
                                 << " inputs, but the op takes at most "
                                 << slots;
    SmallVector<int32_t> segments;
    for (size_t i = 0; i < slots; ++i) {
      bool present = i < operands.size() && operands[i];
      if (!present &&
          schema->inputs()[i].GetOption() == onnxpb::OpSchema::Single)
        return emitNodeError(node)
               << "has no input " << i << " ('" << schema->inputs()[i].GetName()
               << "'), which is required";
      segments.push_back(present ? 1 : 0);
    }
    state.addAttribute("operandSegmentSizes",
                       builder.getDenseI32ArrayAttr(segments));
    for (Value operand : operands)
      if (operand)
        state.addOperands(operand);
  } else {
    if (llvm::is_contained(operands, Value()))
      return emitNodeError(node) << "an absent input before a present one is "
                                    "not supported for this op";
    state.addOperands(operands);
  }
  ArrayRef<StringAttr> known = opName->getAttributeNames();
  for (NamedAttribute attr : node.attributes) {
    if (!llvm::is_contained(known, attr.getName()))
      return emitNodeError(node) << "attribute '" << attr.getName().getValue()
                                 << "' is not supported";
  }
  // Attribute types are checked before the op exists: its shape rule reads
  // them (the ONNX checker, which would have, does not read opsets > 17).
  if (failed(opName->verifyInherentAttrs(
          node.attributes, [&] { return emitNodeError(node); })))
    return failure();
  state.addAttributes(node.attributes);
  state.addTypes(node.resultTypes);
  Operation *op = builder.create(state);
  results.append(op->result_begin(), op->result_end());
  return success();
}

/// How many operands an op of `name` takes at least, from its ODS operand
/// count trait (0 for variadic and segmented operands).
template <unsigned... N>
static unsigned getMinOperandCountImpl(RegisteredOperationName name,
                                       std::integer_sequence<unsigned, N...>) {
  unsigned count = name.hasTrait<OpTrait::OneOperand>() ? 1 : 0;
  ((count = name.hasTrait<OpTrait::NOperands<N + 2>::template Impl>() ||
                    name.hasTrait<
                        OpTrait::AtLeastNOperands<N + 2>::template Impl>()
                ? N + 2
                : count),
   ...);
  if (name.hasTrait<OpTrait::AtLeastNOperands<1>::Impl>())
    count = std::max(count, 1u);
  return count;
}

static unsigned getMinOperandCount(RegisteredOperationName name) {
  return getMinOperandCountImpl(name, std::make_integer_sequence<unsigned, 7>());
}

LogicalResult GraphImporter::importNode(const onnxpb::NodeProto &proto,
                                        int index) {
  std::string name = getNodeName(proto, index);
  std::string domain = normalizeDomain(proto.domain());
  ImportedNode node{proto, name, opsets.lookup(domain),
                    NameLoc::get(StringAttr::get(context, name), fileLoc),
                    {}, {}, {}};
  for (const std::string &input : proto.input()) {
    if (input.empty()) {
      node.operands.push_back(nullptr);
      continue;
    }
    FailureOr<Value> value = lookupValue(input, node.loc);
    if (failed(value))
      return failure();
    node.operands.push_back(*value);
  }
  // The shape rules, the ODS accessors and the opset handlers read the
  // required inputs: check them against the node's schema before the op
  // exists (the ONNX checker, which would have, does not read opsets > 17; a
  // ReduceSum without inputs read past its operands, found by tools/fuzz).
  // An op newer than libonnx (GroupNormalization-18) has no schema here:
  // the dialect op's operand count stands for it.
  const onnxpb::OpSchema *schema = onnxpb::OpSchemaRegistry::Schema(
      proto.op_type(), node.opset, domain);
  if (!schema) {
    std::optional<RegisteredOperationName> opName =
        RegisteredOperationName::lookup("onnx." + proto.op_type(), context);
    unsigned required = opName ? getMinOperandCount(*opName) : 0;
    for (unsigned i = 0; i < required; ++i)
      if (i >= node.operands.size() || !node.operands[i])
        return emitNodeError(node) << "has no input " << i
                                   << ", which is required (the op takes at "
                                      "least "
                                   << required << ")";
  } else {
    int count = node.operands.size();
    if (count < schema->min_input())
      return emitNodeError(node) << "has " << count << " input"
                                 << (count == 1 ? "" : "s")
                                 << ", but the op requires at least "
                                 << schema->min_input();
    for (auto [i, formal] : llvm::enumerate(schema->inputs()))
      if (formal.GetOption() == onnxpb::OpSchema::Single &&
          (int(i) >= count || !node.operands[i]))
        return emitNodeError(node) << "has no input " << i << " ('"
                                   << formal.GetName()
                                   << "'), which is required";
    // The shape rules read required attributes too (a Cast without `to`
    // crashed, found by tools/fuzz).
    for (const auto &[name, formal] : schema->attributes()) {
      const std::string &attrName = name; // lambdas cannot capture bindings
      if (formal.required &&
          llvm::none_of(proto.attribute(), [&](const auto &attr) {
            return attr.name() == attrName;
          }))
        return emitNodeError(node) << "has no attribute '" << attrName
                                   << "', which is required";
    }
  }
  for (const onnxpb::AttributeProto &attr : proto.attribute()) {
    FailureOr<Attribute> value = importAttribute(attr, node.loc);
    if (failed(value))
      return failure();
    node.attributes.append(attr.name(), *value);
  }
  // Trailing optional outputs nobody reads are not materialized (their types
  // are often not inferred, e.g. Dropout-7's mask).
  auto isOptional = [&](int i) {
    return schema && i < int(schema->outputs().size()) &&
           schema->outputs()[i].GetOption() == onnxpb::OpSchema::Optional;
  };
  int numResults = proto.output_size();
  while (numResults > 0 && (proto.output(numResults - 1).empty() ||
                            (isOptional(numResults - 1) &&
                             !usedNames.contains(proto.output(numResults - 1)))))
    --numResults;
  // Where ONNX shape inference gave no type, a placeholder stands in until
  // the op's own shape rule gives it.
  SmallVector<bool> placeholders;
  for (int i = 0; i < numResults; ++i) {
    Type type = lookupType(proto.output(i));
    placeholders.push_back(!type);
    node.resultTypes.push_back(type ? type
                                    : UnrankedTensorType::get(builder.getF32Type()));
  }

  SmallVector<Value> results;
  OpsetHandler handler = lookupOpsetHandler(proto.op_type(), node.opset);
  if (failed(handler ? handler(*this, node, results)
                     : buildGeneric(node, results)))
    return failure();
  // A handler may make results the node does not name (a Constant without
  // outputs, found by tools/fuzz): nothing types or binds them.
  if (results.size() > placeholders.size())
    results.resize(placeholders.size());
  if (failed(inferResultTypes(node, results, placeholders)))
    return failure();
  for (auto [output, result] : llvm::zip(proto.output(), results)) {
    if (output.empty())
      continue;
    if (values.count(output) || initializers.count(output))
      return emitNodeError(node) << "output '" << output
                                 << "' is already defined (every value must "
                                    "have one producer)";
    values[output] = result;
  }
  return success();
}

/// Types each result with its op's shape rule (a placeholder takes the rule's
/// type, a type from ONNX shape inference is refined by it), then folds the
/// ops that compute shapes, so what reads their values sees constants.
LogicalResult GraphImporter::inferResultTypes(const ImportedNode &node,
                                              MutableArrayRef<Value> results,
                                              ArrayRef<bool> placeholders) {
  // The ops that made the results, each once, in order.
  SmallVector<Operation *> ops;
  for (Value result : results)
    if (Operation *op = result.getDefiningOp(); op && !llvm::is_contained(ops, op))
      ops.push_back(op);
  for (Operation *op : ops) {
    auto rule = dyn_cast<ShapeInferenceOpInterface>(op);
    SmallVector<Type> inferred;
    bool ruled = rule && succeeded(rule.inferResultTypes(inferred)) &&
                 inferred.size() == op->getNumResults();
    // Which node outputs the op gives, noted before folding erases it.
    SmallVector<std::pair<size_t, unsigned>> outputs;
    for (auto [i, result] : llvm::enumerate(results)) {
      if (result.getDefiningOp() != op)
        continue;
      unsigned number = cast<OpResult>(result).getResultNumber();
      outputs.push_back({i, number});
      Type type = ruled ? inferred[number] : Type();
      if (auto ranked = dyn_cast_or_null<RankedTensorType>(type);
          ranked && llvm::any_of(ranked.getShape(), [](int64_t d) {
            return d < 0 && !ShapedType::isDynamic(d);
          }))
        return emitNodeError(node)
               << "output " << i << " '" << node.proto.output(i)
               << "' would have a negative size ("
               << formatShape(ranked.getShape())
               << "): check the node's attributes and constant inputs";
      if (placeholders[i]) {
        if (!type)
          return emitNodeError(node)
                 << "cannot infer the type of output " << i << " '"
                 << node.proto.output(i) << "' from its inputs' types";
        result.setType(type);
        continue;
      }
      if (!type)
        continue;
      Type refined = meetTypes(result.getType(), type);
      if (!refined)
        return emitNodeError(node)
               << "the model declares output " << i << " '"
               << node.proto.output(i) << "' as " << result.getType()
               << ", but its inputs give " << type;
      result.setType(refined);
    }
    SmallVector<Value> folded = foldShapeComputation(builder, op);
    if (!folded.empty())
      for (auto [i, number] : outputs)
        results[i] = folded[number];
  }
  return success();
}

/// int4/uint4 tensors are taken where 4-bit quantization puts them: constant
/// weights read by DequantizeLinear, a codebook's constant indices read by
/// Cast. Elsewhere (a graph input, an op computing on them) the lowering has
/// no form for them, so the import stops here.
static LogicalResult check4BitUses(func::FuncOp func) {
  auto is4Bit = [](Value v) {
    return isPacked4Bit(getElementTypeOrSelf(v.getType()));
  };
  for (BlockArgument arg : func.getArguments())
    if (is4Bit(arg))
      return emitError(arg.getLoc())
             << "a 4-bit (int4/uint4) graph input; onnx-quant takes 4-bit "
                "tensors only as constants read by a DequantizeLinear or a Cast";
  WalkResult result = func.walk([&](Operation *op) {
    bool reads4Bit = llvm::any_of(op->getOperands(), is4Bit);
    bool makes4Bit = llvm::any_of(op->getResults(), is4Bit);
    if (isa<ConstantOp>(op) || (!reads4Bit && !makes4Bit))
      return WalkResult::advance();
    if (isa<DequantizeLinearOp, CastOp>(op) &&
        op->getOperand(0).getDefiningOp<ConstantOp>() && !makes4Bit)
      return WalkResult::advance();
    op->emitError() << "node '" << getNodeName(op) << "' ("
                    << op->getName().stripDialect()
                    << ") computes on 4-bit (int4/uint4) tensors; onnx-quant "
                       "takes them only as constants read by a "
                       "DequantizeLinear or a Cast";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

OwningOpRef<ModuleOp> GraphImporter::importModel() {
  const onnxpb::GraphProto &graph = model.graph();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, options.functionName,
                                   builder.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  SmallVector<Type> argTypes;
  for (const onnxpb::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    Type type = importType(input.type(), context);
    if (!type) {
      emitError(fileLoc) << "graph input '" << input.name()
                         << "' has a type onnx-quant does not support";
      return nullptr;
    }
    auto shaped = dyn_cast<ShapedType>(type);
    if (shaped && shaped.hasStaticShape() && !getTensorBytes(shaped)) {
      emitError(fileLoc) << "graph input '" << input.name() << "' (" << type
                         << ") is larger than a 64-bit size can hold; check "
                            "its shape (--input-shape)";
      return nullptr;
    }
    Location loc = NameLoc::get(builder.getStringAttr(input.name()), fileLoc);
    values[input.name()] = entry->addArgument(type, loc);
    argTypes.push_back(type);
  }
  builder.setInsertionPointToStart(entry);
  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(importNode(node, index)))
      return nullptr;

  SmallVector<Value> results;
  for (const onnxpb::ValueInfoProto &output : graph.output()) {
    FailureOr<Value> value = lookupValue(output.name(), fileLoc);
    if (failed(value))
      return nullptr;
    results.push_back(*value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  if (options.tensorValues)
    for (const auto &entry : values)
      // Unused constants (those only folded shape computations read) go next.
      if (!entry.second.use_empty() || !entry.second.getDefiningOp<ConstantOp>())
        options.tensorValues->insert({entry.first(), entry.second});
  // Constants only the folded shape computations read.
  eraseUnusedConstants(*entry);
  func.setType(builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  int argIndex = 0;
  for (const onnxpb::ValueInfoProto &input : graph.input())
    if (!initializers.count(input.name()))
      func.setArgAttr(argIndex++, kTensorNameAttrName,
                      builder.getStringAttr(input.name()));
  for (auto [i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, kTensorNameAttrName,
                       builder.getStringAttr(output.name()));
  if (failed(check4BitUses(func)) || failed(verify(*module)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> mlir::onnxq::importONNXModel(MLIRContext *context,
                                                   StringRef data,
                                                   StringRef path,
                                                   const ImportOptions &options) {
  context->loadDialect<ONNXDialect, func::FuncDialect>();
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  onnxpb::ModelProto model;
  if (failed(loadModel(context, data, path, fileLoc, options, model)))
    return nullptr;
  return GraphImporter(context, model, path, options).importModel();
}

OwningOpRef<ModuleOp> mlir::onnxq::importONNXFile(MLIRContext *context,
                                                  StringRef path,
                                                  const ImportOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false);
  if (std::error_code ec = buffer.getError()) {
    emitError(FileLineColLoc::get(context, path, 0, 0))
        << "cannot read the model file: " << ec.message();
    return nullptr;
  }
  return importONNXModel(context, (*buffer)->getBuffer(), path, options);
}

std::optional<std::string>
mlir::onnxq::parseInputShapes(ArrayRef<std::string> specs,
                              llvm::StringMap<SmallVector<int64_t>> &shapes) {
  for (StringRef spec : specs) {
    auto [name, dims] = spec.rsplit(':');
    if (name.empty() || dims.empty())
      return ("--input-shape expects NAME:D0xD1x..., got '" + spec + "'").str();
    SmallVector<int64_t> shape;
    SmallVector<StringRef> parts;
    dims.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t dim;
      if (part.getAsInteger(10, dim) || dim <= 0)
        return ("--input-shape '" + spec + "': '" + part +
                "' is not a positive dimension")
            .str();
      shape.push_back(dim);
    }
    shapes[name] = shape;
  }
  return std::nullopt;
}
