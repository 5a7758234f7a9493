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

#include "QuantizationError.h"
#include "Report.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXGraph.h"
#include "onnx-quant/Dialect/ONNX/IR/ONNXOps.h"
#include "onnx-quant/Support/OutputFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::onnxq;

namespace {

constexpr StringLiteral kPass = "onnx-quantize";

std::string getName(Operation *op) {
  StringRef name = getNodeName(op);
  return name.empty() ? op->getName().stripDialect().str() : name.str();
}

/// Per channel of a weight (along the DequantizeLinear's axis), the float
/// weights' extremes and the range the integers represent there.
std::optional<WeightRanges> getWeightRanges(ArrayRef<float> original,
                                            DequantizeLinearOp dq) {
  std::optional<DequantizeParameters> params =
      DequantizeParameters::get(QuantizedTensor::of(dq));
  if (!params)
    return std::nullopt;
  size_t channels = params->scales.size();
  float inf = std::numeric_limits<float>::infinity();
  WeightRanges ranges{std::vector<float>(channels, inf),
                      std::vector<float>(channels, -inf), {}, {}};
  for (auto [i, v] : llvm::enumerate(original)) {
    size_t c = params->getChannel(i);
    ranges.min[c] = std::min(ranges.min[c], v);
    ranges.max[c] = std::max(ranges.max[c], v);
  }
  for (size_t c = 0; c < channels; ++c) {
    float scale = params->scales[c];
    int64_t zp = params->zeroPoints[c];
    ranges.rangeLo.push_back(float(params->qmin - zp) * scale);
    ranges.rangeHi.push_back(float(params->qmax - zp) * scale);
  }
  return ranges;
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
  if (!builder->options.labels.empty() &&
      failed(builder->readLabels(module.getLoc())))
    return failure();
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

LogicalResult ReportBuilder::readLabels(Location loc) {
  const std::string &path = options.labels;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return emitError(loc) << kPass << ": cannot read report-labels='" << path
                          << "': " << buffer.getError().message();
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (auto [i, line] : llvm::enumerate(lines)) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    auto [sample, rest] = llvm::getToken(line);
    int64_t label;
    if (rest.trim().getAsInteger(10, label) || label < 0)
      return emitError(loc)
             << kPass << ": report-labels='" << path << "' line " << i + 1
             << ": expected 'SAMPLE CLASS' (a sample's file name, a class "
                "index >= 0), got '"
             << line << "'";
    labels[llvm::sys::path::filename(sample)] = label;
  }
  if (labels.empty())
    return emitError(loc) << kPass << ": report-labels='" << path
                          << "' has no 'SAMPLE CLASS' line";
  report.labelsFile = path;
  return success();
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
  // report-preprocess was checked; the calibration's may be hand-edited.
  std::string error;
  FailureOr<SampleSpec> spec = makeSampleSpec(data, preprocess, samples, error);
  if (failed(spec))
    return emitError(loc) << user << ": preprocess '" << preprocess
                          << "': " << error;
  // Fewer samples than asked for is fine: the reports say how many.
  spec->numSamplesOption = "";
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
  // Per measured layer: the float tensor its output stands for, its
  // dequantized output, and the tensor its output QuantizeLinear reads.
  // Then the graph inputs quantized (their own Q/DQ) and the float outputs
  // (against the float graph's).
  std::vector<MeasuredTensor> tensors;
  std::vector<size_t> measured; // indices into `layers`
  for (auto [i, layer] : llvm::enumerate(layers)) {
    Value dequantized = getDequantized(layer.op->getResult(0));
    if (!dequantized || !layer.floatActivation)
      continue;
    measured.push_back(i);
    MeasuredTensor &tensor = tensors.emplace_back(
        report.layers[i].node, layer.floatActivation, dequantized,
        layer.op->getResult(0));
    tensor.lo = layer.lo;
    tensor.hi = layer.hi;
    tensor.range = getRepresentableRange(
        dequantized.getDefiningOp()->getOperand(0).getDefiningOp<QuantizeLinearOp>());
  }
  // Graph inputs and outputs without an ONNX name are named as the exporter
  // names them.
  auto nameOr = [](StringRef name, StringRef kind, unsigned index) {
    return name.empty() ? (kind + "_" + Twine(index)).str() : name.str();
  };
  size_t firstInput = tensors.size();
  for (BlockArgument arg : func.getArguments())
    if (Value dequantized = getDequantized(arg))
      tensors.emplace_back(
          nameOr(getInputName(func, arg.getArgNumber()), "input",
                 arg.getArgNumber()),
          floatFunc.getArgument(arg.getArgNumber()), dequantized, arg);
  size_t firstOutput = tensors.size();
  auto returned = func.getBody().back().getTerminator()->getOperands();
  auto floatReturned = floatFunc.getBody().back().getTerminator()->getOperands();
  for (auto [k, pair] : llvm::enumerate(llvm::zip(returned, floatReturned))) {
    auto [value, floatValue] = pair;
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.getElementType().isF32() ||
        floatValue.getType() != value.getType())
      continue;
    MeasuredTensor output(nameOr(getOutputName(func, k), "output", k),
                          floatValue, value);
    // A classifier's scores: one dimension of more than one element
    // ([classes], [1, classes], [1, classes, 1, 1]).
    output.compareArgMax =
        returned.size() == 1 &&
        llvm::count_if(type.getShape(), [](int64_t d) { return d > 1; }) == 1;
    tensors.push_back(std::move(output));
  }
  std::string user = (kPass + ": report").str();
  FailureOr<SampleSpec> spec =
      measurementData.getSampleSpec(options.samples, user, loc);
  if (failed(spec))
    return failure();
  FailureOr<MeasuredErrors> errors = measureQuantizationErrors(
      *floatModule, floatFunc, module, func, tensors, *spec, user, loc);
  if (failed(errors))
    return failure();
  report.samples = errors->samples;
  report.dataFormat = errors->format;
  report.activationsMeasured = report.samples > 0;
  if (!report.activationsMeasured) {
    report.activationNote = "no usable sample";
    return success();
  }
  for (auto [k, i] : llvm::enumerate(measured)) {
    LayerReport &entry = report.layers[i];
    entry.activationSQNR = errors->activation[k];
    entry.localSQNR = errors->local[k];
    entry.histogram = std::move(errors->histograms[k]);
  }
  for (size_t k = firstInput; k < tensors.size(); ++k)
    (k < firstOutput ? report.inputs : report.outputs)
        .push_back({tensors[k].name, errors->activation[k]});
  if (llvm::any_of(tensors, [](auto &t) { return t.compareArgMax; }))
    report.top1Agreement = 0;
  for (const MeasuredErrors::ArgMax &sample : errors->argMaxes) {
    *report.top1Agreement += sample.floatArgMax == sample.quantizedArgMax;
    auto label = labels.find(llvm::sys::path::filename(sample.sample));
    if (label == labels.end())
      continue;
    ++report.labeledSamples;
    report.floatTop1 += sample.floatArgMax == label->second;
    report.quantizedTop1 += sample.quantizedArgMax == label->second;
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
    std::optional<SmallVector<float>> dequantized =
        dequantizeConstant(QuantizedTensor::of(dq));
    if (!dequantized || dequantized->size() != original->size())
      continue;
    SQNR error;
    error.add(*original, *dequantized);
    entry.weightSQNR = error.getDecibels();
    entry.weightRanges = getWeightRanges(*original, dq);
    entry.weightGranularity =
        cast<ShapedType>(dq.getXScale().getType()).getRank() == 1
            ? "per-channel"
            : "per-tensor";
  }
  chooseData(module);
  if (!report.data.empty() && failed(measureActivations(module, func)))
    return failure();
  report.sort();
  StringRef extension = llvm::sys::path::extension(options.file);
  if (extension == ".json")
    report.printJSON(file->os());
  else if (extension == ".html" || extension == ".htm")
    report.printHTML(file->os());
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
