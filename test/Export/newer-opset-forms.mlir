// RUN: rm -rf %t && mkdir %t && split-file %s %t
// RUN: not onnx-quant-opt %t/dilated-pool.mlir --emit=onnx -o %t/pool.onnx 2>&1 | FileCheck %s --check-prefix=POOL
// RUN: test ! -e %t/pool.onnx
// RUN: not onnx-quant-opt %t/symmetric-resize.mlir --emit=onnx -o %t/resize.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE
// RUN: not onnx-quant-opt %t/pad-wrap.mlir --emit=onnx -o %t/pad.onnx 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: onnx-quant-opt %t/quantize-16.mlir --emit=onnx -o %t/q.onnx
// RUN: onnx-quant-opt %t/q.onnx | FileCheck %s --check-prefix=Q16
// RUN: not onnx-quant-opt %t/scatter-max.mlir --emit=onnx -o %t/s.onnx 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: test ! -e %t/s.onnx
// RUN: not onnx-quant-opt %t/mish.mlir --emit=onnx -o %t/m.onnx 2>&1 | FileCheck %s --check-prefix=MISH
// RUN: onnx-quant-opt %t/unit-dilations.mlir --emit=onnx -o %t/unit.onnx
// RUN: onnx-quant-opt %t/unit.onnx | FileCheck %s --check-prefix=UNIT
// --emit=onnx writes opset 17: forms the dialect takes from newer opsets fail
// naming the node, and nothing is written; AveragePool's unit dilations are
// opset 17's default and are left out.

// POOL: error: cannot export AveragePool dilations (opset 19) in an opset 17 model
// RESIZE: error: cannot export Resize half_pixel_symmetric coordinates (opset 19) in an opset 17 model
// WRAP: error: cannot export Pad wrap mode (opset 19) in an opset 17 model
// 16-bit QuantizeLinear/DequantizeLinear (ai.onnx opset 21) are written as
// com.microsoft's, which ONNX Runtime runs in opset 17 models, and read back
// as the dialect's.
// Q16: %[[Q:.*]] = onnx.QuantizeLinear(%arg0, %{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<f32>, tensor<i16>) -> tensor<4xi16>
// Q16: onnx.DequantizeLinear(%[[Q]], %{{.*}}, %{{.*}}) : (tensor<4xi16>, tensor<f32>, tensor<i16>) -> tensor<4xf32>
// SCATTER: error: cannot export ScatterND max/min reduction (opset 18) in an opset 17 model
// MISH: error: cannot export Mish (opset 18) in an opset 17 model
// UNIT: onnx.AveragePool(%{{.*}}) {kernel_shape = [2, 2]}

//--- dilated-pool.mlir
func.func @main_graph(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32> {
  %0 = onnx.AveragePool(%x) {dilations = [2, 2], kernel_shape = [2, 2]} : (tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}
//--- unit-dilations.mlir
func.func @main_graph(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x5x5xf32> {
  %0 = onnx.AveragePool(%x) {dilations = [1, 1], kernel_shape = [2, 2]} : (tensor<1x1x6x6xf32>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}
//--- symmetric-resize.mlir
func.func @main_graph(%x: tensor<1x1x1x4xf32>) -> tensor<1x1x1x2xf32> {
  %s = onnx.Constant dense<[1.0, 1.0, 1.0, 0.6]> : tensor<4xf32>
  %0 = onnx.Resize(%x) scales(%s) {mode = "linear", coordinate_transformation_mode = "half_pixel_symmetric"} : (tensor<1x1x1x4xf32>, tensor<4xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}
//--- pad-wrap.mlir
func.func @main_graph(%x: tensor<4xf32>) -> tensor<6xf32> {
  %p = onnx.Constant dense<[1, 1]> : tensor<2xi64>
  %0 = onnx.Pad(%x, %p) {mode = "wrap"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
//--- quantize-16.mlir
func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<3> : tensor<i16>
  %0 = onnx.QuantizeLinear(%x, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<i16>) -> tensor<4xi16>
  %1 = onnx.DequantizeLinear(%0, %s, %z) : (tensor<4xi16>, tensor<f32>, tensor<i16>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
//--- scatter-max.mlir
func.func @main_graph(%x: tensor<4xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %0 = onnx.ScatterND(%x, %i, %u) {reduction = "max"} : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
//--- mish.mlir
func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Mish(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
