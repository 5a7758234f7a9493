//===- TensorProtoReader.cpp - one tensor from an ONNX input_N.pb ---------===//

#include "SampleSource.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"


#include "onnx/onnx_pb.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnxq;
namespace onnxpb = ONNX_NAMESPACE;

/// Copies a typed repeated field into little-endian bytes of `width` each.
template <typename Field>
static void copyField(const Field &field, unsigned width,
                      std::vector<char> &bytes) {
  bytes.resize(size_t(field.size()) * width);
  for (int i = 0; i < field.size(); ++i) {
    auto value = field.Get(i);
    std::memcpy(bytes.data() + size_t(i) * width, &value, width);
  }
}

LogicalResult mlir::onnxq::readTensorProto(StringRef path,
                                           const TensorABI &input,
                                           std::vector<char> &bytes,
                                           std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> file = readSampleFile(path, error);
  if (!file)
    return failure();
  onnxpb::TensorProto tensor;
  StringRef data = file->getBuffer();
  if (!tensor.ParseFromArray(data.data(), int(data.size()))) {
    error = "not a valid ONNX TensorProto";
    return failure();
  }
  if (tensor.data_type() != input.dtype) {
    error = "element type " + describeONNXType(tensor.data_type()) +
            " does not match input '" + input.name + "' of type " +
            describeONNXType(input.dtype);
    return failure();
  }
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (!sampleShapeMatches(shape, input.shape)) {
    error = "shape " + formatShape(shape) + " does not match input '" +
            input.name + "' of shape " + formatShape(input.shape);
    return failure();
  }
  if (tensor.data_location() == onnxpb::TensorProto::EXTERNAL) {
    error = "external data is not supported in sample files";
    return failure();
  }
  unsigned width = input.elementBytes;
  if (tensor.has_raw_data())
    bytes.assign(tensor.raw_data().begin(), tensor.raw_data().end());
  else if (tensor.float_data_size())
    copyField(tensor.float_data(), width, bytes);
  else if (tensor.double_data_size())
    copyField(tensor.double_data(), width, bytes);
  else if (tensor.int64_data_size())
    copyField(tensor.int64_data(), width, bytes);
  else if (tensor.int32_data_size()) // also int8/uint8/int16/bool/float16 bits
    copyField(tensor.int32_data(), width, bytes);
  size_t expected = size_t(input.getNumElements()) * width;
  if (bytes.size() != expected) {
    error = "holds " + std::to_string(bytes.size()) + " bytes of data, expected " +
            std::to_string(expected);
    return failure();
  }
  return success();
}
