//===- MicrosoftExpansions.cpp - com.microsoft ops imported as others -----===//
//
// Ops of ONNX Runtime's com.microsoft domain that the dialect has no op for
// but spells with its own: the importer expands them where they appear.
// MatMulNBits (ORT's 4-bit weight-only MatMul, from matmul_nbits_quantizer)
// is a blocked DequantizeLinear of its packed weights and a MatMul, the form
// its QDQ export has.
//
//===----------------------------------------------------------------------===//

#include "OpsetHandlers.h"

#include "onnx-quant/Import/ONNXImporter.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Dialect/ONNX/IR/ShapeInference.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::onnxq;

ArrayRef<std::pair<StringRef, StringRef>> mlir::onnxq::getImportExpansions() {
  static const std::pair<StringRef, StringRef> kExpanded[] = {
      {"MatMulNBits", "com.microsoft"}};
  return kExpanded;
}

/// `op`'s result typed by its shape rule (ops a handler makes that no node
/// output names, which the importer does not type).
static void typeByShapeRule(Operation *op) {
  SmallVector<Type> types;
  if (auto rule = dyn_cast<ShapeInferenceOpInterface>(op);
      rule && succeeded(rule.inferResultTypes(types)))
    for (auto [result, type] : llvm::zip(op->getResults(), types))
      result.setType(type);
}

// MatMulNBits(A, B, scales, zero_points?, g_idx?, bias?) with attributes K,
// N, bits, block_size: B is (N, ceil(K / block_size), block_size * bits / 8)
// bytes, column n's weights along K packed low bits first; scales and
// zero points (packed the same way, 2^(bits-1) when absent) one per
// (n, block). Y = A x W + bias, W[k][n] = (q - zp) * scale.
LogicalResult mlir::onnxq::importMatMulNBits(GraphImporter &importer,
                                             ImportedNode &node,
                                             SmallVectorImpl<Value> &results) {
  auto error = [&] { return importer.emitNodeError(node); };
  std::optional<int64_t> k = takeInt(node, "K"), n = takeInt(node, "N");
  std::optional<int64_t> block = takeInt(node, "block_size");
  int64_t bits = takeInt(node, "bits").value_or(4);
  takeInt(node, "accuracy_level"); // a precision floor; float computes above it
  if (!k || !n || !block || *k <= 0 || *n <= 0)
    return error() << "needs positive attributes K, N and block_size";
  if (bits != 4 && bits != 8)
    return error() << "bits = " << bits << " is not supported (4 or 8)";
  if (*block < 16 || !llvm::isPowerOf2_64(uint64_t(*block)))
    return error() << "block_size = " << *block
                   << " must be a power of 2 from 16";
  if (getInput(node, 4))
    return error() << "g_idx (input 4) is not supported";
  int64_t blocks = llvm::divideCeil(*k, *block);
  int64_t blob = *block * bits / 8;
  std::optional<SmallVector<int64_t>> packed =
      getConstantIntegers(getInput(node, 1));
  std::optional<SmallVector<float>> scales = getConstantFloats(getInput(node, 2));
  if (!packed || !scales)
    return error() << "B and scales (inputs 1, 2) must be constants";
  if (int64_t(packed->size()) != *n * blocks * blob ||
      int64_t(scales->size()) != *n * blocks)
    return error() << "B holds " << packed->size() << " bytes and scales "
                   << scales->size() << " values; N = " << *n << ", K = "
                   << *k << " in blocks of " << *block << " need "
                   << *n * blocks * blob << " and " << *n * blocks;
  // Zero points: packed like B, one per (n, block), or the middle value.
  int64_t zpPerColumn = llvm::divideCeil(blocks * bits, 8);
  SmallVector<int64_t> zeroPoints(*n * blocks, int64_t(1) << (bits - 1));
  if (Value zp = getInput(node, 3)) {
    if (!getElementTypeOrSelf(zp.getType()).isInteger(8))
      return error() << "zero_points (input 3) of "
                     << getElementTypeOrSelf(zp.getType())
                     << " have no DequantizeLinear form (uint8, packed)";
    std::optional<SmallVector<int64_t>> zps = getConstantIntegers(zp);
    if (!zps || int64_t(zps->size()) != *n * zpPerColumn)
      return error() << "zero_points (input 3) must be a constant of N * "
                        "ceil(blocks * bits / 8) = "
                     << *n * zpPerColumn << " bytes";
    for (int64_t c = 0; c < *n; ++c)
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t index = b * bits;
        int64_t byte = (*zps)[c * zpPerColumn + index / 8];
        zeroPoints[c * blocks + b] = (byte >> (index % 8)) & ((1 << bits) - 1);
      }
  }
  // W (K, N) with its parameters (blocks, N), blocked along K.
  SmallVector<int64_t> weights(*k * *n), blockScales, blockZeroPoints;
  SmallVector<float> blockScaleValues(blocks * *n);
  blockZeroPoints.resize(blocks * *n);
  for (int64_t c = 0; c < *n; ++c) {
    for (int64_t row = 0; row < *k; ++row) {
      int64_t b = row / *block, bit = (row % *block) * bits;
      int64_t byte = (*packed)[(c * blocks + b) * blob + bit / 8];
      weights[row * *n + c] = (byte >> (bit % 8)) & ((1 << bits) - 1);
    }
    for (int64_t b = 0; b < blocks; ++b) {
      blockScaleValues[b * *n + c] = (*scales)[c * blocks + b];
      blockZeroPoints[b * *n + c] = zeroPoints[c * blocks + b];
    }
  }
  OpBuilder &builder = importer.getBuilder();
  MLIRContext *ctx = builder.getContext();
  Type intType = IntegerType::get(ctx, bits, IntegerType::Unsigned);
  Type floatType = getElementTypeOrSelf(getInput(node, 2).getType());
  Location loc = node.loc;
  Value w = importer.createConstant(
      createIntegerElements(RankedTensorType::get({*k, *n}, intType), weights), loc);
  Value s = importer.createConstant(
      createFloatElements(RankedTensorType::get({blocks, *n}, floatType),
                          blockScaleValues),
      loc);
  Value z = importer.createConstant(
      createIntegerElements(RankedTensorType::get({blocks, *n}, intType),
                            blockZeroPoints),
      loc);
  Value dq = DequantizeLinearOp::create(
      builder, loc, RankedTensorType::get({*k, *n}, floatType), w, s, z,
      builder.getI64IntegerAttr(0), builder.getI64IntegerAttr(*block));
  Value a = getInput(node, 0);
  Operation *product = MatMulOp::create(
      builder, loc, UnrankedTensorType::get(floatType), a, dq);
  typeByShapeRule(product);
  if (Value bias = getInput(node, 5)) {
    product = AddOp::create(builder, loc, UnrankedTensorType::get(floatType),
                            product->getResult(0), bias);
    typeByShapeRule(product);
  }
  results.push_back(product->getResult(0));
  return success();
}
