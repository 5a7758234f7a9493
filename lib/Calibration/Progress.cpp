//===- Report.cpp - calibration progress and summary on stderr ------------===//

#include "Progress.h"

#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::onnxq;

Progress::Progress(StringRef what, size_t total, bool quiet)
    : what(what.str()), total(total), quiet(quiet),
      terminal(llvm::errs().is_displayed()),
      start(std::chrono::steady_clock::now()), lastDraw(start) {}

void Progress::update(size_t done) {
  if (quiet || total == 0)
    return;
  auto now = std::chrono::steady_clock::now();
  double seconds = std::chrono::duration<double>(now - start).count();
  double rate = seconds > 0 ? done / seconds : 0;
  double eta = rate > 0 ? (total - done) / rate : 0;
  if (terminal) {
    // Redraw at most 10 times a second, and always at the end.
    if (done < total &&
        std::chrono::duration<double>(now - lastDraw).count() < 0.1)
      return;
    lastDraw = now;
    constexpr int kWidth = 30;
    int filled = int(kWidth * done / total);
    llvm::errs() << "\r" << what << ": [" << std::string(filled, '#')
                 << std::string(kWidth - filled, ' ') << "] " << done << "/"
                 << total
                 << llvm::format(" samples, %.1f/s, ETA %.0f s ", rate, eta);
    return;
  }
  size_t decile = done * 10 / total;
  if (decile == lastDecile)
    return;
  lastDecile = decile;
  llvm::errs() << what << ": " << done << "/" << total
               << llvm::format(" samples (%zu%%), %.1f samples/s, ETA %.0f s\n",
                               decile * 10, rate, eta);
}

void Progress::finish() {
  if (!quiet && terminal && total)
    llvm::errs() << "\n";
}

void mlir::onnxq::printSummary(
    llvm::raw_ostream &os, ArrayRef<std::pair<std::string, TensorRange>> table,
    size_t used, size_t skipped, double compileSeconds, double runSeconds,
    StringRef format) {
  os << "onnx-calibrate: " << used << " samples (" << format << ")";
  if (skipped)
    os << ", " << skipped << " skipped for NaN/Inf";
  os << llvm::format(" in %.2f s (JIT compile %.2f s, %.1f samples/s)\n",
                     compileSeconds + runSeconds, compileSeconds,
                     runSeconds > 0 ? used / runSeconds : 0.0);
  if (table.empty())
    return;
  auto width = [](const TensorRange &r) { return double(r.max) - r.min; };
  const auto *widest = &table.front(), *narrowest = &table.front();
  for (const auto &entry : table) {
    if (width(entry.second) > width(widest->second))
      widest = &entry;
    if (width(entry.second) < width(narrowest->second))
      narrowest = &entry;
  }
  os << "onnx-calibrate: " << table.size() << " tensors annotated ("
     << table.front().second.method << ")"
     << llvm::format("; widest '%s' [%g, %g], narrowest '%s' [%g, %g]\n",
                     widest->first.c_str(), widest->second.min,
                     widest->second.max, narrowest->first.c_str(),
                     narrowest->second.min, narrowest->second.max);
}
