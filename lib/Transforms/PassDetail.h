//===- PassDetail.h - shared by the graph passes ----------------*- C++ -*-===//

#ifndef ONNXQUANT_LIB_TRANSFORMS_PASSDETAIL_H
#define ONNXQUANT_LIB_TRANSFORMS_PASSDETAIL_H

#include "onnx-quant/Transforms/NodeNames.h"
#include "onnx-quant/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"


#endif // ONNXQUANT_LIB_TRANSFORMS_PASSDETAIL_H
