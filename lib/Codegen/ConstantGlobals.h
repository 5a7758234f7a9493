//===- ConstantGlobals.h - the value behind a constant global ---*- C++ -*-===//
//
// Weights and per-channel multipliers reach the kernel stage as buffers read
// from `constant` memref.globals; planning reads their values.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CODEGEN_CONSTANTGLOBALS_H
#define ONNXQUANT_LIB_CODEGEN_CONSTANTGLOBALS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::onnxq {

/// The value of the constant global that `buffer` is (a memref.get_global of
/// a `constant` memref.global), else null.
inline ElementsAttr getConstantGlobalValue(Value buffer) {
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  auto global = get ? SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                          get, get.getNameAttr())
                    : memref::GlobalOp();
  return global ? global.getConstantInitValue() : ElementsAttr();
}

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CODEGEN_CONSTANTGLOBALS_H
