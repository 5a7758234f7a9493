//===- OutputFile.h - output files that appear whole or not at all -*- C++ -*-===//
//
// Every file onnx-quant writes (the object, its header, save= ranges,
// report= tables) goes through OutputFile: it is opened before the work, as
// a temporary next to its path, so that an unwritable directory fails before
// a long compile; and it reaches its path by a rename once written, so that
// a failure (a full disk, a failed pass) never leaves a partial file behind.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_SUPPORT_OUTPUTFILE_H
#define ONNXQUANT_SUPPORT_OUTPUTFILE_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::onnxq {

class OutputFile {
public:
  /// Opens a temporary file in `path`'s directory. "-" is standard output,
  /// and a path that exists but is not a regular file (/dev/null, a pipe) is
  /// written in place. On failure, `error` says why (the caller names the
  /// file: "cannot write 'm.o': <error>").
  static std::unique_ptr<OutputFile> open(StringRef path, std::string &error);
  ~OutputFile();

  raw_ostream &os() { return *stream; }
  StringRef getPath() const { return path; }

  /// Flushes what was written and checks that it reached the disk.
  LogicalResult finish(std::string &error);
  /// finish(), then moves the temporary onto the path.
  LogicalResult commit(std::string &error);
  /// commit() now; or, while a DeferredOutputs scope is active, hands the
  /// file to it, to be committed with the compile's other outputs.
  static LogicalResult commitOrDefer(std::unique_ptr<OutputFile> file,
                                     std::string &error);

private:
  OutputFile(std::string path, std::optional<llvm::sys::fs::TempFile> temp,
             std::unique_ptr<llvm::raw_fd_ostream> stream);
  /// Removes the temporary; a file written in place stays as it is.
  void discard();

  std::string path;
  std::optional<llvm::sys::fs::TempFile> temp;
  std::unique_ptr<llvm::raw_fd_ostream> stream;
  bool finished = false;
};

/// While one is alive, OutputFile::commitOrDefer only collects files, and
/// commit() commits them together (every file written before any is
/// renamed); files not committed are discarded. The driver holds one
/// around a compile, so that the side outputs of its passes (save=,
/// report=) appear only when the whole compile succeeds.
class DeferredOutputs {
public:
  DeferredOutputs();
  ~DeferredOutputs();
  DeferredOutputs(const DeferredOutputs &) = delete;
  DeferredOutputs &operator=(const DeferredOutputs &) = delete;

  void add(std::unique_ptr<OutputFile> file);
  /// On failure, `error` says why and `failedPath` names the file.
  LogicalResult commit(std::string &error, std::string &failedPath);

private:
  SmallVector<std::unique_ptr<OutputFile>> files;
  DeferredOutputs *previous;
};

/// Whether two paths name the same file (existing or not).
bool isSameFile(StringRef a, StringRef b);

} // namespace mlir::onnxq

#endif // ONNXQUANT_SUPPORT_OUTPUTFILE_H
