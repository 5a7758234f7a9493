// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-quant-opt %s --onnx-quantize="exclude=gemm_excluded report=%t/r.txt" -o /dev/null 2>%t/stderr
// RUN: FileCheck %s --check-prefix=TABLE --match-full-lines --strict-whitespace < %t/r.txt
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/stderr
// RUN: onnx-quant-opt %s --onnx-quantize="exclude=gemm_excluded report=%t/r.json quiet=true" -o /dev/null 2>%t/quiet
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RUN: count 0 < %t/quiet
// RUN: onnx-quant-opt %s --onnx-quantize="per-channel=false op-types=Gemm,Relu report=%t/t.txt" -o /dev/null
// RUN: FileCheck %s --check-prefix=TENSOR < %t/t.txt
// RUN: onnx-quant-opt %s --onnx-quantize="op-types=Relu report=%t/o.txt" -o /dev/null
// RUN: FileCheck %s --check-prefix=OPTYPES < %t/o.txt

// Weights [[1, -0.5], [0.25, 2]] per column (scales 1/127, 2/127): 0.25 and
// -0.5 are 31.75 steps and round to 32, off by 0.25/127 and 0.5/127; the
// rest is exact. SQNR = 10 log10(|w|^2 / |w - w_q|^2)
//   = 10 log10(5.3125 / (0.3125 / 127^2)) = 10 log10(17 * 127^2) = 54.38 dB.
// Per tensor (scale 2/127): w_q = [[64, -32], [16, 127]] * 2/127, errors
// 1, 0.5, 0.25 (/127): 10 log10(5.3125 / (1.3125 / 127^2)) = 48.15 dB.
// No data given and none recorded: weights only, said in the report.

//      TABLE:# onnx-quantize report (activations=u8 weights=s8 per-channel=true)
// TABLE-NEXT:# SQNR = 20 log10(|x| / |x - x_q|) dB (as ONNX Runtime's qdq_loss_debug), worst first
// TABLE-NEXT:# weight: float weights vs their stored integers dequantized
// TABLE-NEXT:# activation, local: not measured (no report-data= given and no calibration data recorded on the module; weights only)
// TABLE-NEXT:layer                                    op                  weight SQNR                activation      local
// TABLE-NEXT:gemm (+relu)                             Gemm                      54.38 per-channel             -          -
// TABLE-EMPTY:
// TABLE-NEXT:# stayed float: 2 ops
// TABLE-NEXT:node                                     op                 reason
// TABLE-NEXT:gemm_excluded                            Gemm               excluded by exclude=
// TABLE-NEXT:softmax                                  Softmax            no quantized form for this op type

// SUMMARY: onnx-quantize: 1 layers quantized, 2 ops float; worst weight SQNR 54.38 dB ('gemm'); activations not measured; report in {{.*}}r.txt

// JSON:      "activations": {
// JSON-NEXT:   "measured": false,
// JSON-NEXT:   "note": "no report-data= given {{.*}}; weights only"
// JSON:      "float_ops": [
// JSON-NEXT:   {
// JSON-NEXT:     "node": "gemm_excluded",
// JSON-NEXT:     "op": "Gemm",
// JSON-NEXT:     "reason": "excluded by exclude="
// JSON:          "node": "softmax",
// JSON:      "format": "onnx-quant quantization report 1",
// JSON:      "layers": [
// JSON-NEXT:   {
// JSON-NEXT:     "activation_sqnr": null,
// JSON-NEXT:     "folded": "relu",
// JSON-NEXT:     "local_sqnr": null,
// JSON-NEXT:     "node": "gemm",
// JSON-NEXT:     "op": "Gemm",
// JSON-NEXT:     "weight_granularity": "per-channel",
// JSON-NEXT:     "weight_sqnr": 54.38056
// JSON:      "settings": "activations=u8 weights=s8 per-channel=true"

// Both Gemms quantized; the one after the Relu reads ranges from it.
// TENSOR: gemm (+relu)                             Gemm                      48.15 per-tensor
// TENSOR: gemm_excluded                            Gemm                      48.15 per-tensor
// TENSOR: softmax                                  Softmax            no quantized form for this op type

// OPTYPES: relu                                     Relu                          -                         -          -
// OPTYPES: # stayed float: 3 ops
// OPTYPES: gemm                                     Gemm               op type not in op-types=
// OPTYPES: gemm_excluded                            Gemm               op type not in op-types=

func.func @main_graph(%x: tensor<1x2xf32> {onnx.name = "x", onnx.range = array<f32: 0.0, 2.55>}) -> tensor<1x2xf32> {
  %w = onnx.Constant dense<[[1.0, -0.5], [0.25, 2.0]]> : tensor<2x2xf32>
  %y = onnx.Gemm(%x, %w) {onnx.ranges = [array<f32: -1.0, 3.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm")
  %r = onnx.Relu(%y) {onnx.ranges = [array<f32: 0.0, 3.0>]} : (tensor<1x2xf32>) -> tensor<1x2xf32> loc("relu")
  %z = onnx.Gemm(%r, %w) {onnx.ranges = [array<f32: -4.0, 4.0>]} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc("gemm_excluded")
  %s = onnx.Softmax(%z) {onnx.ranges = [array<f32: 0.0, 1.0>]} : (tensor<1x2xf32>) -> tensor<1x2xf32> loc("softmax")
  return %s : tensor<1x2xf32>
}
