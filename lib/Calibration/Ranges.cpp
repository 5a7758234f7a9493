//===- Ranges.cpp - the range table in JSON -------------------------------===//

#include "onnx-quant/Calibration/Ranges.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

void mlir::onnxq::writeRangesJSON(
    llvm::raw_ostream &os,
    ArrayRef<std::pair<std::string, TensorRange>> table) {
  llvm::json::Object tensors;
  for (const auto &[name, range] : table)
    tensors[name] = llvm::json::Object{{"min", double(range.min)},
                                       {"max", double(range.max)},
                                       {"method", range.method},
                                       {"samples", range.samples}};
  llvm::json::Value root = llvm::json::Object{
      {"format", "onnx-quant ranges 1"}, {"tensors", std::move(tensors)}};
  os << llvm::formatv("{0:2}", root) << "\n";
}

FailureOr<std::vector<std::pair<std::string, TensorRange>>>
mlir::onnxq::readRangesJSON(StringRef path, Location loc) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return emitError(loc) << "cannot read ranges file '" << path
                          << "': " << file.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return emitError(loc) << "ranges file '" << path << "' is not valid JSON: "
                          << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *tensors = root ? root->getObject("tensors") : nullptr;
  if (!tensors)
    return emitError(loc) << "ranges file '" << path
                          << "' has no \"tensors\" object";
  std::vector<std::pair<std::string, TensorRange>> table;
  for (const auto &[key, value] : *tensors) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<double> min = entry ? entry->getNumber("min") : std::nullopt;
    std::optional<double> max = entry ? entry->getNumber("max") : std::nullopt;
    if (!min || !max || !std::isfinite(*min) || !std::isfinite(*max) ||
        *min > *max)
      return emitError(loc) << "ranges file '" << path << "': tensor '"
                            << key.str()
                            << "' needs finite \"min\" <= \"max\"";
    TensorRange range;
    range.min = float(*min);
    range.max = float(*max);
    if (auto method = entry->getString("method"))
      range.method = method->str();
    if (auto samples = entry->getInteger("samples"))
      range.samples = *samples;
    table.push_back({key.str(), range});
  }
  llvm::sort(table, [](auto &a, auto &b) { return a.first < b.first; });
  return table;
}
