//===- ModelComparison.cpp - a float model against a quantized one --------===//
//
// Matching follows ONNX Runtime's qdq_loss_debug: a quantized weight is a
// DequantizeLinear of an initializer W_quantized (or W) whose float original
// is W; a quantized activation is a QuantizeLinear -> DequantizeLinear pair
// on a tensor X (X_QuantizeLinear_Input when X is a graph output) whose float
// original is X. QOperator outputs (QLinearConv, ... named X_quantized) are
// dequantized with their own scale to be observed. Where the names differ
// (onnx-quant's exports name tensors after their node), the tensor comes
// from the float model's node of the same name; a Relu/Clip after it that
// the quantized model does not have was folded into the range, and the
// tensor stands for its output.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Quantization/ModelComparison.h"

#include "QuantizationError.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr StringLiteral kTool = "onnx-quant-debug";

bool isFloatTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && isa<FloatType>(type.getElementType());
}

int64_t getNumElements(Value value) {
  return cast<RankedTensorType>(value.getType()).getNumElements();
}

/// `name` without `suffix`, when it ends with it.
std::string stripSuffix(StringRef name, StringRef suffix) {
  name.consume_back(suffix);
  return name.str();
}

/// One model's tensor names and node names.
class ModelNames {
public:
  ModelNames(func::FuncOp func, const llvm::StringMap<Value> &tensors)
      : tensors(tensors) {
    // Several names for one value (an Identity folded away): the first in
    // sorted order, so that the report does not depend on hashing.
    for (const auto &entry : tensors)
      sortedNames.push_back(entry.first());
    llvm::sort(sortedNames);
    for (StringRef name : sortedNames)
      nameOf.try_emplace(tensors.lookup(name), name.str());
    func.walk([&](Operation *op) {
      StringRef node = getNodeName(op);
      if (!node.empty() && !isa<ConstantOp>(op))
        opsOfNode[node].push_back(op);
    });
  }

  StringRef getName(Value value) const {
    auto it = nameOf.find(value);
    return it == nameOf.end() ? StringRef() : StringRef(it->second);
  }
  Value lookup(StringRef name) const { return tensors.lookup(name); }
  ArrayRef<StringRef> getSortedNames() const { return sortedNames; }
  bool hasNode(StringRef node) const { return opsOfNode.contains(node); }
  /// The op of `node` computing an `opType` result; null when there is
  /// none, or several (a node the importer expanded, such as an old
  /// Softmax into Reshape, Softmax, Reshape).
  Operation *lookupNode(StringRef node, StringRef opType) const {
    auto it = opsOfNode.find(node);
    if (node.empty() || it == opsOfNode.end())
      return nullptr;
    Operation *found = nullptr;
    for (Operation *op : it->second)
      if (op->getName().stripDialect() == opType) {
        if (found)
          return nullptr;
        found = op;
      }
    return found;
  }

private:
  const llvm::StringMap<Value> &tensors;
  SmallVector<StringRef> sortedNames;
  DenseMap<Value, std::string> nameOf;
  llvm::StringMap<SmallVector<Operation *, 1>> opsOfNode;
};

/// The float op type a quantized op computes: QLinearConv and QGemm compute
/// a Conv and a Gemm.
StringRef getFloatOpType(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (name.consume_front("QLinear"))
    return name;
  return name == "QGemm" ? "Gemm" : name;
}

/// The first op that reads `value`, in program order.
Operation *getFirstUser(Value value) {
  Operation *first = nullptr;
  for (Operation *user : value.getUsers())
    if (!first || user->isBeforeInBlock(first))
      first = user;
  return first;
}

class Matcher {
public:
  Matcher(func::FuncOp floatFunc, const llvm::StringMap<Value> &floatTensors,
          func::FuncOp quantizedFunc,
          const llvm::StringMap<Value> &quantizedTensors)
      : floatNames(floatFunc, floatTensors),
        quantizedNames(quantizedFunc, quantizedTensors),
        quantizedFunc(quantizedFunc) {}

  void matchWeights();
  void matchActivations();

  ModelComparison result;
  std::vector<MeasuredTensor> measured; ///< one per result.activations entry

private:
  /// The float model's weight: by name, else operand `operand` of the float
  /// op of the node of `reader`, the quantized model's op that reads it.
  Value findFloatWeight(StringRef name, Operation *reader, unsigned operand);
  /// A quantized weight (its integers a constant), read by `reader` of the
  /// quantized model where the float op reads it as operand `operand`.
  void addWeight(const QuantizedTensor &weight, Operation *reader,
                 unsigned operand);
  /// The float tensor the quantized `quantized` (named `name`) stands for:
  /// by name, else the output of the float op of its node.
  Value findFloatCounterpart(StringRef name, Value quantized);
  /// Whether the quantized model computes the float model's Relu/Clip
  /// `activation` itself (rather than folding it into a range): a tensor of
  /// its output's name made by a Relu/Clip, or an op of its node and type.
  bool isInQuantizedModel(Operation *activation);
  /// A quantized tensor of the quantized model (`kind`: how it is
  /// quantized) and its dequantized value, unless it or its float
  /// counterpart is matched already.
  void addActivation(StringRef kind, StringRef name, Value quantized,
                     Value dequantized, Value quantizerInput);
  /// The float tensors both models compute under one name, not matched as
  /// quantized ones (the rescaled output of a MatMulInteger, a float op
  /// between quantized ones): their accumulated error.
  void matchFloatTensors();

  ModelNames floatNames, quantizedNames;
  func::FuncOp quantizedFunc;
  DenseMap<Value, size_t> weightOf; ///< float weight -> result.weights index
  DenseSet<Value> seen;             ///< quantized values already matched
  DenseSet<Value> usedFloat;        ///< float counterparts already used
};

Value Matcher::findFloatWeight(StringRef name, Operation *reader,
                               unsigned operand) {
  if (Value value = floatNames.lookup(name);
      value && value.getDefiningOp<ConstantOp>())
    return value;
  Operation *op = floatNames.lookupNode(getNodeName(reader),
                                        getFloatOpType(reader));
  if (!op || operand >= op->getNumOperands() ||
      !op->getOperand(operand).getDefiningOp<ConstantOp>())
    return nullptr;
  return op->getOperand(operand);
}

void Matcher::addWeight(const QuantizedTensor &quantized, Operation *reader,
                        unsigned operand) {
  if (!quantized.x.getDefiningOp<ConstantOp>())
    return;
  std::string name =
      stripSuffix(quantizedNames.getName(quantized.x), "_quantized");
  Value weight = findFloatWeight(name, reader, operand);
  if (weight && weightOf.contains(weight))
    return;
  if (weight)
    name = floatNames.getName(weight).str();
  std::optional<SmallVector<float>> original =
      weight ? getConstantFloats(weight) : std::nullopt;
  std::optional<SmallVector<float>> dequantized = dequantizeConstant(quantized);
  if (!original || !dequantized || original->size() != dequantized->size()) {
    result.unmatched.push_back(name.empty() ? "(an unnamed weight)" : name);
    return;
  }
  SQNR error;
  error.add(*original, *dequantized);
  Operation *floatReader = getFirstUser(weight);
  weightOf[weight] = result.weights.size();
  result.weights.push_back(
      {name, floatReader ? getNodeName(floatReader).str() : "",
       getNumElements(quantized.scale) > 1 ? "per-channel" : "per-tensor",
       error.getDecibels()});
}

void Matcher::matchWeights() {
  // A MatMulInteger/ConvInteger weight of ONNX Runtime's dynamic
  // quantization: its scale is not an operand (it multiplies the result) but
  // the initializer W_scale.
  auto addIntegerWeight = [&](Operation *op, Value w, Value zp, int64_t axis) {
    StringRef name = quantizedNames.getName(w);
    Value scale =
        name.consume_back("_quantized")
            ? quantizedNames.lookup((name + "_scale").str())
            : Value();
    if (scale && scale.getDefiningOp<ConstantOp>())
      addWeight({w, scale, zp, axis}, op, 1);
  };
  // QOperator weights are dequantized as their kernels read them (per
  // channel along the axis given); QLinearConv, QLinearMatMul and QGemm read
  // their weight where Conv, MatMul and Gemm read it: operand 1.
  quantizedFunc.walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](DequantizeLinearOp dq) {
          if (Operation *reader = getFirstUser(dq.getY()))
            addWeight(QuantizedTensor::of(dq), reader,
                      llvm::find(reader->getOperands(), dq.getY()) -
                          reader->operand_begin());
        })
        .Case([&](QLinearConvOp conv) {
          addWeight({conv.getW(), conv.getWScale(), conv.getWZeroPoint(), 0},
                    op, 1);
        })
        .Case([&](QLinearMatMulOp matmul) {
          addWeight(
              {matmul.getB(), matmul.getBScale(), matmul.getBZeroPoint(), 1},
              op, 1);
        })
        .Case([&](QGemmOp gemm) {
          addWeight({gemm.getB(), gemm.getBScale(), gemm.getBZeroPoint(),
                     gemm.getTransB() ? 0 : 1},
                    op, 1);
        })
        .Case([&](MatMulIntegerOp matmul) {
          addIntegerWeight(op, matmul.getB(), matmul.getBZeroPoint(), 1);
        })
        .Case([&](ConvIntegerOp conv) {
          addIntegerWeight(op, conv.getW(), conv.getWZeroPoint(), 0);
        })
        .Case([&](QLinearAddOp add) {
          // A constant addend (a bias Add after a MatMul), per tensor.
          addWeight({add.getA(), add.getAScale(), add.getAZeroPoint()}, op, 0);
          addWeight({add.getB(), add.getBScale(), add.getBZeroPoint()}, op, 1);
        });
  });
}

bool Matcher::isInQuantizedModel(Operation *activation) {
  Value computed =
      quantizedNames.lookup(floatNames.getName(activation->getResult(0)));
  if (computed && isa_and_nonnull<ReluOp, ClipOp>(computed.getDefiningOp()))
    return true;
  return quantizedNames.lookupNode(getNodeName(activation),
                                   activation->getName().stripDialect());
}

Value Matcher::findFloatCounterpart(StringRef name, Value quantized) {
  Value value = floatNames.lookup(name);
  if (!value || !isFloatTensor(value)) {
    Operation *producer = quantized.getDefiningOp();
    Operation *op = producer ? floatNames.lookupNode(getNodeName(producer),
                                                     getFloatOpType(producer))
                             : nullptr;
    unsigned number =
        producer ? cast<OpResult>(quantized).getResultNumber() : 0;
    if (!op || number >= op->getNumResults() ||
        !isFloatTensor(op->getResult(number)))
      return nullptr;
    value = op->getResult(number);
  }
  // A Relu/Clip after it that the quantized model does not compute was
  // folded into the range (ORT's QOperator form keeps the Conv's name for
  // the output that stands for the Relu's).
  if (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (isa<ReluOp, ClipOp>(user) && !isInQuantizedModel(user))
      return user->getResult(0);
  }
  return value;
}

void Matcher::addActivation(StringRef kind, StringRef name, Value quantized,
                            Value dequantized, Value quantizerInput) {
  if (!seen.insert(quantized).second)
    return;
  Value floatValue = findFloatCounterpart(name, quantized);
  if (!floatValue || usedFloat.contains(floatValue) ||
      getNumElements(floatValue) != getNumElements(dequantized)) {
    if (kind != kFloatKind)
      result.unmatched.push_back(name.empty() ? "(an unnamed tensor)"
                                              : name.str());
    return;
  }
  usedFloat.insert(floatValue);
  ComparedActivation entry;
  entry.kind = kind.str();
  entry.tensor = floatNames.getName(floatValue).str();
  MeasuredTensor tensor(entry.tensor, floatValue, dequantized, quantizerInput);
  Operation *layer = floatValue.getDefiningOp();
  Operation *producer = quantized.getDefiningOp();
  // The float model's Relu/Clip, where the quantized model computes the
  // tensor with another op: folded into the range.
  if (isa_and_nonnull<ReluOp, ClipOp>(layer) &&
      !isa_and_nonnull<ReluOp, ClipOp>(producer)) {
    entry.folded = getNodeName(layer).str();
    std::tie(tensor.lo, tensor.hi) = getClampBounds(layer);
    layer = layer->getOperand(0).getDefiningOp();
  }
  if (layer) {
    entry.node = getNodeName(layer).str();
    entry.opType = layer->getName().stripDialect().str();
    for (Value operand : layer->getOperands())
      if (auto it = weightOf.find(operand); it != weightOf.end()) {
        entry.weight = result.weights[it->second].tensor;
        entry.weightSQNR = result.weights[it->second].sqnr;
        break;
      }
  }
  result.activations.push_back(std::move(entry));
  measured.push_back(std::move(tensor));
}

void Matcher::matchActivations() {
  OpBuilder builder(quantizedFunc.getContext());
  // A QOperator output: observed through a DequantizeLinear with the scale
  // and zero point its op requantized to.
  auto addQOperatorOutput = [&](Operation *op, Value scale, Value zp) {
    Value y = op->getResult(0);
    auto type = dyn_cast<RankedTensorType>(y.getType());
    if (!scale || !type || !type.hasStaticShape())
      return;
    builder.setInsertionPointAfter(op);
    Value dequantized = DequantizeLinearOp::create(
        builder, op->getLoc(), type.clone(builder.getF32Type()), y, scale, zp,
        builder.getI64IntegerAttr(1));
    addActivation(kQOperatorKind,
                  stripSuffix(quantizedNames.getName(y), "_quantized"), y,
                  dequantized, nullptr);
  };
  SmallVector<Operation *> ops;
  quantizedFunc.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops)
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](QuantizeLinearOp q) {
          Value x = q.getX();
          if (x.getDefiningOp<ConstantOp>() || !isFloatTensor(x))
            return;
          for (Operation *user : q->getUsers())
            if (auto dq = dyn_cast<DequantizeLinearOp>(user)) {
              addActivation(kQDQKind,
                            stripSuffix(quantizedNames.getName(x),
                                        "_QuantizeLinear_Input"),
                            x, dq.getY(), x);
              return;
            }
        })
        .Case([&](DynamicQuantizeLinearOp quantize) {
          // Observed through a DequantizeLinear of its own outputs; its
          // input is what it quantizes.
          if (!isFloatTensor(quantize.getX()))
            return;
          builder.setInsertionPointAfter(op);
          Value dequantized = DequantizeLinearOp::create(
              builder, op->getLoc(), quantize.getX().getType(),
              quantize.getY(), quantize.getYScale(), quantize.getYZeroPoint(),
              builder.getI64IntegerAttr(1));
          addActivation(kDynamicKind, quantizedNames.getName(quantize.getX()),
                        quantize.getX(), dequantized, quantize.getX());
        })
        .Case([&](QLinearConvOp conv) {
          addQOperatorOutput(op, conv.getYScale(), conv.getYZeroPoint());
        })
        .Case([&](QLinearMatMulOp matmul) {
          addQOperatorOutput(op, matmul.getYScale(), matmul.getYZeroPoint());
        })
        .Case([&](QLinearAddOp add) {
          addQOperatorOutput(op, add.getCScale(), add.getCZeroPoint());
        })
        .Case([&](QLinearGlobalAveragePoolOp pool) {
          addQOperatorOutput(op, pool.getYScale(), pool.getYZeroPoint());
        })
        .Case([&](QGemmOp gemm) {
          addQOperatorOutput(op, gemm.getYScale(), gemm.getYZeroPoint());
        })
        .Case([&](QLinearConcatOp concat) {
          addQOperatorOutput(op, concat.getYScale(), concat.getYZeroPoint());
        });
  matchFloatTensors();
  SmallVector<StringRef> formats; // the kinds of quantization seen
  for (const ComparedActivation &entry : result.activations)
    if (entry.kind != kFloatKind && !llvm::is_contained(formats, entry.kind))
      formats.push_back(entry.kind);
  result.format =
      formats.empty() ? "not quantized" : llvm::join(formats, " and ");
}

void Matcher::matchFloatTensors() {
  for (StringRef name : quantizedNames.getSortedNames()) {
    Value value = quantizedNames.lookup(name);
    Operation *producer = value.getDefiningOp();
    Value floatValue = floatNames.lookup(name);
    if (!producer || isa<ConstantOp, DequantizeLinearOp>(producer) ||
        !isFloatTensor(value) || !floatValue || !isFloatTensor(floatValue) ||
        floatValue.getDefiningOp<ConstantOp>())
      continue;
    addActivation(kFloatKind, name, value, value, nullptr);
  }
}

double sortKey(std::optional<double> db) {
  return db ? *db : std::numeric_limits<double>::infinity();
}

} // namespace

FailureOr<ModelComparison>
mlir::onnxq::compareModels(ModuleOp floatModule,
                           const llvm::StringMap<Value> &floatTensors,
                           ModuleOp quantizedModule,
                           const llvm::StringMap<Value> &quantizedTensors,
                           const ComparisonOptions &options) {
  // Errors about the data and the pairing belong to the invocation, not to
  // a place in either model.
  Location loc = UnknownLoc::get(quantizedModule.getContext());
  FailureOr<func::FuncOp> floatFunc = getGraphFunction(floatModule, kTool);
  FailureOr<func::FuncOp> quantizedFunc =
      getGraphFunction(quantizedModule, kTool);
  if (failed(floatFunc) || failed(quantizedFunc))
    return failure();
  if (!llvm::sys::fs::is_directory(options.data))
    return emitError(loc) << kTool << ": --data='" << options.data
                          << "' is not a directory";
  std::string error;
  FailureOr<SampleSpec> spec =
      makeSampleSpec(options.data, options.preprocess, options.samples, error);
  if (failed(spec))
    return emitError(loc) << kTool << ": --preprocess: " << error;
  spec->numSamplesOption = "--samples";

  Matcher matcher(*floatFunc, floatTensors, *quantizedFunc, quantizedTensors);
  matcher.matchWeights();
  matcher.matchActivations();
  ModelComparison &result = matcher.result;
  if (llvm::all_of(result.activations,
                   [](auto &entry) { return entry.kind == kFloatKind; }) &&
      result.weights.empty())
    return emitError(loc)
           << kTool << ": found no quantized tensor with a float counterpart "
           << "(the quantized model has no QuantizeLinear -> "
              "DequantizeLinear pair, QLinear op or dequantized initializer "
              "that matches the float model by tensor or node name; is it a "
              "quantized model of this float model?)";
  if (!result.activations.empty()) {
    FailureOr<MeasuredErrors> errors = measureQuantizationErrors(
        floatModule, *floatFunc, quantizedModule, *quantizedFunc,
        matcher.measured, *spec, kTool, loc);
    if (failed(errors))
      return failure();
    if (errors->samples == 0)
      return emitError(loc) << kTool << ": no usable sample in '"
                            << options.data << "'";
    result.samples = errors->samples;
    result.dataFormat = errors->format;
    for (auto [entry, activation, local] :
         llvm::zip_equal(result.activations, errors->activation, errors->local)) {
      entry.activationSQNR = activation;
      entry.localSQNR = local;
    }
  }
  result.data = options.data;
  // Worst first; ties in name order, whatever the sort's stability.
  llvm::sort(result.activations, [](const ComparedActivation &a,
                                    const ComparedActivation &b) {
    double ka = sortKey(a.activationSQNR), kb = sortKey(b.activationSQNR);
    return ka != kb ? ka < kb : a.tensor < b.tensor;
  });
  llvm::sort(result.weights,
             [](const ComparedWeight &a, const ComparedWeight &b) {
               return a.sqnr != b.sqnr ? a.sqnr < b.sqnr : a.tensor < b.tensor;
             });
  return std::move(result);
}
