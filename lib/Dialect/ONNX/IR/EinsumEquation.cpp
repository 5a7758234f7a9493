//===- EinsumEquation.cpp - Einsum equations as loop labels ---------------===//

#include "onnx-quant/Dialect/ONNX/IR/EinsumEquation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::onnxq;

static constexpr unsigned kLetters = 52;

static std::optional<unsigned> letterLabel(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a';
  if (c >= 'A' && c <= 'Z')
    return 26 + (c - 'A');
  return std::nullopt;
}

/// The labels of one term for an operand of `rank` axes (-1: the result,
/// whose ellipsis stands for `ellipsisRank` axes).
static FailureOr<SmallVector<unsigned>> parseTerm(StringRef term, int64_t rank,
                                                  int64_t ellipsisRank,
                                                  std::string &error) {
  size_t dots = term.find("...");
  if (dots != StringRef::npos && term.find("...", dots + 3) != StringRef::npos) {
    error = "term '" + term.str() + "' has more than one ellipsis";
    return failure();
  }
  StringRef before = dots == StringRef::npos ? term : term.take_front(dots);
  StringRef after = dots == StringRef::npos ? "" : term.drop_front(dots + 3);
  int64_t letters = before.size() + after.size();
  int64_t ellipsis = 0;
  if (dots != StringRef::npos)
    ellipsis = rank < 0 ? ellipsisRank : rank - letters;
  if (ellipsis < 0 || (rank >= 0 && dots == StringRef::npos && letters != rank)) {
    error = "term '" + term.str() + "' does not match an operand of rank " +
            std::to_string(rank);
    return failure();
  }
  SmallVector<unsigned> labels;
  auto addLetters = [&](StringRef part) -> LogicalResult {
    for (char c : part) {
      std::optional<unsigned> label = letterLabel(c);
      if (!label) {
        error = std::string("'") + c + "' is not a letter";
        return failure();
      }
      labels.push_back(*label);
    }
    return success();
  };
  if (failed(addLetters(before)))
    return failure();
  for (int64_t j = 0; j < ellipsis; ++j)
    labels.push_back(kLetters + (ellipsis - 1 - j));
  if (failed(addLetters(after)))
    return failure();
  return labels;
}

FailureOr<EinsumEquation>
mlir::onnxq::parseEinsumEquation(StringRef equation, ArrayRef<int64_t> ranks,
                                 std::string &error) {
  std::string compact;
  for (char c : equation)
    if (c != ' ')
      compact.push_back(c);
  StringRef text(compact);
  auto [inputs, output] = text.split("->");
  bool explicitOutput = text.contains("->");
  SmallVector<StringRef> terms;
  inputs.split(terms, ',');
  if (terms.size() != ranks.size()) {
    error = "has " + std::to_string(terms.size()) + " input terms for " +
            std::to_string(ranks.size()) + " inputs";
    return failure();
  }
  EinsumEquation eq;
  int64_t maxEllipsis = 0;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    FailureOr<SmallVector<unsigned>> labels = parseTerm(term, rank, 0, error);
    if (failed(labels))
      return failure();
    for (unsigned label : *labels)
      if (label >= kLetters)
        maxEllipsis = std::max<int64_t>(maxEllipsis, label - kLetters + 1);
    eq.operands.push_back(std::move(*labels));
  }
  eq.numLabels = kLetters + maxEllipsis;
  if (explicitOutput) {
    FailureOr<SmallVector<unsigned>> labels =
        parseTerm(output, -1, maxEllipsis, error);
    if (failed(labels))
      return failure();
    for (auto [i, label] : llvm::enumerate(*labels)) {
      if (llvm::is_contained(ArrayRef(*labels).take_front(i), label)) {
        error = "the output repeats a label";
        return failure();
      }
      if (llvm::none_of(eq.operands, [&](ArrayRef<unsigned> operand) {
            return llvm::is_contained(operand, label);
          })) {
        error = "the output has a label no input has";
        return failure();
      }
    }
    eq.result = std::move(*labels);
    return eq;
  }
  // Implicit output: the ellipsis axes, then the letters used once, in
  // alphabetical (ASCII) order.
  for (int64_t j = maxEllipsis - 1; j >= 0; --j)
    eq.result.push_back(kLetters + j);
  SmallVector<char> once;
  for (char c : inputs) {
    std::optional<unsigned> label = letterLabel(c);
    if (label && llvm::count(inputs, c) == 1)
      once.push_back(c);
  }
  llvm::sort(once);
  for (char c : once)
    eq.result.push_back(*letterLabel(c));
  return eq;
}
