// RUN: onnx-quant-opt %s --onnx-quantize="mode=dynamic exclude=excluded quiet" | FileCheck %s
// RUN: onnx-quant-opt %s --onnx-quantize="mode=dynamic per-channel=false quiet" | FileCheck %s --check-prefix=TENSOR
// RUN: onnx-quant-opt %s --onnx-quantize="mode=dynamic op-types=MatMul" 2>&1 | FileCheck %s --check-prefix=OPTYPES

// mode=dynamic: as ONNX Runtime's quantize_dynamic, no ranges needed. Each
// activation a quantized op reads gets one DynamicQuantizeLinear, shared;
// weights are symmetric s8 (max |w| / 127), per output channel by default;
// the int32 result is rescaled by s_x * s_w and the bias added in float.

// CHECK: module attributes {onnx.quantization = {activations = "u8", mode = "dynamic", per_channel = true, weights = "s8"}}
// CHECK-DAG: %[[AQ:.*]], %[[AS:.*]], %[[AZ:.*]] = onnx.DynamicQuantizeLinear(%arg1) : (tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>)
// CHECK-DAG: %[[XQ:.*]], %[[XS:.*]], %[[XZ:.*]] = onnx.DynamicQuantizeLinear(%arg0) : (tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>)
// CHECK-NOT: DynamicQuantizeLinear

// Conv: per filter max |w| 2, 2, 4 -> scales 2/127, 2/127, 4/127, as
// (F, 1, 1) for the NCHW result; one zero point (0 in every channel).
// CHECK: %[[W:.*]] = onnx.Constant dense<{{\[\[\[\[}}127]], {{\[\[}}-64]]], {{\[\[\[}}16]], {{\[\[}}127]]], {{\[\[\[}}-127]], {{\[\[}}32]]]]> : tensor<3x2x1x1xi8>
// CHECK: %[[WS:.*]] = onnx.Constant dense<{{\[\[\[}}0.00787401571]], {{\[\[}}0.0157480314]], {{\[\[}}0.0314960629]]]> : tensor<3x1x1xf32>
// CHECK: %[[WZ:.*]] = onnx.Constant dense<0> : tensor<i8>
// CHECK: %[[C:.*]] = onnx.ConvInteger(%[[XQ]], %[[W]]) x_zero_point(%[[XZ]]) w_zero_point(%[[WZ]]) {{.*}} -> tensor<1x3x4x4xi32>
// CHECK: %[[CF:.*]] = onnx.Cast(%[[C]]) {to = 1 : i64} : (tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xf32>
// CHECK: %[[S:.*]] = onnx.Mul(%[[XS]], %[[WS]]) : (tensor<f32>, tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
// CHECK: %[[Y:.*]] = onnx.Mul(%[[CF]], %[[S]])
// CHECK: %[[B:.*]] = onnx.Constant dense<{{\[\[\[}}5.000000e-01]], {{\[\[}}-1.000000e+00]], {{\[\[}}2.000000e+00]]]> : tensor<3x1x1xf32>
// CHECK: %[[CONV:.*]] = onnx.Add(%[[Y]], %[[B]])
// A second Conv of the same weights and input reuses both.
// CHECK: %[[C2:.*]] = onnx.ConvInteger(%[[XQ]], %[[W]]) x_zero_point(%[[XZ]]) w_zero_point(%[[WZ]])

// MatMul: per column (max |w| 3 and 2), a zero point per column as ORT.
// CHECK: %[[MW:.*]] = onnx.Constant dense<{{\[\[}}42, -127], [21, 16], [-42, 64], [127, 0]]> : tensor<4x2xi8>
// CHECK: %[[MS:.*]] = onnx.Constant dense<[0.0236220472, 0.0157480314]> : tensor<2xf32>
// CHECK: %[[MZ:.*]] = onnx.Constant dense<0> : tensor<2xi8>
// CHECK: onnx.MatMulInteger(%[[AQ]], %[[MW]]) a_zero_point(%[[AZ]]) b_zero_point(%[[MZ]]) : (tensor<3x4xui8>, tensor<4x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<3x2xi32>
// CHECK: onnx.Mul(%[[AS]], %[[MS]]) : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// The excluded MatMul keeps the float weights.
// CHECK: onnx.MatMul(%arg1, %{{.*}}) : (tensor<3x4xf32>, tensor<4x2xf32>)

// Gemm: alpha * B' (4x3) quantized; beta * C added after the rescaling.
// CHECK: %[[GW:.*]] = onnx.Constant dense<{{\[\[}}64, -42, 127], [-127, 42, 127], [32, 127, 127], [16, 0, 127]]> : tensor<4x3xi8>
// CHECK: onnx.MatMulInteger(%[[AQ]], %[[GW]])
// CHECK: %[[GY:.*]] = onnx.Mul(%{{.*}}, %{{.*}}) : (tensor<3x3xf32>, tensor<3xf32>)
// CHECK: %[[GC:.*]] = onnx.Constant dense<[5.000000e-01, 1.000000e+00, 1.500000e+00]> : tensor<3xf32>
// CHECK: onnx.Add(%[[GY]], %[[GC]]) : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>

// A MatMul of two activations stays float (no constant weights).
// CHECK: onnx.MatMul(%arg1, %{{.*}}) : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>

// per-channel=false: one scale per tensor (max |w| 4 -> 4/127).
// TENSOR: onnx.Constant dense<0.0314960629> : tensor<f32>
// TENSOR: onnx.ConvInteger
// TENSOR: onnx.Mul(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// TENSOR: onnx.Constant dense<0> : tensor<i8>
// TENSOR: onnx.MatMulInteger({{.*}}) : (tensor<3x4xui8>, tensor<4x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x2xi32>

// OPTYPES: onnx-quantize: mode=dynamic: 2 ops quantized (activations quantized when the model runs); 4 Conv/MatMul/Gemm left float
// OPTYPES-NEXT: Conv 'conv': op type not in op-types=
// OPTYPES: MatMul 'runtime_b': B is not a 2-D float32 constant
// OPTYPES-NOT: ConvInteger
// OPTYPES: onnx.Conv(
// OPTYPES: MatMulInteger
// OPTYPES: onnx.Gemm(

module {
  func.func @f(%x: tensor<1x2x4x4xf32>, %a: tensor<3x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<3x3xf32>) {
    %w = onnx.Constant dense<[[[[1.0]], [[-0.5]]], [[[0.25]], [[2.0]]], [[[-4.0]], [[1.0]]]]> : tensor<3x2x1x1xf32>
    %b = onnx.Constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
    %c = onnx.Conv(%x, %w, %b) : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32> loc("conv")
    %c2 = onnx.Conv(%x, %w) : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32> loc("conv_shares_x")
    %m = onnx.Constant dense<[[1.0, -2.0], [0.5, 0.25], [-1.0, 1.0], [3.0, 0.0]]> : tensor<4x2xf32>
    %y = onnx.MatMul(%a, %m) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32> loc("matmul")
    %y2 = onnx.MatMul(%a, %m) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32> loc("excluded")
    %g = onnx.Constant dense<[[1.0, -2.0, 0.5, 0.25], [-1.0, 1.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]]> : tensor<3x4xf32>
    %gc = onnx.Constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %z = onnx.Gemm(%a, %g, %gc) {alpha = 2.0 : f32, beta = 0.5 : f32, transB = 1} : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<3x3xf32> loc("gemm")
    %at = onnx.Transpose(%a) {perm = [1, 0]} : (tensor<3x4xf32>) -> tensor<4x3xf32> loc("t")
    %r = onnx.MatMul(%a, %at) : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32> loc("runtime_b")
    return %c, %c2, %y, %y2, %z, %r : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<3x3xf32>
  }
}
