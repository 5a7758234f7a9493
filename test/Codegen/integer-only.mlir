// RUN: onnx-quant-opt %s --emit=llvm --requant=integer -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: not grep -nE "\b(fmul|fadd|fsub|fdiv|frem|fneg|fptosi|fptoui|sitofp|uitofp|fcmp|fpext|fptrunc)\b|llvm\.(fma|fmuladd|round|rint|nearbyint)" %t.ll
// RUN: onnx-quant-opt %s --emit=llvm -o %t.float.ll
// RUN: FileCheck %s --check-prefix=FLOAT --input-file=%t.float.ll
// With --requant=integer a fully quantized graph computes on integers only:
// from its u8 input to its u8 output there is no floating-point instruction
// in the generated LLVM IR. The graph has every kind of quantized island: Conv (+Relu),
// MaxPool, a residual Add, Concat with requantization, GlobalAveragePool,
// Flatten and Gemm.

// The graph's nodes (functions int8_net_<node>; the graph, a list of calls to
// them, is inlined into integer_only_run) compute with integer vector arithmetic (the requantization's int64
// products among it), and the grep above finds no float instruction or float
// intrinsic anywhere in the module.
// CHECK: define internal {{.*}}@int8_net_{{[A-Za-z0-9_]+}}(
// CHECK: mul <{{[0-9]+}} x i64>
// CHECK-LABEL: define {{.*}}@integer_only_run(

// By default (--requant=float) the requantization is float32 arithmetic on
// vectors, as ONNX Runtime's kernels do it: int32 to float, multiply, clamp,
// round half to even.
// FLOAT: define internal {{.*}}@int8_net_{{[A-Za-z0-9_]+}}(
// FLOAT: sitofp <{{[0-9]+}} x i32> {{.*}} to <{{[0-9]+}} x float>
// FLOAT: fmul {{.*}}<{{[0-9]+}} x float>
// FLOAT-LABEL: define {{.*}}@integer_only_run(

func.func @int8_net(%x: tensor<1x2x4x4xui8> {onnx.name = "x"}) -> (tensor<1x3xui8> {onnx.name = "y"}) {
  %s = onnx.Constant dense<0.05> : tensor<f32>
  %s2 = onnx.Constant dense<0.08> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %z0 = onnx.Constant dense<0> : tensor<ui8>
  %w = onnx.Constant dense<[[[[1, -2, 3], [4, 5, -6], [7, 8, 9]], [[-1, 2, 3], [4, -5, 6], [7, 8, -9]]], [[[2, 2, 2], [2, 2, 2], [2, 2, 2]], [[-3, 1, -3], [1, -3, 1], [-3, 1, -3]]]]> : tensor<2x2x3x3xi8>
  %ws = onnx.Constant dense<[0.01, 0.02]> : tensor<2xf32>
  %b = onnx.Constant dense<[10, -20]> : tensor<2xi32>
  %bs = onnx.Constant dense<[5.0e-04, 1.0e-03]> : tensor<2xf32>
  %gw = onnx.Constant dense<[[1, 2, 3, 4], [-1, -2, -3, -4], [5, 0, -5, 1]]> : tensor<3x4xi8>
  %gws = onnx.Constant dense<[0.03, 0.02, 0.01]> : tensor<3xf32>
  %gb = onnx.Constant dense<[1, 2, 3]> : tensor<3xi32>
  %gbs = onnx.Constant dense<[1.5e-03, 1.0e-03, 5.0e-04]> : tensor<3xf32>
  %dx = onnx.DequantizeLinear(%x, %s, %z) : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %dw = onnx.DequantizeLinear(%w, %ws) {axis = 0 : i64} : (tensor<2x2x3x3xi8>, tensor<2xf32>) -> tensor<2x2x3x3xf32>
  %db = onnx.DequantizeLinear(%b, %bs) {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  %c = onnx.Conv(%dx, %dw, %db) {pads = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = onnx.Relu(%c) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %qc = onnx.QuantizeLinear(%r, %s, %z) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  %dc = onnx.DequantizeLinear(%qc, %s, %z) : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %sum = onnx.Add(%dc, %dx) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %qs = onnx.QuantizeLinear(%sum, %s2, %z) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  %ds = onnx.DequantizeLinear(%qs, %s2, %z) : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %p = onnx.MaxPool(%ds) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %p2 = onnx.MaxPool(%dc) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %cat = onnx.Concat(%p, %p2) {axis = 2 : i64} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x4x2xf32>
  %qcat = onnx.QuantizeLinear(%cat, %s2, %z) : (tensor<1x2x4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x2xui8>
  %dcat = onnx.DequantizeLinear(%qcat, %s2, %z) : (tensor<1x2x4x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x2xf32>
  %gap = onnx.GlobalAveragePool(%dcat) : (tensor<1x2x4x2xf32>) -> tensor<1x2x1x1xf32>
  %qg = onnx.QuantizeLinear(%gap, %s, %z) : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
  %dg = onnx.DequantizeLinear(%qg, %s, %z) : (tensor<1x2x1x1xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xf32>
  %f = onnx.Flatten(%dg) : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
  %f4 = onnx.Concat(%f, %f) {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  %q4 = onnx.QuantizeLinear(%f4, %s, %z) : (tensor<1x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4xui8>
  %d4 = onnx.DequantizeLinear(%q4, %s, %z) : (tensor<1x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4xf32>
  %dgw = onnx.DequantizeLinear(%gw, %gws) {axis = 0 : i64} : (tensor<3x4xi8>, tensor<3xf32>) -> tensor<3x4xf32>
  %dgb = onnx.DequantizeLinear(%gb, %gbs) {axis = 0 : i64} : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  %g = onnx.Gemm(%d4, %dgw, %dgb) {transB = 1 : i64} : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %y = onnx.QuantizeLinear(%g, %s2, %z0) : (tensor<1x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3xui8>
  return %y : tensor<1x3xui8>
}
