// Activations kept in float between 8-bit tensors, as `--onnx-quantize`
// leaves them: SiLU (Sigmoid and Mul, with the Sigmoid quantized in
// between), HardSwish, LeakyRelu and Tanh of a u8 tensor; Tanh of an int8
// tensor (a requantization of x to s8 first). The innermost dimension (9)
// is not a multiple of any vector length: every lookup has a masked tail.
func.func @qactivations(%x: tensor<1x4x8x9xui8> {onnx.name = "x"})
    -> (tensor<1x4x8x9xui8> {onnx.name = "silu"},
        tensor<1x4x8x9xui8> {onnx.name = "hardswish"},
        tensor<1x4x8x9xui8> {onnx.name = "leakyrelu"},
        tensor<1x4x8x9xi8> {onnx.name = "tanh"},
        tensor<1x4x8x9xi8> {onnx.name = "tanh_s8"}) {
  %xs = onnx.Constant dense<0.05> : tensor<f32>
  %xz = onnx.Constant dense<120> : tensor<ui8>
  %ss = onnx.Constant dense<0.00392156886> : tensor<f32>
  %sz = onnx.Constant dense<0> : tensor<ui8>
  %ys = onnx.Constant dense<0.0431> : tensor<f32>
  %yz = onnx.Constant dense<20> : tensor<ui8>
  %ts = onnx.Constant dense<0.0078125> : tensor<f32>
  %tz = onnx.Constant dense<0> : tensor<i8>
  %qs = onnx.Constant dense<0.03> : tensor<f32>
  %qz = onnx.Constant dense<-5> : tensor<i8>
  %dx = onnx.DequantizeLinear(%x, %xs, %xz) : (tensor<1x4x8x9xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x9xf32>
  // SiLU
  %sig = onnx.Sigmoid(%dx) : (tensor<1x4x8x9xf32>) -> tensor<1x4x8x9xf32>
  %qsig = onnx.QuantizeLinear(%sig, %ss, %sz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x9xui8>
  %dsig = onnx.DequantizeLinear(%qsig, %ss, %sz) : (tensor<1x4x8x9xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x9xf32>
  %silu = onnx.Mul(%dx, %dsig) : (tensor<1x4x8x9xf32>, tensor<1x4x8x9xf32>) -> tensor<1x4x8x9xf32>
  %qsilu = onnx.QuantizeLinear(%silu, %ys, %yz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x9xui8>
  // HardSwish
  %hsw = onnx.HardSwish(%dx) : (tensor<1x4x8x9xf32>) -> tensor<1x4x8x9xf32>
  %qhsw = onnx.QuantizeLinear(%hsw, %ys, %yz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x9xui8>
  // LeakyRelu
  %lr = onnx.LeakyRelu(%dx) {alpha = 0.1 : f32} : (tensor<1x4x8x9xf32>) -> tensor<1x4x8x9xf32>
  %qlr = onnx.QuantizeLinear(%lr, %ys, %yz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x9xui8>
  // Tanh, u8 in, s8 out
  %th = onnx.Tanh(%dx) : (tensor<1x4x8x9xf32>) -> tensor<1x4x8x9xf32>
  %qth = onnx.QuantizeLinear(%th, %ts, %tz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x8x9xi8>
  // Tanh of an s8 tensor
  %xs8 = onnx.QuantizeLinear(%dx, %qs, %qz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x8x9xi8>
  %dxs8 = onnx.DequantizeLinear(%xs8, %qs, %qz) : (tensor<1x4x8x9xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4x8x9xf32>
  %th8 = onnx.Tanh(%dxs8) : (tensor<1x4x8x9xf32>) -> tensor<1x4x8x9xf32>
  %qth8 = onnx.QuantizeLinear(%th8, %ts, %tz) : (tensor<1x4x8x9xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x8x9xi8>
  return %qsilu, %qhsw, %qlr, %qth, %qth8 : tensor<1x4x8x9xui8>, tensor<1x4x8x9xui8>, tensor<1x4x8x9xui8>, tensor<1x4x8x9xi8>, tensor<1x4x8x9xi8>
}
