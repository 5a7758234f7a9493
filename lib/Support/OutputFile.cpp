//===- OutputFile.cpp - output files that appear whole or not at all ------===//

#include "onnx-quant/Support/OutputFile.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"

#include <mutex>

using namespace mlir;
using namespace mlir::onnxq;
namespace fs = llvm::sys::fs;

namespace {
/// The innermost live DeferredOutputs; passes may run on several threads.
std::mutex deferredMutex;
DeferredOutputs *activeDeferred = nullptr;
} // namespace

OutputFile::OutputFile(std::string path, std::optional<fs::TempFile> temp,
                       std::unique_ptr<llvm::raw_fd_ostream> stream)
    : path(std::move(path)), temp(std::move(temp)), stream(std::move(stream)) {}

std::unique_ptr<OutputFile> OutputFile::open(StringRef path,
                                             std::string &error) {
  fs::file_status status;
  bool inPlace = path == "-" || (!fs::status(path, status) &&
                                 fs::exists(status) && !fs::is_regular_file(status));
  if (inPlace) {
    std::error_code ec;
    auto stream = std::make_unique<llvm::raw_fd_ostream>(path, ec);
    if (ec) {
      error = ec.message();
      return nullptr;
    }
    return std::unique_ptr<OutputFile>(
        new OutputFile(path.str(), std::nullopt, std::move(stream)));
  }
  if (fs::is_directory(path)) {
    error = "it is a directory";
    return nullptr;
  }
  // In the same directory, so that the final rename stays on one file
  // system; the name keeps the extension out of the way of build globs.
  SmallString<256> model(path);
  llvm::sys::path::remove_filename(model);
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(path) +
                                     ".tmp-%%%%%%");
  llvm::Expected<fs::TempFile> temp = fs::TempFile::create(model);
  if (!temp) {
    error = llvm::toString(temp.takeError());
    return nullptr;
  }
  auto stream = std::make_unique<llvm::raw_fd_ostream>(temp->FD,
                                                       /*shouldClose=*/false);
  return std::unique_ptr<OutputFile>(
      new OutputFile(path.str(), std::move(*temp), std::move(stream)));
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
  if (stream) {
    stream->flush();
    stream->clear_error(); // else raw_fd_ostream aborts on destruction
    stream.reset();
  }
  if (temp) {
    llvm::consumeError(temp->discard());
    temp.reset();
  }
}

LogicalResult OutputFile::finish(std::string &error) {
  if (finished)
    return success();
  stream->flush();
  if (std::error_code ec = stream->error()) {
    error = ec.message();
    discard();
    return failure();
  }
  finished = true;
  return success();
}

LogicalResult OutputFile::commit(std::string &error) {
  if (failed(finish(error)))
    return failure();
  stream.reset();
  if (!temp)
    return success();
  if (llvm::Error e = temp->keep(path)) {
    error = llvm::toString(std::move(e));
    discard();
    return failure();
  }
  temp.reset();
  return success();
}

LogicalResult OutputFile::commitOrDefer(std::unique_ptr<OutputFile> file,
                                        std::string &error) {
  DeferredOutputs *deferred;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    deferred = activeDeferred;
  }
  if (!deferred)
    return file->commit(error);
  // Written now, so that a full disk is reported by the pass that wrote.
  if (failed(file->finish(error)))
    return failure();
  deferred->add(std::move(file));
  return success();
}

DeferredOutputs::DeferredOutputs() {
  std::lock_guard<std::mutex> lock(deferredMutex);
  previous = activeDeferred;
  activeDeferred = this;
}

DeferredOutputs::~DeferredOutputs() {
  std::lock_guard<std::mutex> lock(deferredMutex);
  activeDeferred = previous;
  files.clear(); // discards what was not committed
}

void DeferredOutputs::add(std::unique_ptr<OutputFile> file) {
  std::lock_guard<std::mutex> lock(deferredMutex);
  files.push_back(std::move(file));
}

LogicalResult DeferredOutputs::commit(std::string &error,
                                      std::string &failedPath) {
  SmallVector<std::unique_ptr<OutputFile>> pending;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    pending = std::move(files);
    files.clear();
  }
  for (auto &file : pending)
    if (failed(file->finish(error))) {
      failedPath = file->getPath();
      return failure();
    }
  for (auto &file : pending)
    if (failed(file->commit(error))) {
      failedPath = file->getPath();
      return failure();
    }
  return success();
}

bool mlir::onnxq::isSameFile(StringRef a, StringRef b) {
  bool same = false;
  if (!fs::equivalent(a, b, same))
    return same;
  auto normalize = [](StringRef path) {
    SmallString<256> full(path);
    fs::make_absolute(full);
    llvm::sys::path::remove_dots(full, /*remove_dot_dot=*/true);
    return std::string(full);
  };
  return normalize(a) == normalize(b);
}
