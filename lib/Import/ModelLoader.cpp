//===- ModelLoader.cpp - read, validate and shape-infer a model -----------===//

#include "ModelLoader.h"
#include "IsolatedConversion.h"
#include "MicrosoftSchemas.h"
#include "TensorImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Import/ONNXImporter.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include <google/protobuf/text_format.h>

using namespace mlir;
using namespace mlir::onnxq;
namespace onnxpb = ONNX_NAMESPACE;

/// The newest ai.onnx opset libonnx knows (17 for Debian's libonnx 1.12).
static int64_t getLibonnxOpset() {
  return onnxpb::OpSchemaRegistry::DomainToVersionRange::Instance()
      .Map()
      .at(onnxpb::ONNX_DOMAIN)
      .second;
}

static bool isDefaultDomain(const std::string &domain) {
  return domain.empty() || domain == "ai.onnx";
}

int64_t mlir::onnxq::getDefaultDomainOpset(const onnxpb::ModelProto &model) {
  for (const auto &opset : model.opset_import())
    if (isDefaultDomain(opset.domain()))
      return opset.version();
  return 0;
}

std::string mlir::onnxq::getNodeName(const onnxpb::NodeProto &node,
                                     int index) {
  if (!node.name().empty())
    return node.name();
  return node.op_type() + "_" + std::to_string(index);
}

/// Parses `data`, in the format `path`'s extension names (binary protobuf
/// unless .onnxtext, .textproto or .pbtxt).
static LogicalResult parseModel(StringRef data, StringRef path, Location loc,
                                onnxpb::ModelProto &model) {
  StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".onnxtext") {
    auto status = onnxpb::OnnxParser::Parse(model, data.str().c_str());
    if (!status.IsOK())
      return emitError(loc) << "cannot parse the ONNX text model: "
                            << status.ErrorMessage();
  } else if (ext == ".textproto" || ext == ".pbtxt") {
    if (!google::protobuf::TextFormat::ParseFromString(data.str(), &model))
      return emitError(loc) << "cannot parse the protobuf text model";
  } else if (!model.ParseFromArray(data.data(), data.size())) {
    return emitError(loc) << "not a valid ONNX model: the file is not a "
                             "ModelProto protobuf (truncated or not .onnx?)";
  }
  // Protobuf accepts many non-ONNX byte strings; an ONNX model always names
  // its IR version and opsets.
  if (model.ir_version() <= 0 || model.opset_import_size() == 0 ||
      !model.has_graph())
    return emitError(loc) << "not a valid ONNX model: no IR version, opset "
                             "import or graph (is this an ONNX file?)";
  return success();
}

/// libonnx's checker. The in-memory checker resolves external data against
/// the current directory: it runs from the model's directory (the tool is
/// single-threaded; the previous directory is restored).
static LogicalResult runChecker(const onnxpb::ModelProto &model,
                                StringRef modelDir, Location loc) {
  bool externalData = llvm::any_of(model.graph().initializer(), [](const auto &t) {
    return t.data_location() == onnxpb::TensorProto::EXTERNAL;
  });
  SmallString<256> previousDir;
  bool changeDir = externalData && !modelDir.empty() &&
                   !llvm::sys::fs::current_path(previousDir) &&
                   !llvm::sys::fs::set_current_path(modelDir);
  llvm::scope_exit restoreDir([&] {
    if (changeDir)
      (void)llvm::sys::fs::set_current_path(previousDir);
  });
  try {
    onnxpb::checker::check_model(model);
  } catch (const std::exception &e) {
    return emitError(loc) << "the model fails the ONNX checker: " << e.what();
  }
  return success();
}

/// Whether some ai.onnx op of the model changed between `opset` and the
/// oldest supported opset, so the model needs converting.
static const onnxpb::NodeProto *
findChangedSinceOpset(const onnxpb::ModelProto &model, int64_t opset) {
  for (const auto &node : model.graph().node()) {
    if (!isDefaultDomain(node.domain()))
      continue;
    auto *old = onnxpb::OpSchemaRegistry::Schema(node.op_type(), opset);
    auto *v7 =
        onnxpb::OpSchemaRegistry::Schema(node.op_type(), kMinSupportedOpset);
    if (!old || !v7 || old->SinceVersion() != v7->SinceVersion())
      return &node;
  }
  return nullptr;
}

/// Each domain is imported once, at a version of at least 1: the importer,
/// the schemas and the opset handlers all look a domain's version up, and
/// two answers would disagree (found by tools/fuzz: a second `"" : 0` made
/// the schema lookup fail and a Cast without `to` reach its shape rule).
/// libonnx's checker would say so, but does not read IR versions newer
/// than its own.
static LogicalResult checkOpsetImports(const onnxpb::ModelProto &model,
                                       Location loc) {
  llvm::StringSet<> domains;
  for (const auto &opset : model.opset_import()) {
    std::string domain = isDefaultDomain(opset.domain()) ? "ai.onnx" : opset.domain();
    if (!domains.insert(domain).second)
      return emitError(loc) << "the model imports domain '" << domain
                            << "' more than once (opset_import must name each "
                               "domain once)";
    if (opset.version() < 1)
      return emitError(loc) << "the model imports opset " << opset.version()
                            << " of domain '" << domain
                            << "'; opset versions start at 1";
  }
  return success();
}

static LogicalResult checkOpsets(onnxpb::ModelProto &model, StringRef modelDir,
                                 Location loc) {
  int64_t opset = getDefaultDomainOpset(model);
  if (opset == 0)
    return emitError(loc) << "the model imports no ai.onnx opset";
  if (opset < kMinSupportedOpset) {
    // An older model imports as it is when none of its ops changed up to
    // opset 7 (e.g. GlobalAveragePool-1). Otherwise libonnx's version
    // converter rewrites it (Add-6 `broadcast`/`axis`, BatchNormalization-6
    // `is_test`, Gemm-6 `broadcast`, ...).
    const onnxpb::NodeProto *changed = findChangedSinceOpset(model, opset);
    if (!changed)
      return success();
    std::string opType = changed->op_type();
    // The converter and its shape inference trust their input: the model
    // passes the checker first (a node without an op type crashed them),
    // and they run in a child process (found by tools/fuzz: more shapes
    // than the checker reads crash them too).
    if (failed(runChecker(model, modelDir, loc)))
      return failure();
    std::string error;
    if (failed(convertVersionIsolated(model, kMinSupportedOpset, error)))
      return emitError(loc)
             << "opset " << opset << " is older than the oldest supported "
             << "opset (" << kMinSupportedOpset << ") and " << opType
             << " changed since; the ONNX version converter failed: "
             << error;
    emitRemark(loc) << "converted the model from opset " << opset
                    << " to opset " << kMinSupportedOpset << " (" << opType
                    << " changed since)";
    return success();
  }
  if (opset > kMaxSupportedOpset)
    return emitError(loc) << "opset " << opset << " is newer than the newest "
                          << "supported opset (" << kMaxSupportedOpset
                          << "); convert the model to opset "
                          << kMaxSupportedOpset
                          << " with onnx.version_converter";
  return success();
}

/// Every node must be an op of the dialect, in the right domain.
static LogicalResult checkSupportedOps(MLIRContext *ctx,
                                       const onnxpb::ModelProto &model,
                                       Location loc) {
  llvm::StringMap<int64_t> opsets;
  for (const auto &opset : model.opset_import())
    opsets[isDefaultDomain(opset.domain()) ? "" : opset.domain()] =
        opset.version();
  for (auto [index, node] : llvm::enumerate(model.graph().node())) {
    std::string domain = isDefaultDomain(node.domain()) ? "" : node.domain();
    auto name = RegisteredOperationName::lookup("onnx." + node.op_type(), ctx);
    bool microsoft = name && name->hasTrait<MicrosoftDomain>();
    // com.microsoft's QuantizeLinear/DequantizeLinear are ai.onnx's with
    // 16-bit types before opset 21 (what ONNX Runtime's quantizer and our
    // exporter write for them).
    bool microsoftAlias = domain == "com.microsoft" &&
                          llvm::is_contained({"QuantizeLinear", "DequantizeLinear"},
                                             node.op_type());
    bool expanded = llvm::is_contained(
        getImportExpansions(), std::pair<StringRef, StringRef>(node.op_type(), domain));
    bool supported = expanded || (name && (microsoftAlias ||
                                           domain == (microsoft ? "com.microsoft" : "")));
    if (supported)
      continue;
    return emitError(loc) << "node '" << getNodeName(node, index)
                          << "': unsupported operator '" << node.op_type()
                          << "' (domain '"
                          << (domain.empty() ? "ai.onnx" : domain)
                          << "', opset " << opsets.lookup(domain)
                          << "); run `onnx-quant-opt --help` for the "
                             "supported operators";
  }
  return success();
}

static std::string describeDims(const onnxpb::TensorShapeProto &shape) {
  std::string text;
  for (auto [i, dim] : llvm::enumerate(shape.dim())) {
    if (i)
      text += "x";
    text += dim.has_dim_value() ? std::to_string(dim.dim_value())
            : dim.has_dim_param() ? dim.dim_param()
                                  : "?";
  }
  return text;
}

/// Attributes that size loops or divide in shape rules (libonnx's and
/// ours): a zero or negative value must be refused before any shape
/// inference runs (a stride of 0 divides by zero inside libonnx).
static LogicalResult checkPositiveAttributes(const onnxpb::GraphProto &graph,
                                             Location loc) {
  static constexpr llvm::StringLiteral kPositive[] = {
      "strides", "dilations", "kernel_shape", "group", "blocksize"};
  for (auto [index, node] : llvm::enumerate(graph.node())) {
    for (const onnxpb::AttributeProto &attr : node.attribute()) {
      if (attr.type() == onnxpb::AttributeProto::GRAPH &&
          failed(checkPositiveAttributes(attr.g(), loc)))
        return failure();
      if (!llvm::is_contained(kPositive, attr.name()))
        continue;
      SmallVector<int64_t> values(attr.ints().begin(), attr.ints().end());
      if (attr.has_i())
        values.push_back(attr.i());
      for (int64_t value : values)
        if (value < 1)
          return emitError(loc)
                 << "node '" << getNodeName(node, index) << "' ("
                 << node.op_type() << "): attribute '" << attr.name()
                 << "' is " << value << ", but it must be at least 1";
    }
  }
  return success();
}

/// Checks every external-data reference before libonnx's checker follows
/// it: the checker of libonnx 1.12 reads locations outside the model's
/// directory.
static LogicalResult checkExternalData(const onnxpb::GraphProto &graph,
                                       StringRef modelDir, Location loc) {
  auto check = [&](const onnxpb::TensorProto &tensor) {
    return success(tensor.data_location() != onnxpb::TensorProto::EXTERNAL ||
                   succeeded(resolveExternalDataPath(tensor, modelDir, loc)));
  };
  for (const onnxpb::TensorProto &tensor : graph.initializer())
    if (failed(check(tensor)))
      return failure();
  for (const onnxpb::NodeProto &node : graph.node())
    for (const onnxpb::AttributeProto &attr : node.attribute())
      if ((attr.has_t() && failed(check(attr.t()))) ||
          (attr.has_g() && failed(checkExternalData(attr.g(), modelDir, loc))))
        return failure();
  return success();
}

/// Exporters write `dim_value: -1` for a dynamic dimension (Paddle does);
/// ONNX Runtime reads any negative size as unknown, and so do we: such a
/// dimension loses its value (before shape inference, which would otherwise
/// take -1 for a fixed size).
static void clearNegativeDims(onnxpb::GraphProto &graph) {
  auto clear = [](onnxpb::ValueInfoProto &info) {
    if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape())
      return;
    for (onnxpb::TensorShapeProto::Dimension &dim :
         *info.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
      if (dim.has_dim_value() && dim.dim_value() < 0)
        dim.clear_dim_value();
  };
  for (onnxpb::ValueInfoProto &info : *graph.mutable_input())
    clear(info);
  for (onnxpb::ValueInfoProto &info : *graph.mutable_output())
    clear(info);
  for (onnxpb::ValueInfoProto &info : *graph.mutable_value_info())
    clear(info);
}

/// Applies `--input-shape` and the batch-1 default to the graph inputs that
/// are not initializers.
static LogicalResult fixInputShapes(onnxpb::ModelProto &model,
                                    const ImportOptions &options,
                                    Location loc) {
  onnxpb::GraphProto &graph = *model.mutable_graph();
  clearNegativeDims(graph);
  llvm::StringSet<> initializers;
  for (const auto &init : graph.initializer())
    initializers.insert(init.name());
  llvm::StringSet<> used;
  for (onnxpb::ValueInfoProto &input : *graph.mutable_input()) {
    if (initializers.contains(input.name()))
      continue;
    if (!input.type().has_tensor_type())
      return emitError(loc) << "graph input '" << input.name()
                            << "' is not a tensor";
    bool hasShape = input.type().tensor_type().has_shape();
    std::string original =
        hasShape ? describeDims(input.type().tensor_type().shape()) : "";
    auto given = options.inputShapes.find(input.name());
    if (!hasShape && given == options.inputShapes.end())
      return emitError(loc) << "graph input '" << input.name()
                            << "' has no shape; give one with --input-shape="
                            << input.name() << ":<d0>x<d1>x...";
    onnxpb::TensorShapeProto *shape =
        input.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (given != options.inputShapes.end()) {
      used.insert(input.name());
      ArrayRef<int64_t> dims = given->second;
      if (hasShape && shape->dim_size() != int64_t(dims.size()))
        return emitError(loc) << "--input-shape for '" << input.name()
                              << "' has rank " << dims.size()
                              << " but the model's input has rank "
                              << shape->dim_size() << " (" << original << ")";
      for (auto [i, d] : llvm::enumerate(dims)) {
        if (i < size_t(shape->dim_size()) && shape->dim(i).has_dim_value() &&
            shape->dim(i).dim_value() != d)
          return emitError(loc) << "--input-shape for '" << input.name()
                                << "' sets dimension " << i << " to " << d
                                << " but the model fixes it to "
                                << shape->dim(i).dim_value();
      }
      shape->clear_dim();
      for (int64_t d : dims)
        shape->add_dim()->set_dim_value(d);
      continue;
    }
    for (int i = 1; i < shape->dim_size(); ++i)
      if (!shape->dim(i).has_dim_value())
        return emitError(loc) << "graph input '" << input.name()
                              << "' has dynamic dimension " << i << " ("
                              << original
                              << "); give a static shape with --input-shape="
                              << input.name() << ":<d0>x<d1>x...";
    if (shape->dim_size() > 0 && !shape->dim(0).has_dim_value()) {
      emitRemark(loc) << "graph input '" << input.name()
                      << "': dynamic batch dimension '"
                      << (shape->dim(0).has_dim_param() ? shape->dim(0).dim_param()
                                                        : std::string("?"))
                      << "' set to 1 (choose another with --input-shape="
                      << input.name() << ":...)";
      shape->mutable_dim(0)->set_dim_value(1);
    }
  }
  for (const auto &entry : options.inputShapes)
    if (!used.contains(entry.getKey())) {
      std::string names;
      for (const auto &input : graph.input())
        if (!initializers.contains(input.name()))
          names += (names.empty() ? "" : ", ") + input.name();
      return emitError(loc) << "--input-shape names '" << entry.getKey()
                            << "', which is not a graph input (inputs: "
                            << names << ")";
    }
  return success();
}

LogicalResult mlir::onnxq::loadModel(MLIRContext *context, StringRef data,
                                     StringRef path, Location loc,
                                     const ImportOptions &options,
                                     onnxpb::ModelProto &model) {
  registerMicrosoftSchemas();
  StringRef modelDir = llvm::sys::path::parent_path(path);
  if (failed(parseModel(data, path, loc, model)) ||
      failed(checkOpsetImports(model, loc)) ||
      failed(checkPositiveAttributes(model.graph(), loc)) ||
      failed(checkExternalData(model.graph(), modelDir, loc)) ||
      failed(checkOpsets(model, modelDir, loc)) ||
      failed(checkSupportedOps(context, model, loc)) ||
      failed(fixInputShapes(model, options, loc)))
    return failure();
  // libonnx checks only models it can read: no newer opset or IR version
  // than its own. The importer's own checks (every value defined once before
  // use, attribute types, the ops' verifiers) stand for it otherwise. Types
  // always come from the ops' own shape rules: libonnx 1.12's shape
  // inference dereferences missing shapes on malformed models (a Conv of a
  // rank-2 input crashed it, found by tools/fuzz), so it is not run.
  if (getDefaultDomainOpset(model) > getLibonnxOpset() ||
      model.ir_version() > onnxpb::IR_VERSION)
    return success();
  return runChecker(model, modelDir, loc);
}
