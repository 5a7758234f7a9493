//===- PruneReport.cpp - per-layer pruning statistics ---------------------===//

#include "PruneReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {
double percent(int64_t part, int64_t whole) {
  return whole ? 100.0 * double(part) / double(whole) : 0.0;
}

PruneLayerStats getTotal(ArrayRef<PruneLayerStats> layers) {
  PruneLayerStats total;
  total.node = "total";
  for (const PruneLayerStats &layer : layers) {
    total.elements += layer.elements;
    total.zerosBefore += layer.zerosBefore;
    total.zerosAfter += layer.zerosAfter;
    total.channelsBefore += layer.channelsBefore;
    total.channelsAfter += layer.channelsAfter;
    total.macsBefore += layer.macsBefore;
    total.macsAfter += layer.macsAfter;
  }
  return total;
}
} // namespace

void PruneReport::printSummary(raw_ostream &os) const {
  PruneLayerStats total = getTotal(layers);
  // Changed: zeros added, or (structured) a different shape.
  int64_t changed = llvm::count_if(layers, [&](const PruneLayerStats &l) {
    return structured ? l.shapeAfter != l.shape : l.zerosAfter > l.zerosBefore;
  });
  os << "onnx-prune: " << changed << " of " << layers.size()
     << " weight tensors changed (" << settings << ")\n";
  if (structured)
    os << llvm::format("onnx-prune: output channels %lld -> %lld, MACs %lld -> "
                       "%lld (%.1f%% fewer)\n",
                       (long long)total.channelsBefore,
                       (long long)total.channelsAfter,
                       (long long)total.macsBefore, (long long)total.macsAfter,
                       100.0 - percent(total.macsAfter, total.macsBefore));
  else
    os << llvm::format("onnx-prune: %lld weights, zeros %lld -> %lld "
                       "(sparsity %.2f%% -> %.2f%%)\n",
                       (long long)total.elements, (long long)total.zerosBefore,
                       (long long)total.zerosAfter,
                       percent(total.zerosBefore, total.elements),
                       percent(total.zerosAfter, total.elements));
}

void PruneReport::printTable(raw_ostream &os) const {
  os << "# onnx-prune report (" << settings << ")\n";
  if (structured)
    os << llvm::format("%-32s %-14s %-16s %-16s %8s %8s %12s %12s\n", "node",
                       "op", "weights", "weights after", "channels",
                       "after", "MACs", "MACs after");
  else
    os << llvm::format("%-32s %-14s %-16s %10s %10s %10s %9s\n", "node", "op",
                       "weights", "elements", "zeros", "zeros after",
                       "sparsity");
  auto row = [&](const PruneLayerStats &l) {
    if (structured)
      os << llvm::format("%-32s %-14s %-16s %-16s %8lld %8lld %12lld %12lld",
                         l.node.c_str(), l.opType.c_str(), l.shape.c_str(),
                         l.shapeAfter.c_str(), (long long)l.channelsBefore,
                         (long long)l.channelsAfter, (long long)l.macsBefore,
                         (long long)l.macsAfter);
    else
      os << llvm::format("%-32s %-14s %-16s %10lld %10lld %10lld %8.2f%%",
                         l.node.c_str(), l.opType.c_str(), l.shape.c_str(),
                         (long long)l.elements, (long long)l.zerosBefore,
                         (long long)l.zerosAfter,
                         percent(l.zerosAfter, l.elements));
    if (!l.skipped.empty())
      os << "  (left alone: " << l.skipped << ")";
    os << "\n";
  };
  for (const PruneLayerStats &layer : layers)
    row(layer);
  row(getTotal(layers));
}

void PruneReport::printJSON(raw_ostream &os) const {
  auto toJSON = [&](const PruneLayerStats &l) {
    llvm::json::Object object{{"node", l.node},
                              {"op", l.opType},
                              {"shape", l.shape},
                              {"elements", l.elements},
                              {"zeros_before", l.zerosBefore},
                              {"zeros_after", l.zerosAfter},
                              {"sparsity_after", percent(l.zerosAfter, l.elements)}};
    if (structured) {
      object["shape_after"] = l.shapeAfter;
      object["channels_before"] = l.channelsBefore;
      object["channels_after"] = l.channelsAfter;
      object["macs_before"] = l.macsBefore;
      object["macs_after"] = l.macsAfter;
      if (!l.channelsKept.empty())
        object["channels_kept"] = llvm::json::Array(l.channelsKept);
    }
    if (!l.skipped.empty())
      object["skipped"] = l.skipped;
    return object;
  };
  llvm::json::Array array;
  for (const PruneLayerStats &layer : layers)
    array.push_back(toJSON(layer));
  llvm::json::Value root = llvm::json::Object{
      {"settings", settings},
      {"layers", std::move(array)},
      {"total", toJSON(getTotal(layers))}};
  os << llvm::formatv("{0:2}", root) << "\n";
}
