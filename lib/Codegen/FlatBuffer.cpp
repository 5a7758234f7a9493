//===- FlatBuffer.cpp - a strided buffer as a flat unit-stride one --------===//

#include "FlatBuffer.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value mlir::onnxq::flattenBuffer(OpBuilder &b, Location loc, Value value) {
  auto type = cast<MemRefType>(value.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, value);
  SmallVector<OpFoldResult> sizes = metadata.getConstifiedMixedSizes();
  SmallVector<OpFoldResult> strides = metadata.getConstifiedMixedStrides();
  OpFoldResult offset = metadata.getConstifiedMixedOffset();
  // 1 + sum((size - 1) * stride): static when the layout and shape are.
  MLIRContext *ctx = b.getContext();
  AffineExpr extentExpr = getAffineConstantExpr(1, ctx);
  SmallVector<OpFoldResult> operands;
  for (auto [size, stride] : llvm::zip(sizes, strides)) {
    AffineExpr s = getAffineSymbolExpr(operands.size(), ctx);
    AffineExpr t = getAffineSymbolExpr(operands.size() + 1, ctx);
    extentExpr = extentExpr + (s - 1) * t;
    operands.append({size, stride});
  }
  OpFoldResult extent = affine::makeComposedFoldedAffineApply(
      b, loc, AffineMap::get(0, operands.size(), extentExpr), operands);
  std::optional<int64_t> staticExtent = getConstantIntValue(extent);
  std::optional<int64_t> staticOffset = getConstantIntValue(offset);
  auto flatType = MemRefType::get(
      {staticExtent.value_or(ShapedType::kDynamic)}, type.getElementType(),
      StridedLayoutAttr::get(ctx, staticOffset.value_or(ShapedType::kDynamic), {1}),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, loc, flatType, metadata.getBaseBuffer(),
                                           offset, {extent}, {b.getIndexAttr(1)});
}
