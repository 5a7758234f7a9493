//===- Quantize.cpp - float graph with ranges to QDQ form -----------------===//
//
// The decisions follow ONNX Runtime's QDQ quantizer, so that our QDQ models
// and theirs are comparable: activations get Q/DQ pairs from their calibrated
// ranges, weights are quantized per output channel, biases to int32 with
// scale s_input * s_weight, Relu after a quantized op disappears into its
// producer's output range, and data-movement ops keep their input's scale.
//
//===----------------------------------------------------------------------===//

#include "CodebookQuantize.h"
#include "DynamicQuantize.h"
#include "FloatFallback.h"
#include "Report.h"
#include "ScaleAndZeroPoint.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Execution/ObservingModel.h"
#include "onnx-quant/Quantization/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

namespace mlir::onnxq {
#define GEN_PASS_DEF_QUANTIZEPASS
#include "onnx-quant/Quantization/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// Ops that compute on quantized inputs (their outputs get their own range).
bool isComputeOp(Operation *op) {
  return isa<ConvOp, ConvTransposeOp, GemmOp, MatMulOp, AddOp, MulOp, ConcatOp,
             AveragePoolOp, GlobalAveragePoolOp, ReluOp, ClipOp>(op);
}

/// Ops that only move data: the output keeps the input's scale.
bool isPassThrough(Operation *op) {
  if (auto pool = dyn_cast<MaxPoolOp>(op))
    return !pool.getIndices();
  return isa<ReshapeOp, FlattenOp, TransposeOp, SqueezeOp, UnsqueezeOp, SliceOp,
             PadOp>(op);
}

constexpr StringLiteral kSupportedOpTypes[] = {
    "Conv",        "ConvTranspose", "Gemm",    "MatMul",  "Add",
    "Mul",         "Concat",        "MaxPool", "AveragePool",
    "GlobalAveragePool", "Relu",    "Clip",    "Reshape", "Flatten",
    "Transpose",   "Squeeze",       "Unsqueeze", "Slice", "Pad"};

/// The operands of `op` that are activations to quantize.
SmallVector<unsigned> getActivationOperands(Operation *op) {
  if (isa<ConvOp, ConvTransposeOp, GemmOp>(op))
    return {0};
  if (isa<MatMulOp, AddOp, MulOp, ConcatOp>(op)) {
    SmallVector<unsigned> all;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      all.push_back(i);
    return all;
  }
  return {0}; // pools, Relu, Clip, pass-through
}

/// The constant weight operand and its per-channel axis, if `op` has one.
std::optional<std::pair<unsigned, int64_t>> getWeightOperand(Operation *op) {
  if (isa<ConvOp>(op))
    return std::pair(1u, int64_t(0));
  if (isa<ConvTransposeOp>(op))
    return std::pair(1u, int64_t(1));
  if (auto gemm = dyn_cast<GemmOp>(op))
    return std::pair(1u, int64_t(gemm.getTransB() ? 0 : 1));
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    auto b = dyn_cast<RankedTensorType>(matmul.getB().getType());
    if (b && b.getRank() == 2 && getConstantValue(matmul.getB()))
      return std::pair(1u, int64_t(1));
  }
  return std::nullopt;
}

/// The ops mode=weight-only quantizes: those with constant weights.
constexpr StringLiteral kWeightOnlyOpTypes[] = {"Conv", "ConvTranspose", "Gemm",
                                                "MatMul"};

/// The axis a weight's products are summed over (its input channels), along
/// which block-size= cuts blocks.
int64_t getReductionAxis(Operation *op) {
  if (isa<ConvOp>(op))
    return 1;
  if (auto gemm = dyn_cast<GemmOp>(op))
    return gemm.getTransB() ? 1 : 0;
  return 0; // ConvTranspose's input channels, MatMul's rows
}

/// The width of an activations=/weights= type name (s8, u16, s4, ...).
unsigned getBits(StringRef type) {
  return type.ends_with("16") ? 16 : type.ends_with("4") ? 4 : 8;
}

Type getIntType(MLIRContext *ctx, bool isSigned, unsigned width = 8) {
  return isSigned ? IntegerType::get(ctx, width)
                  : IntegerType::get(ctx, width, IntegerType::Unsigned);
}

/// Replaces the ops whose operands are all constants by the constants they
/// fold to (a Reshape of weights, ...): calibration does not observe such
/// results, and quantization treats them as the weights they are.
void foldConstantSubgraphs(func::FuncOp func) {
  auto isConstant = [](Value v) { return v.getDefiningOp<ConstantOp>(); };
  auto isElements = [](OpFoldResult r) {
    return isa_and_present<ElementsAttr>(dyn_cast<Attribute>(r));
  };
  // In program order, so that a folded op's users can fold in turn.
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (!isa<ConstantOp>(op) && op->getNumOperands() > 0)
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    SmallVector<OpFoldResult> results;
    if (!llvm::all_of(op->getOperands(), isConstant) ||
        failed(op->fold(results)) || results.size() != op->getNumResults() ||
        !llvm::all_of(results, isElements))
      continue;
    OpBuilder builder(op);
    SmallVector<Value> replacements;
    for (OpFoldResult result : results)
      replacements.push_back(ConstantOp::create(
          builder, op->getLoc(), cast<ElementsAttr>(cast<Attribute>(result))));
    llvm::SetVector<Value> operands(llvm::from_range, op->getOperands());
    op->replaceAllUsesWith(replacements);
    op->erase();
    // The folded inputs (a float weight before its Reshape) are dead now;
    // left in place they would be exported as unused initializers.
    for (Value operand : operands)
      if (Operation *constant = operand.getDefiningOp(); constant && constant->use_empty())
        constant->erase();
  }
}

/// What --onnx-quantize decides for a graph, before it rewrites it.
struct QuantizationPlan {
  /// The tensors that get a Q/DQ pair, in program order.
  llvm::MapVector<Value, ScaleAndZeroPoint> tensors;
  /// The compute ops quantized, with their input's parameters.
  SmallVector<std::pair<Operation *, std::optional<ScaleAndZeroPoint>>> weighted;
  /// The Relu/Clip ops folded into their producer's output range.
  SmallVector<Operation *> foldedActivations;
  DenseSet<Operation *> quantized;
};

bool isSamePlan(const QuantizationPlan &a, const QuantizationPlan &b) {
  auto sameParams = [](ScaleAndZeroPoint x, ScaleAndZeroPoint y) {
    return x.scale == y.scale && x.zeroPoint == y.zeroPoint;
  };
  return a.tensors.size() == b.tensors.size() &&
         llvm::all_of(a.tensors,
                      [&](const auto &entry) {
                        auto it = b.tensors.find(entry.first);
                        return it != b.tensors.end() &&
                               sameParams(it->second, entry.second);
                      }) &&
         llvm::equal(llvm::make_first_range(a.weighted),
                     llvm::make_first_range(b.weighted)) &&
         a.foldedActivations == b.foldedActivations;
}

struct QuantizePass : public onnxq::impl::QuantizePassBase<QuantizePass> {
  using Base::Base;
  void runOnOperation() override;
  void getDependentDialects(DialectRegistry &registry) const override {
    registerJITDependencies(registry); // report= runs the graphs
  }

private:
  LogicalResult checkOptions(func::FuncOp func);
  /// mode=dynamic: the options that only static quantization reads.
  LogicalResult checkDynamicOptions(func::FuncOp func);
  /// mode=weight-only: the same, for weights-only quantization.
  LogicalResult checkWeightOnlyOptions(func::FuncOp func);
  /// What mode=dynamic and mode=weight-only both refuse: the options only
  /// static quantization reads, op types outside `supported`, calibrated
  /// ranges (which they would ignore); and exclude='s names.
  LogicalResult checkUncalibratedOptions(func::FuncOp func,
                                         ArrayRef<StringLiteral> supported);
  void runDynamic(func::FuncOp func);
  void runWeightOnly(func::FuncOp func);
  /// Why `op` stays float whatever its inputs; empty when it may be quantized.
  StringRef getFloatReason(Operation *op);
  bool isSelected(Operation *op) { return getFloatReason(op).empty(); }
  /// The parameters of activation `value` from its annotated range.
  FailureOr<ScaleAndZeroPoint> getActivationParams(Value value, Operation *user);
  void insertQDQ(Value value, ScaleAndZeroPoint params);
  /// Replaces the weights (and bias) of `op` with quantized constants and
  /// DequantizeLinear ops; returns the weight scales (one per channel).
  LogicalResult replaceWeights(Operation *op, std::optional<ScaleAndZeroPoint> input);
  FailureOr<QuantizationPlan> planQuantization(func::FuncOp func);
  /// The parameters of the Concat that alone reads `value`, if it is
  /// quantized: `value` is then quantized with them, so the Concat moves
  /// integers and each element is rounded once, straight onto the grid it
  /// ends on (instead of onto its own grid and then the Concat's). Not when
  /// they would undo `foldedActivation`, the Relu or Clip folded into
  /// `value`'s producer whose result `value` is.
  FailureOr<std::optional<ScaleAndZeroPoint>>
  getSharedConcatParams(Value value, Operation *foldedActivation);
  LogicalResult rewrite(const QuantizationPlan &plan);
  bool fallbackRequested() const { return sqnrFloor > 0 || maxFloatLayers >= 0; }
  bool isCodebook() const { return weights == "ewq" || weights == "fastewq"; }
  /// sqnr-floor= / max-float-layers=: measures, then fills `keptFloat`.
  FailureOr<FallbackResult> chooseFloatFallback(ModuleOp module, func::FuncOp func);

  QuantType activationType{}, weightType{};
  /// Nodes the accuracy fallback keeps in float.
  llvm::StringSet<> keptFloat;
};

LogicalResult QuantizePass::checkOptions(func::FuncOp func) {
  ModuleOp module = getOperation();
  auto fail = [&](const Twine &message) {
    module.emitError() << "onnx-quantize: " << message;
    return failure();
  };
  if (!llvm::is_contained({"static", "dynamic", "weight-only"}, mode))
    return fail("mode='" + mode + "' is not one of static, dynamic, weight-only");
  if (!llvm::is_contained({"u8", "s8", "u16", "s16"}, activations))
    return fail("activations='" + activations + "' is not one of u8, s8, u16, s16");
  if (!llvm::is_contained({"s8", "u8", "s16", "u16", "s4", "u4", "ewq", "fastewq"},
                          weights))
    return fail("weights='" + weights +
                "' is not one of s8, u8, s16, u16, s4, u4, ewq, fastewq");
  if (isCodebook()) {
    if (mode != "weight-only")
      return fail("weights=" + weights + " is a codebook of float levels: "
                  "quantize it with mode=weight-only");
    if (bits != 4 && bits != 8)
      return fail("bits=" + std::to_string(bits) + " must be 4 or 8");
    if (blockSize != 0)
      return fail("block-size= does not apply to weights=" + weights +
                  " (a codebook per channel, or per tensor with per-channel=false)");
  } else if (bits.hasValue()) {
    return fail("bits= is for weights=ewq|fastewq; the other weight types "
                "carry their width (s4, s8, ...)");
  }
  if (blockSize != 0 &&
      (blockSize < 16 || !llvm::isPowerOf2_64(uint64_t(blockSize))))
    return fail("block-size=" + std::to_string(blockSize) +
                " must be a power of 2 from 16 (0: per channel)");
  if (blockSize != 0 && !perChannel)
    return fail("block-size= gives each block of a channel its own scale; "
                "per-channel=false asks for one scale per tensor");
  if (blockSize != 0 && getBits(weights) == 16)
    return fail("block-size= is for 4- and 8-bit weights; weights=" + weights +
                " is quantized per channel");
  if (mode == "dynamic")
    return checkDynamicOptions(func);
  if (mode == "weight-only")
    return checkWeightOnlyOptions(func);
  for (const std::string &type : opTypes)
    if (!llvm::is_contained(kSupportedOpTypes, type))
      return fail("op-types: '" + type + "' cannot be quantized (supported: " +
                  llvm::join(llvm::map_range(kSupportedOpTypes,
                                             [](StringLiteral s) { return s.str(); }),
                             ", ") +
                  ")");
  if (sqnrFloor < 0)
    return fail("sqnr-floor=" + std::to_string(sqnrFloor) +
                " must be positive (dB; 0 turns the fallback off)");
  if (maxFloatLayers < -1)
    return fail("max-float-layers=" + std::to_string(maxFloatLayers) +
                " must be at least 0 (-1: no limit)");
  if (failed(checkNodeNamesExist(module, exclude, "onnx-quantize: exclude")))
    return failure();
  if (!hasAnnotatedRanges(func))
    return fail("the graph has no activation ranges; run "
                "--onnx-calibrate=\"data=DIR\" or "
                "--onnx-annotate-ranges=\"file=ranges.json\" before it");
  return success();
}

/// The failure of the option check of `mode`, reported on `module`.
static LogicalResult failOption(ModuleOp module, StringRef mode,
                                const Twine &message) {
  module.emitError() << "onnx-quantize: mode=" << mode << ": " << message;
  return failure();
}

LogicalResult QuantizePass::checkUncalibratedOptions(
    func::FuncOp func, ArrayRef<StringLiteral> supported) {
  ModuleOp module = getOperation();
  auto fail = [&](const Twine &message) { return failOption(module, mode, message); };
  for (const auto *option :
       {&report, &reportData, &reportPreprocess, &reportLabels})
    if (!option->empty())
      return fail(option->getArgStr() + "= is for mode=static; measure a " + mode +
                  " model with onnx-quant-debug FLOAT.onnx QUANT.onnx --data=DIR");
  if (reportSamples.hasValue() || fallbackRequested())
    return fail(Twine(reportSamples.hasValue() ? "report-samples"
                      : sqnrFloor > 0          ? "sqnr-floor"
                                               : "max-float-layers") +
                "= is for mode=static (no layer measured, none kept in float); "
                "use exclude= to keep layers in float");
  for (const std::string &type : opTypes)
    if (!llvm::is_contained(supported, type))
      return fail("op-types: '" + type + "' is not quantized by mode=" + mode +
                  " (it quantizes " +
                  llvm::join(llvm::map_range(supported,
                                             [](StringLiteral s) { return s.str(); }),
                             ", ") +
                  ")");
  if (failed(checkNodeNamesExist(module, exclude, "onnx-quantize: exclude")))
    return failure();
  if (hasAnnotatedRanges(func))
    return fail("the graph has calibrated ranges, which mode=" + mode +
                " does not use; drop --onnx-calibrate / --onnx-annotate-ranges, "
                "or quantize with mode=static");
  return success();
}

LogicalResult QuantizePass::checkDynamicOptions(func::FuncOp func) {
  auto fail = [&](const Twine &message) {
    return failOption(getOperation(), mode, message);
  };
  if (activations != "u8" || symmetricActivations)
    return fail(Twine(activations != "u8" ? "activations=" + activations
                                          : "symmetric-activations") +
                " does not apply: activations are quantized when the model "
                "runs, to u8 from their own range (DynamicQuantizeLinear)");
  if (getBits(weights) != 8)
    return fail("weights=" + weights + " does not apply: ConvInteger and MatMulInteger "
                "take 8-bit weights (s8 or u8)");
  if (blockSize != 0)
    return fail("block-size= does not apply: the product is rescaled once per "
                "output channel (quantize 4-bit or blocked weights with "
                "mode=weight-only or mode=static)");
  return checkUncalibratedOptions(func, kDynamicOpTypes);
}

LogicalResult QuantizePass::checkWeightOnlyOptions(func::FuncOp func) {
  auto fail = [&](const Twine &message) {
    return failOption(getOperation(), mode, message);
  };
  if (activations != "u8" || symmetricActivations)
    return fail(Twine(activations != "u8" ? "activations=" + activations
                                          : "symmetric-activations") +
                " does not apply: activations stay float");
  if (reduceRange)
    return fail("reduce-range does not apply: it keeps int8 products from "
                "overflowing 16 bits, and weight-only arithmetic is float");
  return checkUncalibratedOptions(func, kWeightOnlyOpTypes);
}

StringRef QuantizePass::getFloatReason(Operation *op) {
  if (!isComputeOp(op) && !isPassThrough(op))
    return "no quantized form for this op type";
  if (llvm::is_contained(exclude, getNodeName(op).str()))
    return "excluded by exclude=";
  if (keptFloat.contains(getNodeName(op)))
    return "kept in float by the accuracy fallback (sqnr-floor=, max-float-layers=)";
  std::string type = op->getName().stripDialect().str();
  if (!opTypes.empty() && !llvm::is_contained(opTypes, type))
    return "op type not in op-types=";
  // Float tensors only.
  if (!llvm::all_of(op->getResultTypes(), [](Type t) {
        return isa<FloatType>(getElementTypeOrSelf(t));
      }))
    return "not a float tensor op";
  return "";
}

FailureOr<ScaleAndZeroPoint> QuantizePass::getActivationParams(Value value,
                                                         Operation *user) {
  std::optional<std::pair<float, float>> range = getAnnotatedRange(value);
  if (!range) {
    InFlightDiagnostic diag = user->emitError()
                              << "onnx-quantize: an input of this node has no "
                                 "calibrated range";
    if (Operation *def = value.getDefiningOp())
      diag << " (the result of node '" << getNodeName(def) << "')";
    diag << "; calibrate after the passes that change the graph";
    return failure();
  }
  return computeScaleAndZeroPoint(range->first, range->second, activationType,
                            symmetricActivations);
}

void QuantizePass::insertQDQ(Value value, ScaleAndZeroPoint params) {
  MLIRContext *ctx = &getContext();
  OpBuilder b(ctx);
  if (Operation *def = value.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
  Location loc = value.getLoc();
  auto type = cast<RankedTensorType>(value.getType());
  Type intType = getIntType(ctx, activationType.isSigned, activationType.bits);
  auto scaleType = RankedTensorType::get({}, type.getElementType());
  auto zpType = RankedTensorType::get({}, intType);
  Value scale = ConstantOp::create(b, loc, createFloatElements(scaleType, {params.scale}));
  Value zp = ConstantOp::create(b, loc, createIntegerElements(zpType, {params.zeroPoint}));
  auto q = QuantizeLinearOp::create(b, loc, type.clone(intType), value, scale, zp,
                                    b.getI64IntegerAttr(1));
  auto dq = DequantizeLinearOp::create(b, loc, type, q, scale, zp,
                                       b.getI64IntegerAttr(1));
  value.replaceAllUsesExcept(dq, q);
}

LogicalResult QuantizePass::replaceWeights(Operation *op,
                                            std::optional<ScaleAndZeroPoint> input) {
  std::optional<std::pair<unsigned, int64_t>> weight = getWeightOperand(op);
  if (!weight)
    return success();
  unsigned index = weight->first;
  int64_t axis = weight->second;
  OpOperand &operand = op->getOpOperand(index);
  ElementsAttr attr = getConstantValue(operand.get());
  std::optional<SmallVector<float>> values = getFloatValues(attr);
  if (!values)
    return success(); // runtime weights: quantized as an activation instead
  auto type = cast<RankedTensorType>(attr.getType());
  // The bias this op's int32 bias will hold: its scale s_input * s_weight
  // must keep it in int32 (symmetric signed weights only, as ONNX Runtime).
  std::optional<SmallVector<float>> biasValues;
  if (input && op->getNumOperands() > 2 && !isa<MatMulOp>(op) &&
      weightType.isSigned)
    biasValues = getConstantFloats(op->getOperand(2));
  if (auto gemm = dyn_cast<GemmOp>(op); gemm && biasValues)
    for (float &v : *biasValues)
      v *= gemm.getBeta().convertToFloat();
  // Blocks cut the reduction axis: no one scale per output channel is left
  // for an int32 bias, which stays float.
  bool blocked = blockSize > 0;
  if (blocked) {
    axis = getReductionAxis(op);
    biasValues.reset();
    input.reset();
  }
  QuantizedWeights q = quantizeWeights(
      *values, type.getShape(), perChannel ? std::optional(axis) : std::nullopt,
      weightType,
      [&](MutableArrayRef<ScaleAndZeroPoint> params) {
        if (biasValues)
          widenWeightScalesForBias(params, input->scale, *biasValues);
      },
      blockSize,
      mode == "weight-only" ? WeightScaleRule::WeightOnly
                            : WeightScaleRule::SymmetricRange);
  const SmallVector<ScaleAndZeroPoint> &params = q.params;
  int64_t channels = params.size();

  MLIRContext *ctx = &getContext();
  OpBuilder b(op);
  Location loc = operand.get().getLoc();
  Type intType = getIntType(ctx, weightType.isSigned, weightType.bits);
  SmallVector<int64_t> paramShape;
  if (blocked) {
    paramShape.assign(type.getShape().begin(), type.getShape().end());
    paramShape[axis] = llvm::divideCeil(paramShape[axis], blockSize);
  } else if (perChannel) {
    paramShape.push_back(channels);
  }
  auto scaleType = RankedTensorType::get(paramShape, type.getElementType());
  auto zpType = RankedTensorType::get(paramShape, intType);
  Value qWeights =
      ConstantOp::create(b, loc, createIntegerElements(type.clone(intType), q.values));
  Value scale = ConstantOp::create(b, loc, createFloatElements(scaleType, q.getScales()));
  Value zp =
      ConstantOp::create(b, loc, createIntegerElements(zpType, q.getZeroPoints()));
  Value dq = DequantizeLinearOp::create(
      b, loc, type, qWeights, scale, zp, b.getI64IntegerAttr(axis),
      blocked ? b.getI64IntegerAttr(blockSize) : IntegerAttr());
  Operation *oldWeights = operand.get().getDefiningOp();
  operand.set(dq);
  if (oldWeights->use_empty())
    oldWeights->erase();

  // The bias: int32 with scale s_input * s_weight[c], one value per channel.
  unsigned biasIndex = 2;
  if (!input || op->getNumOperands() <= biasIndex || isa<MatMulOp>(op))
    return success();
  OpOperand &biasOperand = op->getOpOperand(biasIndex);
  ElementsAttr biasAttr = getConstantValue(biasOperand.get());
  std::optional<SmallVector<float>> bias = getFloatValues(biasAttr);
  auto biasType = biasAttr ? dyn_cast<RankedTensorType>(biasAttr.getType()) : nullptr;
  if (!bias || !biasType || biasType.getRank() != 1)
    return success(); // left in float
  int64_t outChannels = biasType.getDimSize(0);
  // ConvTranspose: output channel oc uses the scale of weight column oc % M/g.
  auto weightChannel = [&](int64_t c) {
    return perChannel ? c % channels : int64_t(0);
  };
  float beta = 1.0f;
  if (auto gemm = dyn_cast<GemmOp>(op))
    beta = gemm.getBeta().convertToFloat();
  SmallVector<int64_t> qBias;
  SmallVector<float> biasScales;
  for (int64_t c = 0; c < outChannels; ++c) {
    float s = input->scale * params[weightChannel(c)].scale;
    biasScales.push_back(s);
    double v = std::nearbyint(double(beta * (*bias)[c]) / double(s));
    qBias.push_back(int64_t(std::clamp(v, -2147483648.0, 2147483647.0)));
  }
  Location biasLoc = biasOperand.get().getLoc();
  auto i32 = RankedTensorType::get({outChannels}, b.getI32Type());
  Value qb = ConstantOp::create(b, biasLoc, createIntegerElements(i32, qBias));
  Value bs = ConstantOp::create(
      b, biasLoc, createFloatElements(biasType.clone(type.getElementType()), biasScales));
  Value dqBias = DequantizeLinearOp::create(b, biasLoc, biasType, qb, bs, Value(),
                                            b.getI64IntegerAttr(0));
  Operation *oldBias = biasOperand.get().getDefiningOp();
  biasOperand.set(dqBias);
  if (oldBias->use_empty())
    oldBias->erase();
  if (auto gemm = dyn_cast<GemmOp>(op))
    gemm.setBeta(APFloat(1.0f));
  return success();
}

FailureOr<QuantizationPlan> QuantizePass::planQuantization(func::FuncOp func) {
  // Decide, in program order, which tensors get Q/DQ and with what.
  QuantizationPlan plan;
  auto &[tensors, weighted, foldedActivations, quantized] = plan;
  // A folded Relu/Clip's result stands for its producer's output (the
  // rewrite replaces it; planning leaves the graph as it is, so that it can
  // plan again with other layers in float).
  DenseMap<Value, Value> foldedInto;
  auto resolve = [&](Value value) { return foldedInto.lookup_or(value, value); };
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (!isSelected(op))
      continue;
    if (isPassThrough(op)) {
      auto input = tensors.find(resolve(op->getOperand(0)));
      if (input == tensors.end())
        continue; // a float input stays float
      quantized.insert(op);
      tensors.insert({op->getResult(0), input->second});
      continue;
    }
    // A Relu or Clip whose input was produced by a quantized op was folded.
    if (isa<ReluOp, ClipOp>(op) && llvm::is_contained(foldedActivations, op))
      continue;
    std::optional<ScaleAndZeroPoint> inputParams;
    for (unsigned i : getActivationOperands(op)) {
      Value operand = resolve(op->getOperand(i));
      if (getConstantValue(operand) && !isa<AddOp, MulOp, ConcatOp>(op))
        continue;
      auto it = tensors.find(operand);
      FailureOr<ScaleAndZeroPoint> params =
          it != tensors.end() ? FailureOr<ScaleAndZeroPoint>(it->second)
          : getConstantValue(operand)
              ? FailureOr<ScaleAndZeroPoint>(computeScaleAndZeroPoint(
                    [&] {
                      auto v = *getConstantFloats(operand);
                      return *std::min_element(v.begin(), v.end());
                    }(),
                    [&] {
                      auto v = *getConstantFloats(operand);
                      return *std::max_element(v.begin(), v.end());
                    }(),
                    activationType, symmetricActivations))
              : getActivationParams(operand, op);
      if (failed(params))
        return failure();
      tensors.insert({operand, *params});
      if (i == 0)
        inputParams = *params;
    }
    quantized.insert(op);
    weighted.push_back({op, inputParams});
    // The output: its own range, or the range of a Relu/Clip from 0 that
    // only this op feeds (the activation then becomes saturation).
    Value output = op->getResult(0);
    Value rangeOf = output;
    if (output.hasOneUse() && !isa<ReluOp, ClipOp>(op)) {
      Operation *user = *output.getUsers().begin();
      bool clipFromZero = false;
      if (auto clip = dyn_cast<ClipOp>(user)) {
        auto lo = clip.getMin() ? getConstantFloats(clip.getMin())
                                : std::nullopt;
        clipFromZero = lo && lo->size() == 1 && (*lo)[0] == 0.0f;
      }
      if ((isa<ReluOp>(user) || clipFromZero) && isSelected(user)) {
        // Its users read the producer from now on (erased at the end).
        foldedActivations.push_back(user);
        rangeOf = user->getResult(0);
      }
    }
    FailureOr<ScaleAndZeroPoint> params = getActivationParams(rangeOf, op);
    if (failed(params))
      return failure();
    if (rangeOf != output) {
      // Relu: the range starts at 0 (saturation at the zero point is the Relu).
      auto range = getAnnotatedRange(rangeOf);
      params = computeScaleAndZeroPoint(std::max(0.0f, range->first), range->second,
                                  activationType, symmetricActivations);
      foldedInto[rangeOf] = output;
    }
    FailureOr<std::optional<ScaleAndZeroPoint>> shared =
        getSharedConcatParams(rangeOf, rangeOf != output ? rangeOf.getDefiningOp() : nullptr);
    if (failed(shared))
      return failure();
    tensors.insert({output, shared->value_or(*params)});
  }
  return plan;
}

FailureOr<std::optional<ScaleAndZeroPoint>>
QuantizePass::getSharedConcatParams(Value value, Operation *foldedActivation) {
  if (!value.hasOneUse())
    return std::optional<ScaleAndZeroPoint>();
  auto concat = dyn_cast<ConcatOp>(*value.getUsers().begin());
  if (!concat || !isSelected(concat))
    return std::optional<ScaleAndZeroPoint>();
  // A Concat that only an outer Concat reads shares the outer one's
  // parameters in turn (Inception's nested branches).
  FailureOr<std::optional<ScaleAndZeroPoint>> outer =
      getSharedConcatParams(concat.getResult(), nullptr);
  if (failed(outer))
    return failure();
  FailureOr<ScaleAndZeroPoint> params =
      *outer ? FailureOr<ScaleAndZeroPoint>(**outer)
             : getActivationParams(concat.getResult(), concat);
  if (failed(params))
    return failure();
  // A folded Relu is saturation at the zero point: it must stay the lowest
  // value. A folded Clip's upper bound would be lost.
  if (foldedActivation &&
      (!isa<ReluOp>(foldedActivation) || params->zeroPoint != activationType.qmin))
    return std::optional<ScaleAndZeroPoint>();
  return std::optional(*params);
}

LogicalResult QuantizePass::rewrite(const QuantizationPlan &plan) {
  // Rewrite: fold the activations, quantize weights, insert Q/DQ pairs.
  for (Operation *activation : plan.foldedActivations) {
    activation->getResult(0).replaceAllUsesWith(activation->getOperand(0));
    activation->erase();
  }
  for (auto &[op, input] : plan.weighted)
    if (failed(replaceWeights(op, input)))
      return failure();
  for (auto &[value, params] : plan.tensors)
    insertQDQ(value, params);
  return success();
}

FailureOr<FallbackResult> QuantizePass::chooseFloatFallback(ModuleOp module,
                                                           func::FuncOp func) {
  MeasurementData data = chooseMeasurementData(module, reportData, reportPreprocess);
  if (data.data.empty())
    return module.emitError()
           << "onnx-quantize: sqnr-floor= and max-float-layers= measure the "
              "model on samples: "
           << data.note;
  FallbackOptions options;
  if (sqnrFloor > 0)
    options.sqnrFloor = sqnrFloor;
  if (maxFloatLayers >= 0)
    options.maxFloatLayers = maxFloatLayers;
  options.quiet = quiet;
  FailureOr<SampleSpec> samples =
      data.getSampleSpec(reportSamples, "onnx-quantize", module.getLoc());
  if (failed(samples))
    return failure();
  options.samples = std::move(*samples);
  // The candidates: every layer quantizing the whole graph would quantize.
  FailureOr<QuantizationPlan> all = planQuantization(func);
  if (failed(all))
    return failure();
  std::vector<std::string> candidates;
  for (Operation *op : llvm::make_first_range(all->weighted))
    if (StringRef name = getNodeName(op); !name.empty())
      candidates.push_back(name.str());

  auto quantizeCopy =
      [&](const llvm::StringSet<> &floatNodes) -> FailureOr<OwningOpRef<ModuleOp>> {
    // Planning leaves the graph as it is: plan here first, and skip the
    // copy when keeping these layers in float changes nothing (a Concat
    // whose inputs and output stay quantized for their other ops).
    keptFloat = floatNodes;
    llvm::scope_exit quantizeAllAgain([&] { keptFloat.clear(); });
    FailureOr<QuantizationPlan> here = planQuantization(func);
    if (failed(here))
      return failure();
    if (!floatNodes.empty() && isSamePlan(*here, *all))
      return OwningOpRef<ModuleOp>();
    OwningOpRef<ModuleOp> copy = module.clone();
    FailureOr<func::FuncOp> copyFunc = getGraphFunction(*copy, "onnx-quantize");
    if (failed(copyFunc))
      return failure();
    FailureOr<QuantizationPlan> plan = planQuantization(*copyFunc);
    if (failed(plan) || failed(rewrite(*plan)))
      return failure();
    return copy;
  };
  FailureOr<FallbackResult> result =
      searchFloatFallback(module, candidates, quantizeCopy, options, module.getLoc());
  if (failed(result))
    return failure();
  for (const FallbackStep &step : result->kept)
    keptFloat.insert(step.node);
  if (!quiet)
    printFallbackSummary(*result, llvm::errs());
  return result;
}

void QuantizePass::runDynamic(func::FuncOp func) {
  foldConstantSubgraphs(func);
  SmallVector<Operation *> ops;
  SmallVector<std::pair<Operation *, StringRef>> leftFloat;
  func.walk([&](Operation *op) {
    if (!isa<ConvOp, MatMulOp, GemmOp>(op))
      return;
    StringRef reason = getFloatReason(op);
    if (reason.empty())
      reason = getDynamicFloatReason(op);
    if (reason.empty())
      ops.push_back(op);
    else
      leftFloat.push_back({op, reason});
  });
  quantizeDynamically(ops, {weightType, perChannel});
  if (quiet)
    return;
  llvm::errs() << "onnx-quantize: mode=dynamic: " << ops.size()
               << " ops quantized (activations quantized when the model runs)";
  if (!leftFloat.empty())
    llvm::errs() << "; " << leftFloat.size() << " Conv/MatMul/Gemm left float";
  llvm::errs() << "\n";
  for (auto [op, reason] : leftFloat)
    llvm::errs() << "  " << op->getName().stripDialect() << " '" << getNodeName(op)
                 << "': " << reason << "\n";
}

void QuantizePass::runWeightOnly(func::FuncOp func) {
  foldConstantSubgraphs(func);
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    std::string type = op->getName().stripDialect().str();
    if (llvm::is_contained(kWeightOnlyOpTypes, type) && getWeightOperand(op) &&
        isSelected(op))
      ops.push_back(op);
  });
  if (isCodebook()) {
    CodebookOptions options{weights == "ewq" ? CodebookMethod::EWQ
                                             : CodebookMethod::FastEWQ,
                            bits, perChannel};
    SmallVector<WeightOperand> operands = llvm::map_to_vector(ops, [&](Operation *op) {
      auto [operand, axis] = *getWeightOperand(op);
      return WeightOperand{op, operand, axis};
    });
    CodebookSummary summary = quantizeWithCodebooks(operands, options);
    if (!quiet)
      printCodebookSummary(summary, options, llvm::errs());
    return;
  }
  int64_t quantized = 0;
  for (Operation *op : ops) {
    Value weight = op->getOperand(getWeightOperand(op)->first);
    if (!getFloatValues(getConstantValue(weight)))
      continue; // computed weights stay float
    (void)replaceWeights(op, /*input=*/std::nullopt);
    ++quantized;
  }
  if (!quiet)
    llvm::errs() << "onnx-quantize: mode=weight-only: the weights of "
                 << quantized << " ops quantized to " << weights
                 << (blockSize ? " in blocks of " + std::to_string(blockSize)
                               : std::string(perChannel ? " per channel"
                                                        : " per tensor"))
                 << " (activations stay float)\n";
}

void QuantizePass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<func::FuncOp> graph = getGraphFunction(module, "onnx-quantize");
  if (failed(graph))
    return signalPassFailure();
  func::FuncOp func = *graph;
  if (failed(checkOptions(func)))
    return signalPassFailure();
  activationType = QuantType::get(activations[0] == 's', symmetricActivations,
                                  /*reduceRange=*/false, getBits(activations));
  // Weight-only scales put the extreme weight on the type's lowest value:
  // the whole range.
  weightType = QuantType::get(weights[0] == 's',
                              /*symmetric=*/mode != "weight-only", reduceRange,
                              getBits(weights));
  Builder b(&getContext());
  auto recordSettings = [&] {
    SmallVector<NamedAttribute> settings{
        b.getNamedAttr("mode", b.getStringAttr(mode)),
        b.getNamedAttr("activations", b.getStringAttr(activations)),
        b.getNamedAttr("weights", b.getStringAttr(weights)),
        b.getNamedAttr("per_channel", b.getBoolAttr(perChannel))};
    if (blockSize)
      settings.push_back(b.getNamedAttr("block_size", b.getI64IntegerAttr(blockSize)));
    if (isCodebook())
      settings.push_back(b.getNamedAttr("bits", b.getI64IntegerAttr(bits)));
    module->setAttr(kQuantizationAttrName, b.getDictionaryAttr(settings));
  };
  if (mode == "dynamic" || mode == "weight-only") {
    if (mode == "dynamic")
      runDynamic(func);
    else
      runWeightOnly(func);
    recordSettings();
    return;
  }
  foldConstantSubgraphs(func);
  std::unique_ptr<ReportBuilder> reporter;
  if (!report.empty()) {
    std::string settings = "activations=" + activations + " weights=" +
                           weights + " per-channel=" +
                           (perChannel ? "true" : "false");
    if (reduceRange)
      settings += " reduce-range=true";
    if (symmetricActivations)
      settings += " symmetric-activations=true";
    auto created = ReportBuilder::create(
        module, func, {report, reportData, reportPreprocess, reportSamples,
                       reportLabels, quiet, settings});
    if (failed(created))
      return signalPassFailure();
    reporter = std::move(*created);
  }

  if (fallbackRequested()) {
    FailureOr<FallbackResult> fallback = chooseFloatFallback(module, func);
    if (failed(fallback))
      return signalPassFailure();
    if (reporter)
      reporter->setFallback(std::move(*fallback));
  }
  FailureOr<QuantizationPlan> plan = planQuantization(func);
  if (failed(plan))
    return signalPassFailure();
  if (reporter)
    reporter->recordDecisions(
        func, llvm::to_vector(llvm::make_first_range(plan->weighted)),
        plan->foldedActivations, plan->quantized,
        [&](Operation *op) { return getFloatReason(op); });

  if (failed(rewrite(*plan)))
    return signalPassFailure();

  recordSettings();
  if (reporter && failed(reporter->finish(module, func)))
    return signalPassFailure();
}

} // namespace
