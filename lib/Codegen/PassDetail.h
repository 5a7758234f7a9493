//===- PassDetail.h - generated pass bases of the codegen passes -*- C++ -*-===//

#ifndef ONNXQUANT_LIB_CODEGEN_PASSDETAIL_H
#define ONNXQUANT_LIB_CODEGEN_PASSDETAIL_H

#include "onnx-quant/Codegen/ABI.h"
#include "onnx-quant/Codegen/Passes.h"

#endif // ONNXQUANT_LIB_CODEGEN_PASSDETAIL_H
