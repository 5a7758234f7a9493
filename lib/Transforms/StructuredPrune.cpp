//===- StructuredPrune.cpp - remove whole output channels -----------------===//
//
// Channel groups: values whose channel dimension (dimension 1) must keep the
// same channels, linked by ops that map channel c to channel c (activations,
// pooling, BatchNormalization, depthwise convolutions, element-wise ops with
// a per-channel constant, and element-wise ops between two activations such
// as a residual Add). A group can shrink when every value in it is produced
// by a prunable Conv/Gemm or by one of those ops, and every other use is a
// consumer whose weights can drop the matching input channels (Conv with one
// group, Gemm/MatMul, possibly through a Flatten). All producers of a group
// drop the same channels: those with the smallest summed norm.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Transforms/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "Prune.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// A Conv with one group, or a Gemm: output channel c is one weight slice.
bool isChannelProducer(Operation *op) {
  if (auto conv = dyn_cast<ConvOp>(op))
    return conv.getGroup() == 1;
  return isa<GemmOp>(op);
}

/// A depthwise Conv: output channel c reads only input channel c.
bool isDepthwise(Operation *op) {
  auto conv = dyn_cast<ConvOp>(op);
  auto w = conv ? dyn_cast<ShapedType>(conv.getW().getType()) : nullptr;
  return w && w.hasStaticShape() && conv.getGroup() > 1 &&
         w.getDimSize(1) == 1 && w.getDimSize(0) == conv.getGroup();
}

/// Ops whose result channel c is a function of operand-0 channel c only.
bool isChannelwise(Operation *op) {
  if (auto pool = dyn_cast<MaxPoolOp>(op))
    return !pool.getIndices();
  if (auto clip = dyn_cast<ClipOp>(op))
    return true; // min and max are scalars (the verifier checks)
  if (auto dropout = dyn_cast<DropoutOp>(op))
    return !dropout.getMask() && !dropout.getTrainingMode();
  return isa<ReluOp, LeakyReluOp, SigmoidOp, TanhOp, HardSigmoidOp,
             HardSwishOp, IdentityOp, AveragePoolOp, GlobalAveragePoolOp,
             GlobalMaxPoolOp, BatchNormalizationOp>(op) ||
         isDepthwise(op);
}

bool isElementwiseBinary(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp>(op);
}

/// Consumers that drop input channels from their weights: the operand index
/// read as channels, or nullopt.
std::optional<unsigned> getConsumedOperand(Operation *op) {
  if (auto conv = dyn_cast<ConvOp>(op))
    return conv.getGroup() == 1 && getConstantValue(conv.getW())
               ? std::optional<unsigned>(0)
               : std::nullopt;
  if (auto gemm = dyn_cast<GemmOp>(op))
    return !gemm.getTransA() && getConstantValue(gemm.getB())
               ? std::optional<unsigned>(0)
               : std::nullopt;
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    auto a = dyn_cast<RankedTensorType>(matmul.getA().getType());
    auto b = dyn_cast<RankedTensorType>(matmul.getB().getType());
    return a && b && a.getRank() == 2 && b.getRank() <= 2 &&
                   getConstantValue(matmul.getB())
               ? std::optional<unsigned>(0)
               : std::nullopt;
  }
  return std::nullopt;
}

/// Multiply-accumulates of a Conv, Gemm or MatMul per inference (0 when the
/// shapes are not static).
int64_t countMacs(Operation *op) {
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto w = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (!out || !w || !out.hasStaticShape() || !w.hasStaticShape())
    return 0;
  if (isa<ConvOp>(op)) // every output element reads a (C/g, k...) slice
    return out.getNumElements() * (w.getNumElements() / w.getDimSize(0));
  auto a = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!a || !a.hasStaticShape())
    return 0;
  int64_t k = isa<GemmOp>(op) && cast<GemmOp>(op).getTransA()
                  ? a.getDimSize(0)
                  : a.getDimSize(a.getRank() - 1);
  return out.getNumElements() * k;
}

/// Output channels of a Conv/Gemm/MatMul: dimension 1 (the last for MatMul).
int64_t getOutputChannels(Operation *op) {
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!out || out.getRank() < 1)
    return 0;
  return out.getDimSize(isa<MatMulOp>(op) ? out.getRank() - 1
                                          : std::min<int64_t>(1, out.getRank() - 1));
}

/// Elements of `values` (shape `shape`) whose index along `dim` is in `keep`.
SmallVector<float> sliceAlong(ArrayRef<float> values, ArrayRef<int64_t> shape,
                              int64_t dim, ArrayRef<int64_t> keep) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  SmallVector<float> out;
  out.reserve(outer * keep.size() * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k : keep)
      llvm::append_range(out, values.slice((o * shape[dim] + k) * inner, inner));
  return out;
}

/// Replaces the constant operand `operand` by its slice along `dim`.
void sliceConstantOperand(OpOperand &operand, int64_t dim,
                          ArrayRef<int64_t> keep) {
  ElementsAttr attr = getConstantValue(operand.get());
  auto type = cast<ShapedType>(attr.getType());
  SmallVector<float> values =
      sliceAlong(*getFloatValues(attr), type.getShape(), dim, keep);
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = keep.size();
  auto old = operand.get().getDefiningOp<ConstantOp>();
  OpBuilder builder(operand.getOwner());
  operand.set(ConstantOp::create(
      builder, old.getLoc(),
      createFloatElements(type.clone(shape), values)));
  if (old->use_empty())
    old->erase();
}

/// For a per-channel constant operand of an element-wise op whose result has
/// rank `rank`: the constant's dimension aligned with channel dimension 1, or
/// nullopt when it broadcasts along it.
std::optional<int64_t> getAlignedChannelDim(Value constant, int64_t rank,
                                            int64_t channels) {
  auto type = cast<ShapedType>(constant.getType());
  int64_t dim = 1 - (rank - type.getRank());
  if (dim < 0 || type.getDimSize(dim) == 1)
    return std::nullopt;
  return type.getDimSize(dim) == channels ? std::optional<int64_t>(dim)
                                          : std::optional<int64_t>(-1);
}

/// True when every constant operand of the element-wise `op` is per channel
/// or broadcast along the channels.
bool hasChannelConstants(Operation *op, int64_t channels) {
  int64_t rank = cast<ShapedType>(op->getResult(0).getType()).getRank();
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !getConstantValue(operand) ||
           getAlignedChannelDim(operand, rank, channels) != -1;
  });
}

/// "'Conv' node 'name'", or "'Conv'" for an unnamed node.
std::string describeNode(Operation *op) {
  std::string text = "'" + op->getName().stripDialect().str() + "'";
  if (StringRef name = getNodeName(op); !name.empty())
    text += " node '" + name.str() + "'";
  return text;
}

struct Group {
  SmallVector<Value> values;
  SetVector<Operation *> producers, channelwise, consumers;
  SmallVector<std::string> blockers;
  int64_t channels = -1;
  SmallVector<int64_t> keep;
};

class ChannelPruner {
public:
  ChannelPruner(ModuleOp module, const PruneScope &scope, double sparsity,
                bool l2)
      : module(module), scope(scope), sparsity(sparsity), l2(l2) {}

  void run(PruneReport &report);

private:
  /// Links `v` with every value that must keep its channels, recording
  /// producers, consumers and blockers.
  void explore(Value v);
  /// Records that `op` keeps the channels of `v`'s group from shrinking.
  void block(Value v, Operation *op, StringRef why) {
    blockers[v].push_back(describeNode(op) + " (" + why.str() + ")");
  }
  std::vector<Group> buildGroups();
  void chooseChannels(Group &group);
  void rewrite(Group &group);

  ModuleOp module;
  const PruneScope &scope;
  double sparsity;
  bool l2;
  llvm::EquivalenceClasses<Value> classes;
  SetVector<Value> visited;
  DenseMap<Value, SmallVector<std::string>> blockers;
  DenseMap<Value, SetVector<Operation *>> consumersOf;
  /// Flatten results: their users consume the flattened channels.
  DenseMap<Value, int64_t> flattenInner;
  /// In program order: groups, their order and the remarks do not depend
  /// on pointer values.
  SetVector<Operation *> inScopeProducers;
};

void ChannelPruner::explore(Value start) {
  SmallVector<Value> worklist{start};
  auto link = [&](Value a, Value b) {
    classes.unionSets(a, b);
    worklist.push_back(b);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!visited.insert(v))
      continue;
    classes.insert(v);
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2) {
      blockers[v].push_back("a value without a static channel dimension");
      continue;
    }
    // Where the channels come from.
    Operation *def = v.getDefiningOp();
    if (!def) {
      blockers[v].push_back("a graph input");
    } else if (isChannelProducer(def)) {
      if (!inScopeProducers.contains(def))
        block(v, def, "excluded, below min-elements or without constant weights");
    } else if (isChannelwise(def)) {
      link(v, def->getOperand(0));
    } else if (isElementwiseBinary(def)) {
      if (!hasChannelConstants(def, type.getDimSize(1)))
        block(v, def, "a constant that is not per channel");
      for (Value operand : def->getOperands())
        if (!getConstantValue(operand))
          link(v, operand);
    } else {
      block(v, def, "it produces them");
    }
    // Where they go.
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isChannelwise(user) && use.getOperandNumber() == 0) {
        link(v, user->getResult(0));
      } else if (isElementwiseBinary(user)) {
        if (!hasChannelConstants(user, type.getDimSize(1)))
          block(v, user, "a constant that is not per channel");
        link(v, user->getResult(0));
        for (Value operand : user->getOperands())
          if (!getConstantValue(operand))
            link(v, operand);
      } else if (getConsumedOperand(user) == use.getOperandNumber()) {
        consumersOf[v].insert(user);
      } else if (auto flatten = dyn_cast<FlattenOp>(user);
                 flatten && flatten.getAxis() == 1 &&
                 llvm::all_of(flatten->getUsers(), [](Operation *u) {
                   return isa<GemmOp, MatMulOp>(u);
                 })) {
        flattenInner[flatten.getOutput()] = type.getNumElements() /
                                            (type.getDimSize(0) * type.getDimSize(1));
        for (OpOperand &flatUse : flatten->getUses()) {
          if (getConsumedOperand(flatUse.getOwner()) != flatUse.getOperandNumber()) {
            block(v, flatUse.getOwner(), "it reads the flattened channels");
            continue;
          }
          consumersOf[v].insert(flatten);
          consumersOf[v].insert(flatUse.getOwner());
        }
      } else {
        block(v, user, "it uses them");
      }
    }
  }
}

std::vector<Group> ChannelPruner::buildGroups() {
  llvm::MapVector<Value, Group> groups;
  for (Value v : visited) {
    Group &group = groups[classes.getLeaderValue(v)];
    group.values.push_back(v);
    llvm::append_range(group.blockers, blockers.lookup(v));
    for (Operation *consumer : consumersOf.lookup(v))
      group.consumers.insert(consumer);
    Operation *def = v.getDefiningOp();
    if (def && inScopeProducers.contains(def))
      group.producers.insert(def);
    else if (def && (isChannelwise(def) || isElementwiseBinary(def)))
      group.channelwise.insert(def);
    int64_t channels = cast<ShapedType>(v.getType()).getDimSize(1);
    if (group.channels != -1 && group.channels != channels)
      group.blockers.push_back("channel counts differ along the chain");
    group.channels = channels;
  }
  std::vector<Group> result;
  for (auto &entry : groups)
    result.push_back(std::move(entry.second));
  return result;
}

/// Keeps the channels with the largest norms summed over the producers.
void ChannelPruner::chooseChannels(Group &group) {
  SmallVector<double> score(group.channels, 0.0);
  for (Operation *producer : group.producers) {
    ElementsAttr attr = getConstantValue(producer->getOperand(1));
    SmallVector<float> w = *getFloatValues(attr);
    auto type = cast<ShapedType>(attr.getType());
    bool columns = isa<GemmOp>(producer) && !cast<GemmOp>(producer).getTransB();
    for (auto [i, x] : llvm::enumerate(w)) {
      int64_t c = columns ? int64_t(i) % type.getDimSize(1)
                          : int64_t(i) / (type.getNumElements() / type.getDimSize(0));
      score[c] += l2 ? double(x) * x : std::fabs(double(x));
    }
  }
  int64_t drop = std::min<int64_t>(int64_t(std::floor(sparsity * group.channels)),
                                   group.channels - 1);
  SmallVector<int64_t> order(group.channels);
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) { // ties by channel index
    return std::pair(score[a], a) < std::pair(score[b], b);
  });
  group.keep.assign(order.begin() + drop, order.end());
  llvm::sort(group.keep);
}

void ChannelPruner::rewrite(Group &group) {
  ArrayRef<int64_t> keep = group.keep;
  int64_t kept = keep.size();
  for (Operation *producer : group.producers) {
    bool gemmColumns = isa<GemmOp>(producer) && !cast<GemmOp>(producer).getTransB();
    sliceConstantOperand(producer->getOpOperand(1), gemmColumns ? 1 : 0, keep);
    if (producer->getNumOperands() > 2) {
      OpOperand &bias = producer->getOpOperand(2);
      auto biasType = cast<ShapedType>(bias.get().getType());
      if (biasType.getNumElements() > 1)
        sliceConstantOperand(bias, biasType.getRank() - 1, keep);
    }
  }
  for (Operation *op : group.channelwise) {
    if (auto bn = dyn_cast<BatchNormalizationOp>(op)) {
      for (unsigned i = 1; i < 5; ++i)
        sliceConstantOperand(bn->getOpOperand(i), 0, keep);
    } else if (isDepthwise(op)) {
      auto conv = cast<ConvOp>(op);
      sliceConstantOperand(conv->getOpOperand(1), 0, keep);
      if (conv.getB())
        sliceConstantOperand(conv->getOpOperand(2), 0, keep);
      conv.setGroup(kept);
    } else if (isElementwiseBinary(op)) {
      int64_t rank = cast<ShapedType>(op->getResult(0).getType()).getRank();
      for (OpOperand &operand : op->getOpOperands())
        if (getConstantValue(operand.get()))
          if (std::optional<int64_t> dim = getAlignedChannelDim(
                  operand.get(), rank, group.channels))
            sliceConstantOperand(operand, *dim, keep);
    }
  }
  for (Operation *consumer : group.consumers) {
    if (auto flatten = dyn_cast<FlattenOp>(consumer)) {
      auto type = cast<RankedTensorType>(flatten.getType());
      int64_t inner = flattenInner.lookup(flatten.getOutput());
      flatten.getOutput().setType(
          type.clone({type.getDimSize(0), kept * inner}));
      continue;
    }
    // Input channel c of the consumer reads feature c (times the flattened
    // inner size when it reads through a Flatten).
    SmallVector<int64_t> features = llvm::to_vector(keep);
    Value input = consumer->getOperand(0);
    if (int64_t inner = flattenInner.lookup(input)) {
      features.clear();
      for (int64_t c : keep)
        for (int64_t i = 0; i < inner; ++i)
          features.push_back(c * inner + i);
    }
    bool transB = isa<GemmOp>(consumer) && cast<GemmOp>(consumer).getTransB();
    int64_t dim = isa<ConvOp>(consumer) || transB ? 1 : 0;
    sliceConstantOperand(consumer->getOpOperand(1), dim, features);
  }
  for (Value v : group.values) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[1] = kept;
    v.setType(type.clone(shape));
  }
}

void ChannelPruner::run(PruneReport &report) {
  // Report rows and MACs before, for every Conv/Gemm/MatMul.
  SmallVector<PrunableWeight> weights = collectPrunableWeights(module, scope);
  for (PrunableWeight &weight : weights) {
    Operation *op = weight.operand->getOwner();
    if (weight.stats.skipped.empty() && isChannelProducer(op))
      inScopeProducers.insert(op);
  }
  SmallVector<int64_t> macsBefore;
  for (PrunableWeight &weight : weights) {
    Operation *op = weight.operand->getOwner();
    macsBefore.push_back(countMacs(op));
    weight.stats.channelsBefore = getOutputChannels(op);
  }
  for (Operation *producer : inScopeProducers)
    explore(producer->getResult(0));

  std::vector<Group> prunable;
  DenseMap<Operation *, std::vector<int64_t>> keptChannels;
  for (Group &group : buildGroups()) {
    if (group.producers.empty())
      continue;
    if (!group.blockers.empty()) {
      for (Operation *producer : group.producers)
        // Named in the text: an imported node's location prints as the file.
        producer->emitRemark()
            << describeNode(producer) << ": output channels not pruned: they reach "
            << group.blockers.front() << ", which cannot drop the same channels";
      for (Operation *producer : group.producers)
        for (PrunableWeight &weight : weights)
          if (weight.operand->getOwner() == producer)
            weight.stats.skipped =
                "output channels kept: they reach " + group.blockers.front();
      continue;
    }
    chooseChannels(group);
    prunable.push_back(std::move(group));
  }
  // Rewrite only once every group has chosen its channels, so the norms are
  // those of the original filters (not of filters whose input channels
  // another group has already removed).
  for (Group &group : prunable) {
    if (int64_t(group.keep.size()) == group.channels)
      continue;
    rewrite(group);
    for (Operation *producer : group.producers)
      keptChannels[producer].assign(group.keep.begin(), group.keep.end());
  }

  for (auto [weight, before] : llvm::zip(weights, macsBefore)) {
    Operation *op = weight.operand->getOwner();
    PruneLayerStats &stats = weight.stats;
    stats.channelsAfter = getOutputChannels(op);
    stats.macsBefore = before;
    stats.macsAfter = countMacs(op);
    auto w = cast<ShapedType>(weight.operand->get().getType());
    stats.shapeAfter = formatShape(w.getShape());
    stats.channelsKept = keptChannels.lookup(op);
    report.layers.push_back(std::move(stats));
  }
}

} // namespace

namespace mlir::onnxq {
LogicalResult pruneChannels(ModuleOp module, const PruneScope &scope,
                            double sparsity, bool l2, PruneReport &report) {
  ChannelPruner(module, scope, sparsity, l2).run(report);
  return success();
}
} // namespace mlir::onnxq
