//===- fuzz-samples.cpp - libFuzzer target: calibration data readers ------===//
//
// Feeds arbitrary bytes to the readers of calibration samples: `.npy`, ONNX
// TensorProto (`.pb`), JPEG and PNG images with a preprocessing spec. The
// first bytes choose the reader and the model input it must fit (element
// type and shape), the rest is the file. Errors are expected; a crash, a
// sanitizer report or a hang is a bug. scripts/fuzz.sh builds and runs it.
//
//===----------------------------------------------------------------------===//

#include "SampleSource.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <unistd.h>

using namespace mlir;
using namespace mlir::onnxq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  static const char *const kExtensions[] = {".npy", ".pb", ".jpg", ".png"};
  static const int64_t kTypes[] = {1, 2, 3, 7, 10}; // float, u8, s8, i64, f16
  unsigned reader = data[0] % 4;
  TensorABI input;
  input.name = "x";
  input.dtype = kTypes[data[1] % 5];
  input.elementBytes = input.dtype == 7 ? 8 : input.dtype == 1 ? 4
                       : input.dtype == 10 ? 2 : 1;
  input.shape = {1, reader >= 2 ? 3 : 1 + data[2] % 3, 1 + data[3] % 8,
                 1 + data[3] / 32};
  // One file per process, rewritten for each input (libFuzzer runs inputs
  // one at a time).
  std::string path = "/tmp/onnxq-fuzz-samples-" + std::to_string(getpid()) +
                     kExtensions[reader];
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(path, ec);
    if (ec)
      return 0;
    file.write(reinterpret_cast<const char *>(data) + 4, size - 4);
  }
  std::vector<char> bytes;
  std::string error;
  switch (reader) {
  case 0:
    (void)readNpy(path, input, bytes, error);
    break;
  case 1:
    (void)readTensorProto(path, input, bytes, error);
    break;
  default: {
    static FailureOr<ImagePreprocess> preprocess = [] {
      std::string unused;
      return parseImagePreprocess(
          "resize=6 crop=4 mean=0.5,0.5,0.5 std=0.25,0.25,0.25 scale=1/255",
          unused);
    }();
    input.shape = {1, 3, 4, 4};
    (void)readImage(path, input, *preprocess, bytes, error);
    break;
  }
  }
  return 0;
}
