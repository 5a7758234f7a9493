//===- SampleSource.cpp - calibration samples from a directory -----------------===//

#include "SampleSource.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <random>

using namespace mlir;
using namespace mlir::onnxq;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::unique_ptr<llvm::MemoryBuffer>
mlir::onnxq::readSampleFile(StringRef path, std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = "cannot read: " + file.getError().message();
    return nullptr;
  }
  return std::move(*file);
}

bool mlir::onnxq::sampleShapeMatches(ArrayRef<int64_t> given,
                                     ArrayRef<int64_t> expected) {
  auto strip = [](ArrayRef<int64_t> s) {
    while (!s.empty() && s.front() == 1)
      s = s.drop_front();
    return s;
  };
  return strip(given) == strip(expected);
}

std::string mlir::onnxq::describeONNXType(int64_t dtype) {
  switch (dtype) {
  case 1:
    return "float32";
  case 2:
    return "uint8";
  case 3:
    return "int8";
  case 6:
    return "int32";
  case 7:
    return "int64";
  case 9:
    return "bool";
  case 10:
    return "float16";
  case 11:
    return "float64";
  case 0:
    return "unsupported";
  default:
    return "ONNX data type " + std::to_string(dtype);
  }
}

namespace {
/// Sorted names of the entries of `dir` (files and folders).
std::vector<std::string> listDirectory(StringRef dir, std::error_code &ec) {
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec))
    names.push_back(path::filename(it->path()).str());
  llvm::sort(names);
  return names;
}

bool hasExtension(StringRef name, ArrayRef<StringRef> extensions) {
  std::string ext = path::extension(name).lower();
  return llvm::is_contained(extensions, ext);
}

std::string joinPath(StringRef a, StringRef b) {
  SmallString<256> p(a);
  path::append(p, b);
  return p.str().str();
}
} // namespace

FailureOr<SampleSource> SampleSource::open(StringRef dir,
                                           ArrayRef<TensorABI> inputs,
                                           const ImagePreprocess *preprocess,
                                           Location loc) {
  if (!fs::is_directory(dir))
    return emitError(loc) << "calibration data '" << dir
                          << "' is not a directory (give data=DIR)";
  std::error_code ec;
  std::vector<std::string> names = listDirectory(dir, ec);
  if (ec)
    return emitError(loc) << "cannot list calibration data '" << dir
                          << "': " << ec.message();
  SampleSource source;
  source.inputs = inputs;
  auto filesWith = [&](ArrayRef<StringRef> exts) {
    std::vector<std::string> files;
    for (const std::string &name : names)
      if (hasExtension(name, exts) && !fs::is_directory(joinPath(dir, name)))
        files.push_back(joinPath(dir, name));
    return files;
  };
  std::vector<std::string> npy = filesWith({".npy"});
  std::vector<std::string> images = filesWith({".jpg", ".jpeg", ".png"});
  std::vector<std::string> testSets;
  for (const std::string &name : names)
    if (StringRef(name).starts_with("test_data_set_") &&
        fs::is_directory(joinPath(dir, name)))
      testSets.push_back(joinPath(dir, name));
  bool perInput = inputs.size() > 1 && llvm::all_of(inputs, [&](auto &input) {
    return fs::is_directory(joinPath(dir, input.name));
  });

  int formats = !npy.empty() + !images.empty() + !testSets.empty() + perInput;
  if (formats > 1)
    return emitError(loc) << "calibration data '" << dir
                          << "' mixes formats (.npy files, images, "
                             "test_data_set_* folders, per-input folders); "
                             "keep one";
  if (!testSets.empty()) {
    source.format = "onnx-pb";
    for (const std::string &set : testSets) {
      std::vector<std::string> files;
      for (size_t i = 0; i < inputs.size(); ++i)
        files.push_back(joinPath(set, "input_" + std::to_string(i) + ".pb"));
      source.entries.push_back(std::move(files));
    }
  } else if (perInput) {
    source.format = "npy-per-input";
    std::vector<std::vector<std::string>> columns;
    for (const TensorABI &input : inputs) {
      std::string sub = joinPath(dir, input.name);
      std::vector<std::string> files;
      for (const std::string &name : listDirectory(sub, ec))
        if (hasExtension(name, {".npy"}))
          files.push_back(joinPath(sub, name));
      if (!columns.empty() && files.size() != columns.front().size())
        return emitError(loc) << "calibration data: '" << sub << "' has "
                              << files.size() << " .npy files but '"
                              << joinPath(dir, inputs.front().name) << "' has "
                              << columns.front().size()
                              << "; every input needs one file per sample";
      columns.push_back(std::move(files));
    }
    for (size_t k = 0; k < columns.front().size(); ++k) {
      std::vector<std::string> files;
      for (auto &column : columns)
        files.push_back(column[k]);
      source.entries.push_back(std::move(files));
    }
  } else if (!npy.empty() || !images.empty()) {
    if (inputs.size() != 1) {
      InFlightDiagnostic diag = emitError(loc)
                                << "the model has " << inputs.size()
                                << " inputs: give one folder per input in '"
                                << dir << "' (";
      for (auto [i, input] : llvm::enumerate(inputs))
        diag << (i ? ", " : "") << input.name << "/*.npy";
      diag << ") or test_data_set_*/input_N.pb folders";
      return diag;
    }
    source.format = npy.empty() ? "image" : "npy";
    for (std::string &file : npy.empty() ? images : npy)
      source.entries.push_back({std::move(file)});
  }
  if (source.entries.empty())
    return emitError(loc) << "calibration data '" << dir
                          << "' holds no samples (expected *.npy, *.jpg, "
                             "*.jpeg, *.png or test_data_set_*/input_N.pb)";
  if (source.format == "image") {
    if (preprocess) {
      source.preprocess = *preprocess;
    } else {
      // Default: resize straight to the input's size, 0..1 RGB, NCHW unless
      // the last dimension is the 3 channels.
      source.preprocess.scale = 1.0 / 255.0;
      source.preprocess.nhwc =
          inputs[0].shape.size() == 4 && inputs[0].shape[3] == 3 &&
          inputs[0].shape[1] != 3;
      emitRemark(loc) << "calibration images: no preprocess= given; resizing "
                         "to the input size, RGB scaled to [0, 1], "
                      << (source.preprocess.nhwc ? "NHWC" : "NCHW");
    }
  }
  return source;
}

void SampleSource::selectSubset(size_t count, uint64_t seed) {
  if (count >= entries.size())
    return;
  std::vector<size_t> order(entries.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  order.resize(count);
  llvm::sort(order);
  std::vector<std::vector<std::string>> chosen;
  for (size_t i : order)
    chosen.push_back(std::move(entries[i]));
  entries = std::move(chosen);
}

bool SampleSource::load(size_t index, Sample &sample,
                        std::string &error) const {
  const std::vector<std::string> &files = entries[index];
  sample.label = files.size() == 1 ? files.front()
                                   : path::parent_path(files.front()).str();
  sample.inputs.clear();
  for (auto [file, input] : llvm::zip(files, inputs)) {
    std::vector<char> bytes;
    std::string reason;
    LogicalResult read =
        format == "image"     ? readImage(file, input, preprocess, bytes, reason)
        : format == "onnx-pb" ? readTensorProto(file, input, bytes, reason)
                              : readNpy(file, input, bytes, reason);
    if (failed(read)) {
      error = "calibration sample '" + file + "': " + reason;
      return false;
    }
    sample.inputs.push_back(std::move(bytes));
  }
  return true;
}
