//===- Passes.td - onnx-quant conversion passes ------------*- tablegen -*-===//

#ifndef ONNXQUANT_CONVERSION_PASSES_TD
#define ONNXQUANT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertONNXToLinalgPass : Pass<"convert-onnx-to-linalg", "func::FuncOp"> {
  let summary = "Lower onnx ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Every op with static shapes lowers to destination-style tensor IR:
    convolutions and pooling to linalg named ops, element-wise ops (with numpy
    broadcasting) and contractions to `linalg.generic`, shape ops to `tensor`
    reshapes and slices. Unsigned element types become signless. An op that
    has no lowering, or a form of it that is not supported, is an error naming
    the ONNX node.

    Quantized ops accumulate in int32 and requantize to 8 bits with ONNX
    Runtime's integers. `requant=float` (the default) does it as ONNX
    Runtime's kernels do, in float32 (a few instructions per vector);
    `requant=integer` computes the same integers with integer instructions
    only (an exact emulation of the float32 roundings in int64, several times
    slower), for targets without a floating-point unit.

    `vector-bits` shapes convolutions for the target: with stride 1, output
    pixel (oh, ow) is computed at flat position `oh * Wp + ow` of rows as
    wide as the padded input (`Wp`), which reads the input at `p + kh * Wp +
    kw`, one contiguous loop across rows. The kernel stage then fills its
    vectors along it where rows narrower than a vector would leave lanes
    idle (a 7x7 map: 7 of 16 lanes by rows, 49 of 64 flat); the columns past
    the output's width are computed and dropped. It is chosen per convolution
    when it takes fewer vectors; the results are the same.
  }];
  let options = [
    Option<"requant", "requant", "std::string", /*default=*/"\"float\"",
           "float | integer: how quantized ops requantize their accumulators">,
    Option<"int8Dot", "int8-dot", "std::string", /*default=*/"\"none\"",
           "none | vnni | sdot | amx: u8 x s8 convolutions in the packed form of AVX-512 VNNI's vpdpbusd or AArch64's sdot; amx as vnni, deep stride-1 ones with their channel words padded to whole AMX steps (16)">,
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "bits of the target's vectors: stride-1 convolutions whose output rows are short for them are computed over the padded width, rows flattened into one loop (0: never)">,
  ];
  let dependentDialects = [
    "arith::ArithDialect", "linalg::LinalgDialect", "math::MathDialect",
    "scf::SCFDialect", "tensor::TensorDialect", "vector::VectorDialect"
  ];
}

#endif // ONNXQUANT_CONVERSION_PASSES_TD
