//===- CodebookQuantize.cpp - weights=ewq|fastewq -------------------------===//

#include "CodebookQuantize.h"
#include "QuantizationError.h"
#include "ScaleAndZeroPoint.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXTypes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Format.h"

#include <chrono>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// The weight SQNR (dB) of `approximated`, as the quantization report's.
double getSQNR(ArrayRef<float> weights, ArrayRef<float> approximated) {
  SQNR sqnr;
  sqnr.add(weights, approximated);
  return sqnr.getDecibels();
}

/// The weights after uniform weight-only quantization at `bits`, signed,
/// per channel or per tensor (the comparison the summary gives).
SmallVector<float> getUniform(ArrayRef<float> weights, ArrayRef<int64_t> shape,
                              std::optional<int64_t> axis, unsigned bits) {
  QuantType type = QuantType::get(/*isSigned=*/true, /*symmetric=*/false,
                                  /*reduceRange=*/false, bits);
  QuantizedWeights q = quantizeWeights(weights, shape, axis, type, nullptr, 0,
                                       WeightScaleRule::WeightOnly);
  AxisLayout layout = AxisLayout::get(shape, axis);
  SmallVector<float> result;
  for (auto [i, v] : llvm::enumerate(q.values)) {
    ScaleAndZeroPoint p = q.params[layout.getChannel(int64_t(i))];
    result.push_back(float(v - p.zeroPoint) * p.scale);
  }
  return result;
}

template <typename Fn> double timeSeconds(Fn fn) {
  auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Gather(levels, Cast(indices) + channel * 2^bits) in place of `operand`.
void rewriteWeight(OpOperand &operand, const CodebookWeights &codebook,
                   std::optional<int64_t> axis, unsigned bits) {
  auto type = cast<RankedTensorType>(operand.get().getType());
  OpBuilder b(operand.getOwner());
  MLIRContext *ctx = b.getContext();
  Location loc = operand.get().getLoc();
  auto indexType = type.clone(IntegerType::get(ctx, bits, IntegerType::Unsigned));
  auto i32Type = type.clone(b.getI32Type());
  Value indices =
      ConstantOp::create(b, loc, createIntegerElements(indexType, codebook.indices));
  Value levels = ConstantOp::create(
      b, loc,
      createFloatElements(
          RankedTensorType::get({int64_t(codebook.levels.size())}, b.getF32Type()),
          codebook.levels));
  Value index = CastOp::create(b, loc, i32Type, indices,
                               b.getI64IntegerAttr(int64_t(ONNXDataType::Int32)));
  if (axis) {
    // Channel c's levels start at c * 2^bits.
    SmallVector<int64_t> shape(type.getRank(), 1), starts;
    shape[*axis] = type.getDimSize(*axis);
    for (int64_t c = 0; c < shape[*axis]; ++c)
      starts.push_back(c << bits);
    Value offsets = ConstantOp::create(
        b, loc, createIntegerElements(RankedTensorType::get(shape, b.getI32Type()), starts));
    index = AddOp::create(b, loc, i32Type, index, offsets);
  }
  Operation *old = operand.get().getDefiningOp();
  operand.set(GatherOp::create(b, loc, type, levels, index, b.getI64IntegerAttr(0)));
  if (old && old->use_empty())
    old->erase();
}

} // namespace

CodebookSummary mlir::onnxq::quantizeWithCodebooks(ArrayRef<WeightOperand> weights,
                                                   const CodebookOptions &options) {
  CodebookSummary summary;
  for (const WeightOperand &weight : weights) {
    OpOperand &operand = weight.op->getOpOperand(weight.operand);
    std::optional<SmallVector<float>> values = getConstantFloats(operand.get());
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!values || !type || !type.hasStaticShape())
      continue;
    std::optional<int64_t> axis =
        options.perChannel ? std::optional(weight.channelAxis) : std::nullopt;
    ArrayRef<int64_t> shape = type.getShape();
    CodebookWeights ewq, fast;
    summary.ewqSeconds += timeSeconds([&] {
      ewq = computeCodebook(*values, shape, axis, options.bits, CodebookMethod::EWQ);
    });
    summary.fastEWQSeconds += timeSeconds([&] {
      fast = computeCodebook(*values, shape, axis, options.bits, CodebookMethod::FastEWQ);
    });
    summary.layers.push_back(
        {getNodeName(weight.op).str(),
         getSQNR(*values, getUniform(*values, shape, axis, options.bits)),
         getSQNR(*values, decodeCodebook(ewq, shape, axis, options.bits)),
         getSQNR(*values, decodeCodebook(fast, shape, axis, options.bits))});
    rewriteWeight(operand, options.method == CodebookMethod::EWQ ? ewq : fast, axis,
                  options.bits);
  }
  return summary;
}

void mlir::onnxq::printCodebookSummary(const CodebookSummary &summary,
                                       const CodebookOptions &options,
                                       raw_ostream &os) {
  os << "onnx-quantize: mode=weight-only: the weights of " << summary.layers.size()
     << " ops as " << options.bits << "-bit "
     << (options.method == CodebookMethod::EWQ ? "EWQ" : "FastEWQ") << " codebooks "
     << (options.perChannel ? "per channel" : "per tensor")
     << " (activations stay float)\n";
  std::string uniform = "uniform s" + std::to_string(options.bits);
  os << llvm::format("  %-32s %12s %8s %8s\n", "weight SQNR (dB)", uniform.c_str(),
                     "EWQ", "FastEWQ");
  for (const CodebookSummary::Layer &layer : summary.layers)
    os << llvm::format("  %-32s %12.2f %8.2f %8.2f\n", layer.node.c_str(),
                       layer.uniform, layer.ewq, layer.fastEWQ);
  os << llvm::format("  codebooks computed in %.1f ms (EWQ) and %.1f ms (FastEWQ)\n",
                     1e3 * summary.ewqSeconds, 1e3 * summary.fastEWQSeconds);
}
