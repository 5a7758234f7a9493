//===- Prune.cpp - magnitude pruning of weights ---------------------------===//
//
// Zeroes weights of small magnitude. The graph keeps its shapes; the zeros
// pay off where a later stage exploits sparsity or where quantization and
// compression benefit from them. Structured pruning, which changes shapes,
// is in StructuredPrune.cpp.
//
//===----------------------------------------------------------------------===//

#include "onnx-quant/Transforms/Passes.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "Prune.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Support/OutputFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace mlir::onnxq {
#define GEN_PASS_DEF_PRUNEPASS
#include "onnx-quant/Transforms/Passes.h.inc"

LogicalResult pruneChannels(ModuleOp module, const PruneScope &scope,
                            double sparsity, bool l2, PruneReport &report);
} // namespace mlir::onnxq

using namespace mlir;
using namespace mlir::onnxq;

/// Shortest readable form: 0.01, 1e-05, 0.5.
static std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

static int64_t countZeros(ArrayRef<float> values) {
  return llvm::count(values, 0.0f);
}

SmallVector<PrunableWeight>
mlir::onnxq::collectPrunableWeights(Operation *root, const PruneScope &scope) {
  SmallVector<PrunableWeight> weights;
  root->walk([&](Operation *op) {
    if (!isa<ConvOp, ConvTransposeOp, GemmOp, MatMulOp>(op))
      return;
    OpOperand &operand = op->getOpOperand(1);
    ElementsAttr attr = getConstantValue(operand.get());
    std::optional<SmallVector<float>> values = getFloatValues(attr);
    if (!values)
      return;
    PruneLayerStats stats;
    stats.node = getNodeName(op).str();
    if (stats.node.empty())
      stats.node = (op->getName().stripDialect() + "#" +
                    std::to_string(weights.size())).str();
    stats.opType = op->getName().stripDialect().str();
    stats.shape = formatShape(attr.getShapedType().getShape());
    stats.elements = values->size();
    stats.zerosBefore = stats.zerosAfter = countZeros(*values);
    if (llvm::is_contained(scope.exclude, stats.node))
      stats.skipped = "excluded";
    else if (stats.elements < scope.minElements)
      stats.skipped = "fewer than min-elements=" +
                      std::to_string(scope.minElements) + " weights";
    weights.push_back({&operand, std::move(stats)});
  });
  return weights;
}

void mlir::onnxq::replaceWeights(OpOperand &operand, ArrayRef<float> values) {
  auto old = operand.get().getDefiningOp<ConstantOp>();
  OpBuilder builder(operand.getOwner());
  Value replacement = ConstantOp::create(
      builder, old.getLoc(), createFloatElements(old.getType(), values));
  operand.set(replacement);
  if (old->use_empty())
    old->erase();
}

namespace {

/// Zeroes the `count` smallest magnitudes of `values` (ties by position).
void zeroSmallest(MutableArrayRef<float> values, int64_t count) {
  SmallVector<int64_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) { // ties by position
    return std::pair(std::fabs(values[a]), a) < std::pair(std::fabs(values[b]), b);
  });
  for (int64_t i = 0; i < count; ++i)
    values[order[i]] = 0.0f;
}

struct PrunePass : public onnxq::impl::PrunePassBase<PrunePass> {
  using Base::Base;

  LogicalResult checkOptions() {
    ModuleOp module = getOperation();
    auto fail = [&](const Twine &message) {
      module.emitError() << "onnx-prune: " << message;
      return failure();
    };
    if (!llvm::is_contained({"absolute", "relative", "sparsity"}, mode))
      return fail("mode='" + mode +
                  "' is not one of absolute, relative, sparsity");
    if (threshold < 0 || !std::isfinite(threshold))
      return fail("threshold=" + formatNumber(threshold) +
                  " must be >= 0");
    if (!(sparsity >= 0 && sparsity < 1))
      return fail("sparsity=" + formatNumber(sparsity) +
                  " is outside [0, 1)");
    if (!llvm::is_contained({"layer", "global"}, scope))
      return fail("scope='" + scope + "' is not one of layer, global");
    if (!llvm::is_contained({"none", "channels"}, structured))
      return fail("structured='" + structured + "' is not one of none, channels");
    if (!llvm::is_contained({"l1", "l2"}, criterion))
      return fail("criterion='" + criterion + "' is not one of l1, l2");
    if (minElements < 0)
      return fail("min-elements=" + Twine(int64_t(minElements)) + " must be >= 0");
    return checkNodeNamesExist(module, exclude, "onnx-prune: exclude");
  }

  std::string describeSettings() {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (structured == "channels")
      os << "structured=channels sparsity=" << formatNumber(sparsity)
         << " criterion=" << criterion;
    else if (mode == "sparsity")
      os << "mode=sparsity sparsity=" << formatNumber(sparsity) << " scope=" << scope;
    else
      os << "mode=" << mode << " threshold=" << formatNumber(threshold);
    os << " min-elements=" << minElements;
    if (!exclude.empty())
      os << " exclude=" << llvm::join(exclude, ",");
    return text;
  }

  /// Magnitude pruning of every weight in scope.
  void pruneMagnitudes(MutableArrayRef<PrunableWeight> weights) {
    SmallVector<PrunableWeight *> inScope;
    SmallVector<SmallVector<float>> values;
    for (PrunableWeight &weight : weights)
      if (weight.stats.skipped.empty()) {
        inScope.push_back(&weight);
        values.push_back(*getFloatValues(
            getConstantValue(weight.operand->get())));
      }
    if (mode == "sparsity" && scope == "global") {
      // One ranking over all weights: the threshold is the magnitude at the
      // global rank; ties at it are zeroed in program order.
      SmallVector<float> all;
      for (auto &v : values)
        for (float x : v)
          all.push_back(std::fabs(x));
      int64_t target = int64_t(std::floor(sparsity * all.size()));
      if (target > 0) {
        std::nth_element(all.begin(), all.begin() + (target - 1), all.end());
        float cut = all[target - 1];
        int64_t below = 0;
        for (auto &v : values)
          below += llvm::count_if(v, [&](float x) { return std::fabs(x) < cut; });
        int64_t ties = target - below;
        for (auto &v : values)
          for (float &x : v)
            if (std::fabs(x) < cut || (std::fabs(x) == cut && ties-- > 0))
              x = 0.0f;
      }
    } else {
      for (auto &v : values) {
        if (mode == "sparsity") {
          zeroSmallest(v, int64_t(std::floor(sparsity * v.size())));
          continue;
        }
        float cut = float(threshold);
        if (mode == "relative") {
          float max = 0;
          for (float x : v)
            max = std::max(max, std::fabs(x));
          cut = float(threshold * max);
        }
        for (float &x : v)
          if (std::fabs(x) < cut)
            x = 0.0f;
      }
    }
    for (auto [weight, v] : llvm::zip(inScope, values)) {
      weight->stats.zerosAfter = countZeros(v);
      if (weight->stats.zerosAfter != weight->stats.zerosBefore)
        replaceWeights(*weight->operand, v);
    }
  }

  /// Opened before anything is pruned, so an unwritable report is an error
  /// like the other bad options.
  std::unique_ptr<OutputFile> openReport() {
    std::string error;
    std::unique_ptr<OutputFile> file = OutputFile::open(report, error);
    if (!file)
      getOperation().emitError() << "onnx-prune: cannot write report=" << report
                                 << ": " << error;
    return file;
  }

  LogicalResult writeReport(const PruneReport &pruneReport,
                            std::unique_ptr<OutputFile> file) {
    if (StringRef(report).ends_with(".json"))
      pruneReport.printJSON(file->os());
    else
      pruneReport.printTable(file->os());
    std::string error;
    if (succeeded(OutputFile::commitOrDefer(std::move(file), error)))
      return success();
    return getOperation().emitError()
           << "onnx-prune: cannot write report=" << report << ": " << error;
  }

  void runOnOperation() override {
    if (failed(checkOptions()))
      return signalPassFailure();
    std::unique_ptr<OutputFile> reportFile;
    if (!report.empty() && !(reportFile = openReport()))
      return signalPassFailure();
    ModuleOp module = getOperation();
    PruneScope pruneScope{exclude, minElements};
    PruneReport pruneReport;
    pruneReport.settings = describeSettings();
    if (structured == "channels") {
      pruneReport.structured = true;
      if (failed(pruneChannels(module, pruneScope, sparsity,
                               criterion == "l2", pruneReport)))
        return signalPassFailure();
    } else {
      if ((mode == "sparsity" ? sparsity : threshold) == 0)
        module.emitWarning() << "onnx-prune: " << pruneReport.settings
                             << " removes nothing; give threshold= (or "
                                "mode=sparsity sparsity=)";
      SmallVector<PrunableWeight> weights =
          collectPrunableWeights(module, pruneScope);
      pruneMagnitudes(weights);
      for (PrunableWeight &weight : weights)
        pruneReport.layers.push_back(std::move(weight.stats));
    }
    if (!quiet)
      pruneReport.printSummary(llvm::errs());
    if (reportFile && failed(writeReport(pruneReport, std::move(reportFile))))
      return signalPassFailure();
  }
};

} // namespace
