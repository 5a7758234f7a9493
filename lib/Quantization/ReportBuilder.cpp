//===- ReportBuilder.cpp - measuring the quantization error ---------------===//
//
// Weights: the float constants of the copy taken before the pass against
// their DequantizeLinear in the quantized graph, evaluated here.
// Activations (ONNX Runtime qdq_loss_debug's "xmodel" error): the float
// graph and the quantized graph both run (JIT, as calibration does) on the
// same samples; each quantized layer's output, after its DequantizeLinear,
// is compared with the float graph's tensor it stands for, so errors
// accumulate along the graph as they do in the deployed model.
// Local (qdq_loss_debug's "qdq_err"): in a fake-quant run of the quantized
// graph, the tensor a layer's output QuantizeLinear reads against its
// DequantizeLinear.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Execution/ObservingModel.h"
#include "onnx-quant/Execution/SampleBatches.h"
#include "onnx-quant/Support/OutputFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr StringLiteral kPass = "onnx-quantize";

/// The float value of a DequantizeLinear of constants, or nullopt.
std::optional<SmallVector<float>> dequantizeConstant(DequantizeLinearOp dq) {
  std::optional<SmallVector<int64_t>> q =
      getConstantIntegers(dq.getX());
  std::optional<SmallVector<float>> scale =
      getConstantFloats(dq.getXScale());
  if (!q || !scale || scale->empty())
    return std::nullopt;
  SmallVector<int64_t> zeroPoint(scale->size(), 0);
  if (dq.getXZeroPoint()) {
    auto zp = getConstantIntegers(dq.getXZeroPoint());
    if (!zp || zp->size() != scale->size())
      return std::nullopt;
    zeroPoint = *zp;
  }
  // Per axis: element i belongs to channel (i / inner) % shape[axis].
  ArrayRef<int64_t> shape = cast<ShapedType>(dq.getX().getType()).getShape();
  int64_t axis = dq.getAxis();
  if (axis < 0)
    axis += shape.size();
  int64_t inner = 1;
  if (scale->size() > 1)
    for (size_t d = axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
  SmallVector<float> result(q->size());
  for (auto [i, v] : llvm::enumerate(*q)) {
    size_t c = scale->size() > 1 ? (i / inner) % shape[axis] : 0;
    // As DequantizeLinear: the difference in integers, then one multiply.
    result[i] = float(v - zeroPoint[c]) * (*scale)[c];
  }
  return result;
}

/// A folded Relu or Clip as [lo, hi] (Clip's bounds are constants).
std::pair<float, float> getClampBounds(Operation *activation) {
  float inf = std::numeric_limits<float>::infinity();
  std::pair<float, float> bounds{0.0f, inf};
  auto clip = dyn_cast<ClipOp>(activation);
  auto bound = [](Value v) -> std::optional<float> {
    auto values = v ? getConstantFloats(v) : std::nullopt;
    if (!values || values->size() != 1)
      return std::nullopt;
    return values->front();
  };
  if (clip)
    if (std::optional<float> hi = bound(clip.getMax()))
      bounds.second = *hi;
  return bounds;
}

std::string getName(Operation *op) {
  StringRef name = getNodeName(op);
  return name.empty() ? op->getName().stripDialect().str() : name.str();
}

/// The DequantizeLinear that follows the Q/DQ pair on `value`, if any.
Value getDequantized(Value value) {
  for (Operation *user : value.getUsers())
    if (auto q = dyn_cast<QuantizeLinearOp>(user))
      for (Operation *qUser : q->getUsers())
        if (auto dq = dyn_cast<DequantizeLinearOp>(qUser))
          return dq.getY();
  return nullptr;
}

} // namespace

ReportBuilder::ReportBuilder(Options options, Location loc)
    : options(std::move(options)), loc(loc) {}
ReportBuilder::~ReportBuilder() = default;

FailureOr<std::unique_ptr<ReportBuilder>>
ReportBuilder::create(ModuleOp module, func::FuncOp func, Options options) {
  auto fail = [&](const Twine &message) {
    return module.emitError() << kPass << ": " << message;
  };
  if (options.samples < 1)
    return fail("report-samples=" + Twine(options.samples) +
                " must be at least 1");
  if (!options.data.empty() && !llvm::sys::fs::is_directory(options.data))
    return fail("report-data='" + options.data + "' is not a directory");
  std::optional<ImagePreprocess> image;
  if (!options.preprocess.empty()) {
    std::string error;
    if (failed(parseImagePreprocess(options.preprocess, error)))
      return fail("report-preprocess: " + error);
  }
  std::unique_ptr<ReportBuilder> builder(
      new ReportBuilder(std::move(options), module.getLoc()));
  std::string error;
  builder->file = OutputFile::open(builder->options.file, error);
  if (!builder->file)
    return fail("cannot write report=" + builder->options.file + ": " + error);
  builder->floatModule = cast<ModuleOp>(module->clone(builder->toFloat));
  builder->floatFunc =
      cast<func::FuncOp>(builder->toFloat.lookup(func.getOperation()));
  builder->report.settings = builder->options.settings;
  return builder;
}

void ReportBuilder::recordDecisions(
    func::FuncOp func, ArrayRef<Operation *> layerOps,
    ArrayRef<Operation *> folded, const DenseSet<Operation *> &quantized,
    function_ref<StringRef(Operation *)> floatReason) {
  // A folded Relu/Clip: its producer's output now stands for its result.
  DenseMap<Operation *, Operation *> foldedInto;
  for (Operation *activation : folded)
    if (Operation *producer = activation->getOperand(0).getDefiningOp())
      foldedInto[producer] = activation;
  for (Operation *op : layerOps) {
    LayerReport layer;
    layer.node = getName(op);
    layer.opType = op->getName().stripDialect().str();
    Value standsFor = op->getResult(0);
    Layer entry{op, toFloat.lookupOrNull(op), nullptr};
    if (Operation *activation = foldedInto.lookup(op)) {
      layer.folded = getName(activation);
      standsFor = activation->getResult(0);
      std::tie(entry.lo, entry.hi) = getClampBounds(activation);
    }
    entry.floatActivation = toFloat.lookupOrNull(standsFor);
    report.layers.push_back(std::move(layer));
    layers.push_back(entry);
  }
  // Every other op of the graph stayed float; constants and the Q/DQ ops
  // the model already had are not ops to quantize.
  func.walk([&](Operation *op) {
    if (op == func || isa<func::ReturnOp, ConstantOp, QuantizeLinearOp,
                          DequantizeLinearOp>(op) ||
        llvm::is_contained(layerOps, op) || llvm::is_contained(folded, op))
      return;
    if (quantized.contains(op)) {
      report.passThrough.push_back(
          {getName(op), op->getName().stripDialect().str(), ""});
      return;
    }
    std::string reason = floatReason(op).str();
    if (reason.empty())
      reason = "its input stays float (it would keep its input's scale)";
    report.floatOps.push_back(
        {getName(op), op->getName().stripDialect().str(), reason});
  });
}

MeasurementData mlir::onnxq::chooseMeasurementData(ModuleOp module,
                                                   StringRef data,
                                                   StringRef preprocess) {
  if (!data.empty())
    return {data.str(), preprocess.str(), ""};
  std::optional<CalibrationInfo> calibration = getCalibrationInfo(module);
  if (!calibration || calibration->data.empty())
    return {"", "", "no report-data= given and no calibration data recorded "
                    "on the module"};
  if (!llvm::sys::fs::is_directory(calibration->data))
    return {"", "",
            "the calibration data '" + calibration->data +
                "' recorded on the module is gone; give report-data="};
  return {calibration->data,
          preprocess.empty() ? calibration->preprocess : preprocess.str(), ""};
}

FailureOr<SampleSpec> MeasurementData::getSampleSpec(int64_t samples,
                                                     StringRef user,
                                                     Location loc) const {
  SampleSpec spec;
  spec.data = data;
  spec.numSamples = samples;
  // Fewer samples than asked for is fine: the reports say how many.
  spec.numSamplesOption = "";
  if (!preprocess.empty()) {
    // report-preprocess was checked; the calibration's may be hand-edited.
    std::string error;
    FailureOr<ImagePreprocess> image = parseImagePreprocess(preprocess, error);
    if (failed(image))
      return emitError(loc) << user << ": preprocess '" << preprocess
                            << "': " << error;
    spec.image = std::move(*image);
  }
  return spec;
}

void ReportBuilder::chooseData(ModuleOp module) {
  measurementData = chooseMeasurementData(module, options.data, options.preprocess);
  report.data = measurementData.data;
  if (!report.data.empty())
    return;
  report.activationNote = measurementData.note + "; weights only";
  // Calibration data that is gone deserves a warning; none recorded does not.
  std::optional<CalibrationInfo> calibration = getCalibrationInfo(module);
  if (calibration && !calibration->data.empty())
    emitWarning(loc) << kPass << ": " << report.activationNote;
}

LogicalResult ReportBuilder::measureActivations(ModuleOp module,
                                                func::FuncOp func) {
  // Per measured layer k: the float graph returns the tensor the layer's
  // output stands for; the quantized graph, lowered as --emit=obj lowers it
  // (QDQ islands fused into integer kernels), its dequantized output; and
  // the fake-quant copy both the float tensor its output QuantizeLinear
  // reads (2k) and the dequantized output (2k + 1). That float tensor
  // exists only when Q/DQ run in float: returning it keeps --onnx-fuse-qdq
  // from fusing the layer, hence the separate copy.
  std::vector<ObservedTensor> floatTensors, quantizedTensors, fakeTensors;
  std::vector<size_t> measured; // indices into `layers`
  for (auto [i, layer] : llvm::enumerate(layers)) {
    Value dequantized = getDequantized(layer.op->getResult(0));
    if (!dequantized || !layer.floatActivation)
      continue;
    measured.push_back(i);
    const std::string &node = report.layers[i].node;
    floatTensors.push_back({layer.floatActivation, node});
    quantizedTensors.push_back({dequantized, node});
    fakeTensors.push_back({layer.op->getResult(0), node + ":pre"});
    fakeTensors.push_back({dequantized, node});
  }
  auto floatModel = ObservingModel::compile(*floatModule, floatFunc,
                                            floatTensors, "onnxq_report_float",
                                            loc);
  if (failed(floatModel))
    return failure();
  auto quantizedModel = ObservingModel::compile(
      module, func, quantizedTensors, "onnxq_report_quantized", loc);
  if (failed(quantizedModel))
    return failure();
  auto fakeModel = ObservingModel::compile(module, func, fakeTensors,
                                           "onnxq_report_fake_quant", loc);
  if (failed(fakeModel))
    return failure();

  const ModelABI &abi = (*floatModel)->getABI();
  std::string user = (kPass + ": report").str();
  FailureOr<SampleSpec> spec =
      measurementData.getSampleSpec(options.samples, user, loc);
  if (failed(spec))
    return failure();
  auto batches = SampleBatches::open(*spec, abi, abi.getBatchSize(), user, loc);
  if (failed(batches))
    return failure();
  std::vector<SQNR> errors(measured.size()), localErrors(measured.size());
  std::vector<float> pre;
  while (true) {
    FailureOr<bool> more = (*batches)->next();
    if (failed(more))
      return failure();
    if (!*more)
      break;
    for (auto *model :
         {floatModel->get(), quantizedModel->get(), fakeModel->get()})
      if (int status = model->run((*batches)->getInputs()))
        return emitError(loc)
               << kPass << ": report: the "
               << (model == floatModel->get() ? "float" : "quantized")
               << " model failed on sample '" << (*batches)->getLastLabel()
               << "' (status " << status << ")";
    for (size_t k = 0; k < measured.size(); ++k) {
      errors[k].add((*floatModel)->getObserved(k),
                    (*quantizedModel)->getObserved(k));
      ArrayRef<float> unclamped = (*fakeModel)->getObserved(2 * k);
      pre.assign(unclamped.begin(), unclamped.end());
      const Layer &layer = layers[measured[k]];
      for (float &v : pre)
        v = std::clamp(v, layer.lo, layer.hi);
      localErrors[k].add(pre, (*fakeModel)->getObserved(2 * k + 1));
    }
  }
  report.samples = (*batches)->getUsed();
  report.dataFormat = (*batches)->getFormat().str();
  report.activationsMeasured = report.samples > 0;
  if (!report.activationsMeasured) {
    report.activationNote = "no usable sample";
    return success();
  }
  for (auto [k, i] : llvm::enumerate(measured)) {
    LayerReport &entry = report.layers[i];
    entry.activationSQNR = errors[k].getDecibels();
    entry.localSQNR = localErrors[k].getDecibels();
  }
  return success();
}

LogicalResult ReportBuilder::finish(ModuleOp module, func::FuncOp func) {
  // Weights: every operand that became a DequantizeLinear of an integer
  // constant (the weight, operand 1; the int32 bias is not reported).
  for (auto [layer, entry] : llvm::zip(layers, report.layers)) {
    if (layer.op->getNumOperands() < 2 || !layer.floatOp)
      continue;
    auto dq = layer.op->getOperand(1).getDefiningOp<DequantizeLinearOp>();
    auto original = getConstantFloats(layer.floatOp->getOperand(1));
    if (!dq || !original)
      continue;
    std::optional<SmallVector<float>> dequantized = dequantizeConstant(dq);
    if (!dequantized || dequantized->size() != original->size())
      continue;
    SQNR error;
    error.add(*original, *dequantized);
    entry.weightSQNR = error.getDecibels();
    entry.weightGranularity =
        cast<ShapedType>(dq.getXScale().getType()).getRank() == 1
            ? "per-channel"
            : "per-tensor";
  }
  chooseData(module);
  if (!report.data.empty() && failed(measureActivations(module, func)))
    return failure();
  report.sort();
  if (StringRef(options.file).ends_with(".json"))
    report.printJSON(file->os());
  else
    report.printTable(file->os());
  std::string error;
  if (failed(OutputFile::commitOrDefer(std::move(file), error)))
    return emitError(loc) << kPass << ": cannot write report="
                          << options.file << ": " << error;
  if (!options.quiet)
    report.printSummary(llvm::errs(), options.file);
  return success();
}
