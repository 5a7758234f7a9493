//===- Bufferize.cpp - bufferization for the C ABI ------------------------===//

#include "PitchedRows.h"

#include "onnx-quant/Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::onnxq {
#define GEN_PASS_DEF_BUFFERIZEPASS
#include "onnx-quant/Codegen/Passes.h.inc"
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// A static tensor type with no elements and a rank other than 1.
RankedTensorType getNonFlatEmptyType(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  return tensorType && tensorType.hasStaticShape() &&
                 tensorType.getNumElements() == 0 && tensorType.getRank() != 1
             ? tensorType
             : nullptr;
}

/// Zero-element tensors hold no data, but a size-0 dim after the first one
/// leaves the outer strides of its buffer unknown (memref<3x0x5xf32>), which
/// the bare-pointer ABI cannot pass. `func` takes and returns them as
/// tensor<0xT> instead; inside, a tensor.empty of the original type stands
/// for such an argument.
void flattenEmptyInterface(func::FuncOp func) {
  if (func.isExternal())
    return;
  auto flat = [](RankedTensorType type) {
    return RankedTensorType::get({0}, type.getElementType());
  };
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  SmallVector<Type> inputs(func.getArgumentTypes()),
      results(func.getResultTypes());
  for (BlockArgument arg : entry.getArguments()) {
    RankedTensorType type = getNonFlatEmptyType(arg.getType());
    if (!type)
      continue;
    arg.replaceAllUsesWith(tensor::EmptyOp::create(b, func.getLoc(), type.getShape(),
                                                   type.getElementType()));
    arg.setType(flat(type));
    inputs[arg.getArgNumber()] = arg.getType();
  }
  func.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      RankedTensorType type = getNonFlatEmptyType(operand.get().getType());
      if (!type)
        continue;
      operand.set(tensor::EmptyOp::create(b, ret.getLoc(), flat(type).getShape(),
                                          type.getElementType()));
      results[operand.getOperandNumber()] = flat(type);
    }
  });
  func.setType(FunctionType::get(func.getContext(), inputs, results));
}

/// One `op` per use of its result.
void splitPerUse(Operation *op) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op->getUses())
    uses.push_back(&use);
  if (uses.size() < 2)
    return;
  OpBuilder b(op);
  for (OpOperand *use : llvm::drop_begin(uses))
    use->set(b.clone(*op)->getResult(0));
}

/// One tensor.empty, and one fill of a tensor.empty, per use. CSE merges
/// equal ones, and one-shot bufferization then hands their users one
/// allocation in turn, or copies a shared fill for each but one of the
/// slices inserted into it (the zero-padded channel words of two
/// convolutions); the workspace plan shares memory by liveness anyway, and
/// an allocation that one op chain uses alone can stay in the registers of
/// its kernel (onnxq-contraction-kernels).
void splitEmptyTensors(func::FuncOp func) {
  SmallVector<linalg::FillOp> fills;
  func.walk([&](linalg::FillOp fill) {
    if (fill.hasPureTensorSemantics() &&
        fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills)
    splitPerUse(fill);
  SmallVector<tensor::EmptyOp> empties;
  func.walk([&](tensor::EmptyOp empty) { empties.push_back(empty); });
  for (tensor::EmptyOp empty : empties)
    splitPerUse(empty);
}

/// The global of each tensor constant, created in program order and placed
/// in that order before the first function. One-shot module bufferization
/// visits functions in an order that depends on their addresses (a DenseMap
/// of functions), and it names and places a constant's global when it first
/// meets it: the same model gave objects whose globals differed in name and
/// order from one run to the next. Bufferization reuses these.
LogicalResult createConstantGlobals(ModuleOp module,
                                    bufferization::BufferizationState &state,
                                    uint64_t alignment) {
  Operation *firstNonGlobal = nullptr;
  for (Operation &op : module.getOps())
    if (!isa<memref::GlobalOp>(op)) {
      firstNonGlobal = &op;
      break;
    }
  if (!firstNonGlobal)
    return success();
  llvm::SmallPtrSet<Operation *, 16> existing;
  for (auto global : module.getOps<memref::GlobalOp>())
    existing.insert(global);
  WalkResult result = module.walk([&](arith::ConstantOp constant) {
    if (!isa<RankedTensorType>(constant.getType()))
      return WalkResult::advance();
    FailureOr<memref::GlobalOp> global =
        bufferization::getGlobalFor(constant, state.getSymbolTables(), alignment);
    if (failed(global))
      return WalkResult::interrupt();
    if (existing.insert(*global).second)
      (*global)->moveBefore(firstNonGlobal);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// A constant padding of rows of getMinPitchedRow elements or more (7 of 8
/// bits, 16 wider) becomes a fill of the padded tensor with the source
/// inserted into it, so that the source's producer writes into the interior
/// (empty tensor elimination) instead of a buffer of its own that is then
/// copied. A contraction kernel stores such rows with the pitch of the
/// padded rows, a vector that spans several of them in parts; shorter rows
/// keep the copy (PitchedRows.h).
struct PadAsFilledSlice : linalg::DecomposePadOpPattern {
  using DecomposePadOpPattern::DecomposePadOpPattern;
  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    RankedTensorType source = pad.getSourceType();
    if (!source.hasStaticShape() || source.getRank() == 0 ||
        source.getShape().back() < getMinPitchedRow(source.getElementTypeBitWidth()) ||
        !pad.getConstantPaddingValue())
      return rewriter.notifyMatchFailure(pad, "not a constant padding of long enough rows");
    return DecomposePadOpPattern::matchAndRewrite(pad, rewriter);
  }
};

/// An insertion of a reshaped value that only dropped unit dims (a
/// convolution's grouped result, 1x1xCxHxW -> 1xCxHxW, inserted into a
/// Concat) becomes the insertion of the value itself into the destination
/// expanded the same way, then collapsed back: empty tensor elimination
/// does not see through the reshape, so its producer wrote a buffer of its
/// own that was then copied. The expansion is placed just after the
/// destination, before the producer, where the eliminated tensor.empty was.
struct InsertBeforeCollapse : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto collapse = insert.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    RankedTensorType dest = insert.getDestType();
    if (!collapse || !collapse->hasOneUse() || !dest.hasStaticShape() ||
        !collapse.getSrcType().hasStaticShape() ||
        insert.getSourceType().getRank() != dest.getRank() ||
        !insert.hasUnitStride() ||
        llvm::any_of(insert.getStaticOffsets(), ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(insert, "not a static insertion of a collapse");
    ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
    SmallVector<int64_t> expanded, offsets;
    for (auto [group, reassociation] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      // The group's one dim that is not 1 (its last if all are) takes the
      // destination's extent and the insertion's offset.
      SmallVector<int64_t> nonUnit = llvm::filter_to_vector(
          reassociation, [&](int64_t dim) { return shape[dim] != 1; });
      if (nonUnit.size() > 1)
        return rewriter.notifyMatchFailure(insert, "the collapse merges dims");
      int64_t keep = nonUnit.empty() ? reassociation.back() : nonUnit.front();
      for (int64_t dim : reassociation) {
        expanded.push_back(dim == keep ? dest.getDimSize(group) : 1);
        offsets.push_back(dim == keep ? insert.getStaticOffsets()[group] : 0);
      }
    }
    Value destination = insert.getDest();
    OpBuilder::InsertionGuard guard(rewriter);
    if (Operation *def = destination.getDefiningOp())
      rewriter.setInsertionPointAfter(def);
    else
      rewriter.setInsertionPointToStart(cast<BlockArgument>(destination).getOwner());
    auto expandedType = RankedTensorType::get(expanded, dest.getElementType());
    Value wide = tensor::ExpandShapeOp::create(rewriter, insert.getLoc(), expandedType,
                                               destination,
                                               collapse.getReassociationIndices());
    rewriter.setInsertionPoint(insert);
    SmallVector<int64_t> ones(shape.size(), 1);
    Value inserted = tensor::InsertSliceOp::create(
        rewriter, insert.getLoc(), collapse.getSrc(), wide, ValueRange{}, ValueRange{},
        ValueRange{}, offsets, shape, ones);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        insert, dest, inserted, collapse.getReassociationIndices());
    return success();
  }
};

struct BufferizePass
    : onnxq::impl::BufferizePassBase<BufferizePass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      flattenEmptyInterface(func);
      splitEmptyTensors(func);
    }
    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::IdentityLayoutMap);
    // memref.copy of a strided view would call the `memrefCopy` runtime
    // function; linalg.copy lowers to plain loops.
    options.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) {
      linalg::CopyOp::create(b, loc, from, to);
      return success();
    };
    // A tensor.empty whose value ends up inserted into a slice of another
    // tensor becomes that slice, so its producer writes in place: a
    // convolution computed over the padded width into its wide result, a
    // Concat's inputs into the Concat, and, once the patterns have made
    // them insertions too, a padded input's interior and a reshaped grouped
    // result's slice of its Concat.
    RewritePatternSet insertions(&getContext());
    insertions.add<PadAsFilledSlice, InsertBeforeCollapse>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(insertions))))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    if (failed(bufferization::eliminateEmptyTensors(rewriter, getOperation())))
      return signalPassFailure();
    bufferization::BufferizationState state;
    if (failed(createConstantGlobals(getOperation(), state,
                                     options.bufferAlignment)))
      return signalPassFailure();
    if (failed(bufferization::runOneShotModuleBufferize(getOperation(), options,
                                                        state)))
      return signalPassFailure();
    // Read-only arguments of declared functions (calibration's observers)
    // mean nothing past bufferization.
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isExternal())
        for (unsigned i = 0; i < func.getNumArguments(); ++i)
          func.removeArgAttr(
              i, bufferization::BufferizationDialect::kBufferAccessAttrName);
  }
};
} // namespace
