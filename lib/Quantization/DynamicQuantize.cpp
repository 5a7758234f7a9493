//===- DynamicQuantize.cpp - onnx-quantize mode=dynamic -------------------===//
//
// The rewrite follows ONNX Runtime's ConvInteger and MatMulInteger
// quantizers (onnxruntime/python/tools/quantization/operators), so that an
// exported model is what quantize_dynamic writes and both run alike:
//   DynamicQuantizeLinear(x) -> (x_q, s_x, zp_x)
//   ConvInteger / MatMulInteger(x_q, w_q, zp_x, zp_w) -> int32
//   Cast -> Mul(., Mul(s_x, s_w)) [-> Add(bias)]
// Two departures, both still models ONNX Runtime runs: Gemm (which
// quantize_dynamic leaves in float) becomes a MatMulInteger on alpha * B'
// plus beta * C, and Conv weights per output channel take their scales in
// the rescaling Mul (shape (F, 1, ...)) with one zero point: symmetric
// weights have the same zero point in every channel, and ONNX Runtime's
// ConvInteger takes only one.
//
//===----------------------------------------------------------------------===//

#include "DynamicQuantize.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// ONNX TensorProto.FLOAT, Cast's `to`.
constexpr int64_t kOnnxFloat = 1;

/// The constant weights of a dynamic op as (rows..., channels last for
/// MatMul and Gemm: (K, N); Conv: (F, C/group, k...)) and their channel axis.
struct DynamicWeights {
  SmallVector<float> values;
  SmallVector<int64_t> shape;
  int64_t channelAxis = 0;
};

/// The weights of `op` in the form its integer op reads; nullopt when they
/// are not float32 constants of that form.
std::optional<DynamicWeights> getDynamicWeights(Operation *op) {
  Value weights = op->getOperand(1);
  std::optional<SmallVector<float>> values = getConstantFloats(weights);
  auto type = dyn_cast<RankedTensorType>(weights.getType());
  if (!values || !type || !type.getElementType().isF32())
    return std::nullopt;
  DynamicWeights w{std::move(*values), llvm::to_vector(type.getShape()), 0};
  if (isa<ConvOp>(op))
    return w;
  if (type.getRank() != 2)
    return std::nullopt;
  w.channelAxis = 1;
  auto gemm = dyn_cast<GemmOp>(op);
  if (!gemm)
    return w;
  // alpha * B', (K, N).
  float alpha = gemm.getAlpha().convertToFloat();
  int64_t rows = w.shape[0], cols = w.shape[1];
  SmallVector<float> product(w.values.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t to = gemm.getTransB() ? j * rows + i : i * cols + j;
      product[to] = alpha * w.values[i * cols + j];
    }
  if (gemm.getTransB())
    std::swap(w.shape[0], w.shape[1]);
  w.values = std::move(product);
  return w;
}

/// `loc` named after its node with `suffix`, as ONNX Runtime names the nodes
/// it adds ("conv" -> "conv_quant").
Location withSuffix(Location loc, StringRef suffix) {
  StringRef node = getNodeName(loc);
  if (node.empty())
    return loc;
  return NameLoc::get(StringAttr::get(loc.getContext(), node + suffix), loc);
}

/// The constants an integer op reads for its weights.
struct WeightConstants {
  Value weights, scale, zeroPoint;
};

/// What DynamicQuantizeLinear gives for one activation tensor.
struct QuantizedActivation {
  Value x, scale, zeroPoint;
};

class DynamicQuantizer {
public:
  explicit DynamicQuantizer(const DynamicQuantizationOptions &options)
      : options(options) {}
  void rewrite(Operation *op);
  /// The float weights and biases that no op reads any more (erased at the
  /// end: the weights cache is keyed by them).
  void eraseUnusedFloatConstants();

private:
  QuantizedActivation quantizeActivation(Value x);
  /// The quantized weights of `op` (shared by the ops reading the same
  /// float weights in the same form).
  WeightConstants quantizeWeightsOf(Operation *op);
  /// `value` plus the bias of `op`, if it has one: Conv's B as (F, 1, ...),
  /// Gemm's beta * C.
  Value addBias(OpBuilder &b, Operation *op, Value value);

  const DynamicQuantizationOptions &options;
  DenseMap<Value, QuantizedActivation> activations;
  DenseMap<Value, WeightConstants> weightsOf;
  llvm::SetVector<ConstantOp> floatConstants;
};

QuantizedActivation DynamicQuantizer::quantizeActivation(Value x) {
  auto it = activations.find(x);
  if (it != activations.end())
    return it->second;
  OpBuilder b(x.getContext());
  if (Operation *def = x.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(x).getOwner());
  auto type = cast<RankedTensorType>(x.getType());
  Type u8 = IntegerType::get(x.getContext(), 8, IntegerType::Unsigned);
  Location loc = x.getLoc();
  if (auto arg = dyn_cast<BlockArgument>(x)) {
    auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (StringRef name = getInputName(func, arg.getArgNumber()); !name.empty())
      loc = NameLoc::get(StringAttr::get(x.getContext(), name), loc);
  }
  auto quantize = DynamicQuantizeLinearOp::create(
      b, withSuffix(loc, "_QuantizeLinear"), type.clone(u8),
      RankedTensorType::get({}, type.getElementType()),
      RankedTensorType::get({}, u8), x);
  QuantizedActivation q{quantize.getY(), quantize.getYScale(),
                        quantize.getYZeroPoint()};
  return activations[x] = q;
}

Value DynamicQuantizer::addBias(OpBuilder &b, Operation *op, Value value) {
  Location loc = op->getLoc();
  if (auto conv = dyn_cast<ConvOp>(op)) {
    if (!conv.getB())
      return value;
    SmallVector<float> bias = *getConstantFloats(conv.getB());
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape(type.getRank() - 1, 1);
    shape[0] = bias.size();
    Value c = ConstantOp::create(
        b, loc, createFloatElements(RankedTensorType::get(shape, type.getElementType()), bias));
    return AddOp::create(b, withSuffix(loc, "_bias_add"), type, value, c);
  }
  auto gemm = dyn_cast<GemmOp>(op);
  if (!gemm || !gemm.getC())
    return value;
  Value c = gemm.getC();
  float beta = gemm.getBeta().convertToFloat();
  if (beta != 1.0f) {
    SmallVector<float> scaled = *getConstantFloats(c);
    for (float &v : scaled)
      v *= beta;
    c = ConstantOp::create(
        b, loc, createFloatElements(cast<ShapedType>(c.getType()), scaled));
  }
  return AddOp::create(b, withSuffix(loc, "_bias_add"), value.getType(), value, c);
}

WeightConstants DynamicQuantizer::quantizeWeightsOf(Operation *op) {
  // Gemm's weights are alpha * B', its own.
  Value source = op->getOperand(1);
  bool shareable = !isa<GemmOp>(op);
  if (auto it = weightsOf.find(source); shareable && it != weightsOf.end())
    return it->second;
  MLIRContext *ctx = op->getContext();
  DynamicWeights w = *getDynamicWeights(op);
  QuantizedWeights q = quantizeWeights(
      w.values, w.shape,
      options.perChannel ? std::optional(w.channelAxis) : std::nullopt,
      options.weightType);
  OpBuilder b(op);
  Location loc = source.getLoc();
  Type weightType = IntegerType::get(ctx, 8,
                                     options.weightType.isSigned
                                         ? IntegerType::Signless
                                         : IntegerType::Unsigned);
  // Shapes of the scale and zero point: a ConvInteger takes one zero point
  // (the same in every channel of symmetric weights) and its output's
  // channels are dim 1, so the scales broadcast as (F, 1, ...).
  SmallVector<int64_t> scaleShape, zeroPointShape;
  if (q.params.size() > 1) {
    scaleShape.push_back(q.params.size());
    if (isa<ConvOp>(op))
      scaleShape.append(w.shape.size() - 2, 1);
    else
      zeroPointShape.push_back(q.params.size());
  }
  SmallVector<int64_t> zeroPoints = q.getZeroPoints();
  zeroPoints.resize(ShapedType::getNumElements(zeroPointShape));
  Type f32 = b.getF32Type();
  WeightConstants constants{
      ConstantOp::create(b, withSuffix(loc, "_quantized"),
                         createIntegerElements(
                             RankedTensorType::get(w.shape, weightType), q.values)),
      ConstantOp::create(
          b, withSuffix(loc, "_scale"),
          createFloatElements(RankedTensorType::get(scaleShape, f32), q.getScales())),
      ConstantOp::create(
          b, withSuffix(loc, "_zero_point"),
          createIntegerElements(RankedTensorType::get(zeroPointShape, weightType),
                                zeroPoints))};
  if (shareable)
    weightsOf[source] = constants;
  return constants;
}

void DynamicQuantizer::rewrite(Operation *op) {
  WeightConstants w = quantizeWeightsOf(op);
  QuantizedActivation x = quantizeActivation(op->getOperand(0));
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  auto accType = resultType.clone(b.getI32Type());
  Value acc;
  Location integerLoc = withSuffix(loc, "_quant");
  if (auto conv = dyn_cast<ConvOp>(op))
    acc = ConvIntegerOp::create(b, integerLoc, accType, x.x, w.weights, x.zeroPoint,
                                w.zeroPoint, conv.getAutoPadAttr(),
                                conv.getDilationsAttr(), conv.getGroupAttr(),
                                conv.getKernelShapeAttr(), conv.getPadsAttr(),
                                conv.getStridesAttr());
  else
    acc = MatMulIntegerOp::create(b, integerLoc, accType, x.x, w.weights,
                                  x.zeroPoint, w.zeroPoint);
  Value asFloat = CastOp::create(b, withSuffix(loc, "_quant_cast"), resultType, acc,
                                 b.getI64IntegerAttr(kOnnxFloat));
  Value scale = MulOp::create(b, withSuffix(loc, "_quant_scales_mul"),
                              w.scale.getType(), x.scale, w.scale);
  Value y = MulOp::create(b, withSuffix(loc, "_quant_output_scale_mul"), resultType,
                          asFloat, scale);
  y = addBias(b, op, y);

  for (Value operand : op->getOperands().drop_front())
    if (auto constant = operand.getDefiningOp<ConstantOp>())
      floatConstants.insert(constant);
  op->getResult(0).replaceAllUsesWith(y);
  op->erase();
}

void DynamicQuantizer::eraseUnusedFloatConstants() {
  for (ConstantOp constant : floatConstants)
    if (constant->use_empty())
      constant->erase();
  floatConstants.clear();
}

} // namespace

StringRef mlir::onnxq::getDynamicFloatReason(Operation *op) {
  if (!isa<ConvOp, MatMulOp, GemmOp>(op))
    return "no dynamic form for this op type (mode=dynamic: Conv, MatMul, Gemm)";
  auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!input || !result || !input.getElementType().isF32() ||
      !result.getElementType().isF32())
    return "DynamicQuantizeLinear takes float32 tensors of known rank";
  if (getConstantValue(op->getOperand(0)))
    return "its input is a constant";
  if (!isa<ConvOp>(op) && input.getRank() < 2)
    return "a 1-D input";
  if (!getDynamicWeights(op))
    return isa<ConvOp>(op) ? "weights are not a float32 constant"
                           : "B is not a 2-D float32 constant";
  if (auto conv = dyn_cast<ConvOp>(op);
      conv && conv.getB() && !getConstantFloats(conv.getB()))
    return "bias is not a constant";
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    if (gemm.getTransA())
      return "Gemm with transA=1";
    if (gemm.getC() && gemm.getBeta().convertToFloat() != 1.0f &&
        !getConstantFloats(gemm.getC()))
      return "Gemm with beta != 1 and a C that is not a constant";
  }
  return "";
}

void mlir::onnxq::quantizeDynamically(ArrayRef<Operation *> ops,
                                      const DynamicQuantizationOptions &options) {
  DynamicQuantizer quantizer(options);
  for (Operation *op : ops)
    quantizer.rewrite(op);
  quantizer.eraseUnusedFloatConstants();
}
