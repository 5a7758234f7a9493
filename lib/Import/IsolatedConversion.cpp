//===- IsolatedConversion.cpp - libonnx's version converter, in a child ---===//

#include "IsolatedConversion.h"

#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
namespace onnxpb = ONNX_NAMESPACE;

// The child's reply: one tag byte, then the converted model or the message.
static constexpr char kConverted = 'M';
static constexpr char kFailed = 'E';

static bool writeAll(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= n;
  }
  return true;
}

/// Runs in the child: never returns.
[[noreturn]] static void convertInChild(onnxpb::ModelProto &model,
                                        int64_t targetOpset, int fd) {
  // A crash ends the child quietly; the parent reports it (the handlers
  // inherited from LLVM would print a stack dump and a bug-report request).
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    std::signal(signal, SIG_DFL);
  std::string reply;
  try {
    onnxpb::shape_inference::InferShapes(model);
    onnxpb::ModelProto converted =
        onnxpb::version_conversion::ConvertVersion(model, targetOpset);
    reply.push_back(kConverted);
    if (!converted.AppendToString(&reply))
      reply = std::string(1, kFailed) + "cannot serialize the converted model";
  } catch (const std::exception &e) {
    reply = std::string(1, kFailed) + e.what();
  }
  ::_exit(writeAll(fd, reply.data(), reply.size()) ? 0 : 1);
}

LogicalResult mlir::onnxq::convertVersionIsolated(onnxpb::ModelProto &model,
                                                  int64_t targetOpset,
                                                  std::string &error) {
  int fds[2];
  if (::pipe(fds) != 0) {
    error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return failure();
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot start the converter: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return failure();
  }
  if (pid == 0) {
    ::close(fds[0]);
    convertInChild(model, targetOpset, fds[1]);
  }
  ::close(fds[1]);
  std::string reply;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    reply.append(buffer, n);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    error = std::string("it crashed (") + ::strsignal(WTERMSIG(status)) +
            "): the model is malformed";
    return failure();
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
    error = "it stopped without a result: the model is malformed";
    return failure();
  }
  if (reply[0] == kFailed) {
    error = reply.substr(1);
    return failure();
  }
  onnxpb::ModelProto converted;
  if (reply[0] != kConverted ||
      !converted.ParseFromArray(reply.data() + 1, reply.size() - 1)) {
    error = "its result cannot be read";
    return failure();
  }
  model = std::move(converted);
  return success();
}
