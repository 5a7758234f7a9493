//===- NpyReader.cpp - one tensor from a NumPy .npy file ------------------===//

#include "SampleSource.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnxq;

namespace {
/// ONNX data type of a NumPy `descr` (little-endian or byte-sized only).
int64_t getONNXType(StringRef descr) {
  return llvm::StringSwitch<int64_t>(descr)
      .Cases({"<f4", "=f4"}, 1)
      .Cases({"|u1", "<u1"}, 2)
      .Cases({"|i1", "<i1"}, 3)
      .Cases({"<i4", "=i4"}, 6)
      .Cases({"<i8", "=i8"}, 7)
      .Case("|b1", 9)
      .Cases({"<f2", "=f2"}, 10)
      .Cases({"<f8", "=f8"}, 11)
      .Default(0);
}

/// The value of `key` in the header's Python dict literal, up to the next
/// top-level comma.
StringRef getHeaderField(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return {};
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim(" :");
  if (rest.starts_with("(")) // shape tuple
    return rest.take_until([](char c) { return c == ')'; }).drop_front();
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}
} // namespace

LogicalResult mlir::onnxq::readNpy(StringRef path, const TensorABI &input,
                                   std::vector<char> &bytes,
                                   std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> file = readSampleFile(path, error);
  if (!file)
    return failure();
  StringRef data = file->getBuffer();
  if (!data.starts_with("\x93NUMPY") || data.size() < 10) {
    error = "not a .npy file (no NUMPY magic)";
    return failure();
  }
  unsigned major = uint8_t(data[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = uint8_t(data[8]) | (uint8_t(data[9]) << 8);
    offset = 10;
  } else {
    if (data.size() < 12) {
      error = "truncated .npy header";
      return failure();
    }
    headerLen = uint32_t(uint8_t(data[8])) | (uint32_t(uint8_t(data[9])) << 8) |
                (uint32_t(uint8_t(data[10])) << 16) |
                (uint32_t(uint8_t(data[11])) << 24);
    offset = 12;
  }
  if (offset + headerLen > data.size()) {
    error = "truncated .npy header";
    return failure();
  }
  StringRef header = data.substr(offset, headerLen);
  StringRef descr = getHeaderField(header, "descr").trim("'\"");
  if (getHeaderField(header, "fortran_order") == "True") {
    error = "Fortran-ordered arrays are not supported; save with np.ascontiguousarray";
    return failure();
  }
  SmallVector<int64_t> shape;
  SmallVector<StringRef> dims;
  getHeaderField(header, "shape").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t value;
    if (dim.trim().getAsInteger(10, value)) {
      error = "bad shape in the .npy header";
      return failure();
    }
    shape.push_back(value);
  }
  int64_t dtype = getONNXType(descr);
  if (dtype != input.dtype) {
    error = ("element type " + descr + " (" + describeONNXType(dtype) +
             ") does not match input '" + input.name + "' of type " +
             describeONNXType(input.dtype))
                .str();
    return failure();
  }
  if (!sampleShapeMatches(shape, input.shape)) {
    error = "shape " + formatShape(shape) + " does not match input '" +
            input.name + "' of shape " + formatShape(input.shape);
    return failure();
  }
  size_t expected = size_t(input.getNumElements()) * input.elementBytes;
  StringRef payload = data.drop_front(offset + headerLen);
  if (payload.size() != expected) {
    error = "holds " + std::to_string(payload.size()) + " bytes of data, " +
            "expected " + std::to_string(expected);
    return failure();
  }
  bytes.assign(payload.begin(), payload.end());
  return success();
}
