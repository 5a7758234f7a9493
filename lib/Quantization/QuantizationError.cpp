//===- QuantizationError.cpp - measuring what quantization changed --------===//

#include "QuantizationError.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Execution/ObservingModel.h"

#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

void SQNR::add(ArrayRef<float> x, ArrayRef<float> xq) {
  for (auto [a, b] : llvm::zip_equal(x, xq)) {
    double d = double(a) - double(b);
    signal += double(a) * double(a);
    noise += d * d;
  }
}

double SQNR::getDecibels() const {
  if (noise == 0)
    return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(signal / noise); // 20 log10 of the norms' ratio
}

std::string mlir::onnxq::formatDecibels(double db) {
  if (std::isinf(db))
    return db > 0 ? "inf" : "-inf";
  return llvm::formatv("{0:F2}", db).str();
}

std::string mlir::onnxq::formatDecibels(const std::optional<double> &db) {
  return db ? formatDecibels(*db) : "-";
}

llvm::json::Value mlir::onnxq::decibelsToJSON(const std::optional<double> &db) {
  if (!db)
    return nullptr;
  if (std::isinf(*db))
    return formatDecibels(*db);
  return *db;
}

std::string mlir::onnxq::formatLayer(StringRef node, StringRef folded) {
  return folded.empty() ? node.str() : (node + " (+" + folded + ")").str();
}

std::pair<int64_t, int64_t> mlir::onnxq::getIntegerBounds(IntegerType type) {
  unsigned bits = type.getWidth();
  if (type.isUnsigned())
    return {0, int64_t((uint64_t(1) << bits) - 1)};
  return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
}

std::optional<DequantizeParameters>
DequantizeParameters::get(const QuantizedTensor &tensor) {
  DequantizeParameters result;
  std::optional<SmallVector<float>> scale = getConstantFloats(tensor.scale);
  auto type = dyn_cast<IntegerType>(getElementTypeOrSelf(tensor.x));
  auto shaped = dyn_cast<RankedTensorType>(tensor.x.getType());
  if (!scale || scale->empty() || !type || !shaped)
    return std::nullopt;
  result.scales = std::move(*scale);
  result.zeroPoints.assign(result.scales.size(), 0);
  if (tensor.zeroPoint) {
    std::optional<SmallVector<int64_t>> zp =
        getConstantIntegers(tensor.zeroPoint);
    if (!zp || zp->size() != result.scales.size())
      return std::nullopt;
    result.zeroPoints = std::move(*zp);
  }
  std::tie(result.qmin, result.qmax) = getIntegerBounds(type);
  if (result.scales.size() == 1 && tensor.blockSize <= 0)
    return result;
  ArrayRef<int64_t> shape = shaped.getShape();
  int64_t axis = tensor.axis;
  if (axis < 0)
    axis += shape.size();
  if (axis < 0 || axis >= int64_t(shape.size()) || !shaped.hasStaticShape())
    return std::nullopt;
  result.layout = AxisLayout::get(shape, axis, tensor.blockSize);
  if (result.layout.getParameterCount(shaped.getNumElements()) !=
      int64_t(result.scales.size()))
    return std::nullopt;
  return result;
}

std::optional<SmallVector<float>>
mlir::onnxq::dequantizeConstant(const QuantizedTensor &tensor) {
  std::optional<SmallVector<int64_t>> q = getConstantIntegers(tensor.x);
  std::optional<DequantizeParameters> params =
      DequantizeParameters::get(tensor);
  if (!q || !params)
    return std::nullopt;
  SmallVector<float> result(q->size());
  for (auto [i, v] : llvm::enumerate(*q)) {
    size_t c = params->getChannel(i);
    // As DequantizeLinear: the difference in integers, then one multiply.
    result[i] = float(v - params->zeroPoints[c]) * params->scales[c];
  }
  return result;
}

std::pair<float, float> mlir::onnxq::getClampBounds(Operation *activation) {
  float inf = std::numeric_limits<float>::infinity();
  std::pair<float, float> bounds{0.0f, inf};
  auto clip = dyn_cast<ClipOp>(activation);
  if (!clip)
    return bounds;
  auto bound = [](Value v) -> std::optional<float> {
    auto values = v ? getConstantFloats(v) : std::nullopt;
    if (!values || values->size() != 1)
      return std::nullopt;
    return values->front();
  };
  bounds.first = bound(clip.getMin()).value_or(-inf);
  bounds.second = bound(clip.getMax()).value_or(inf);
  return bounds;
}

RangeHistogram::RangeHistogram(float rangeLo, float rangeHi)
    : rangeLo(rangeLo), rangeHi(rangeHi), bins(kBins, 0) {
  float margin = 0.5f * (rangeHi - rangeLo);
  if (!(margin > 0))
    margin = std::max(1.0f, std::abs(rangeHi));
  windowLo = rangeLo - margin;
  windowHi = rangeHi + margin;
}

void RangeHistogram::add(ArrayRef<float> values) {
  double width = (double(windowHi) - double(windowLo)) / kBins;
  for (float v : values) {
    ++total;
    if (v < rangeLo || v > rangeHi || std::isnan(v))
      ++clipped;
    if (!(v >= windowLo)) {
      ++below;
      continue;
    }
    if (v > windowHi) {
      ++above;
      continue;
    }
    int bin = int((double(v) - double(windowLo)) / width);
    ++bins[std::min(bin, kBins - 1)];
  }
}

std::optional<std::pair<float, float>>
mlir::onnxq::getRepresentableRange(QuantizeLinearOp quantize) {
  std::optional<SmallVector<float>> scale =
      getConstantFloats(quantize.getYScale());
  if (!scale || scale->size() != 1)
    return std::nullopt;
  int64_t zeroPoint = 0;
  if (quantize.getYZeroPoint()) {
    std::optional<SmallVector<int64_t>> zp =
        getConstantIntegers(quantize.getYZeroPoint());
    if (!zp || zp->size() != 1)
      return std::nullopt;
    zeroPoint = zp->front();
  }
  auto type = dyn_cast<IntegerType>(getElementTypeOrSelf(quantize.getY()));
  if (!type)
    return std::nullopt;
  auto [qmin, qmax] = getIntegerBounds(type);
  return std::make_pair(float(qmin - zeroPoint) * scale->front(),
                        float(qmax - zeroPoint) * scale->front());
}

FailureOr<MeasuredErrors> mlir::onnxq::measureQuantizationErrors(
    ModuleOp floatModule, func::FuncOp floatFunc, ModuleOp quantizedModule,
    func::FuncOp quantizedFunc, ArrayRef<MeasuredTensor> tensors,
    const SampleSpec &spec, StringRef user, Location loc) {
  // Observed: tensor k of the float graph; its dequantized value in the
  // quantized graph; and in the fake-quant copy, for each tensor with a
  // local error (index j), its QuantizeLinear's input (2j) and the
  // dequantized value (2j + 1).
  std::vector<ObservedTensor> floatTensors, quantizedTensors, fakeTensors;
  std::vector<size_t> withLocal;
  for (auto [k, tensor] : llvm::enumerate(tensors)) {
    floatTensors.push_back({tensor.floatValue, tensor.name});
    quantizedTensors.push_back({tensor.dequantized, tensor.name});
    if (!tensor.quantizerInput)
      continue;
    withLocal.push_back(k);
    fakeTensors.push_back({tensor.quantizerInput, tensor.name + ":pre"});
    fakeTensors.push_back({tensor.dequantized, tensor.name});
  }
  auto floatModel = ObservingModel::compile(floatModule, floatFunc, floatTensors,
                                            "onnxq_measure_float", loc);
  if (failed(floatModel))
    return failure();
  auto quantizedModel =
      ObservingModel::compile(quantizedModule, quantizedFunc, quantizedTensors,
                              "onnxq_measure_quantized", loc);
  if (failed(quantizedModel))
    return failure();
  // Both read the same input buffers.
  const std::vector<TensorABI> &floatInputs = (*floatModel)->getABI().inputs;
  const std::vector<TensorABI> &quantizedInputs =
      (*quantizedModel)->getABI().inputs;
  if (floatInputs.size() != quantizedInputs.size())
    return emitError(loc) << user << ": the float model has "
                          << floatInputs.size() << " inputs, the quantized one "
                          << quantizedInputs.size();
  for (auto [a, b] : llvm::zip_equal(floatInputs, quantizedInputs))
    if (a.dtype != b.dtype || a.shape != b.shape)
      return emitError(loc)
             << user << ": input '" << a.name << "' of the float model and '"
             << b.name << "' of the quantized one differ in type or shape ("
             << formatShape(a.shape) << " vs " << formatShape(b.shape)
             << "; --input-shape applies to both)";
  std::unique_ptr<ObservingModel> fakeModel;
  if (!withLocal.empty()) {
    auto compiled = ObservingModel::compile(quantizedModule, quantizedFunc,
                                            fakeTensors,
                                            "onnxq_measure_fake_quant", loc);
    if (failed(compiled))
      return failure();
    fakeModel = std::move(*compiled);
  }

  const ModelABI &abi = (*floatModel)->getABI();
  auto batches = SampleBatches::open(spec, abi, abi.getBatchSize(), user, loc);
  if (failed(batches))
    return failure();
  std::vector<SQNR> errors(tensors.size()), localErrors(withLocal.size());
  std::vector<std::optional<RangeHistogram>> histograms(tensors.size());
  std::vector<MeasuredErrors::ArgMax> argMaxes;
  auto argMax = [](ArrayRef<float> values) -> int64_t {
    return std::max_element(values.begin(), values.end()) - values.begin();
  };
  for (auto [histogram, tensor] : llvm::zip_equal(histograms, tensors))
    if (tensor.range)
      histogram.emplace(tensor.range->first, tensor.range->second);
  std::vector<float> clamped;
  LogicalResult ran = (*batches)->forEach([&]() -> LogicalResult {
    for (ObservingModel *model :
         {floatModel->get(), quantizedModel->get(), fakeModel.get()})
      if (model)
        if (int status = model->run((*batches)->getInputs()))
          return emitError(loc)
                 << user << ": the "
                 << (model == floatModel->get() ? "float" : "quantized")
                 << " model failed on sample '" << (*batches)->getLastLabel()
                 << "' (status " << status << ")";
    for (size_t k = 0; k < tensors.size(); ++k) {
      errors[k].add((*floatModel)->getObserved(k),
                    (*quantizedModel)->getObserved(k));
      if (histograms[k])
        histograms[k]->add((*floatModel)->getObserved(k));
      if (tensors[k].compareArgMax)
        argMaxes.push_back({(*batches)->getLastLabel().str(),
                            argMax((*floatModel)->getObserved(k)),
                            argMax((*quantizedModel)->getObserved(k))});
    }
    for (auto [j, k] : llvm::enumerate(withLocal)) {
      ArrayRef<float> input = fakeModel->getObserved(2 * j);
      clamped.assign(input.begin(), input.end());
      for (float &v : clamped)
        v = std::clamp(v, tensors[k].lo, tensors[k].hi);
      localErrors[j].add(clamped, fakeModel->getObserved(2 * j + 1));
    }
    return success();
  });
  if (failed(ran))
    return failure();
  MeasuredErrors result;
  result.samples = (*batches)->getUsed();
  result.format = (*batches)->getFormat().str();
  if (result.samples == 0)
    return result;
  for (const SQNR &error : errors)
    result.activation.push_back(error.getDecibels());
  result.histograms = std::move(histograms);
  result.argMaxes = std::move(argMaxes);
  result.local.resize(tensors.size());
  for (auto [j, k] : llvm::enumerate(withLocal))
    result.local[k] = localErrors[j].getDecibels();
  return result;
}
