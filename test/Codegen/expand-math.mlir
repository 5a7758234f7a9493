// RUN: onnx-quant-opt %s --onnxq-expand-math | FileCheck %s
// Inverse hyperbolic functions have no LLVM intrinsic: they are expanded
// into log/sqrt (then approximated), never left as libm calls on vectors.

// CHECK-LABEL: func @inverse_hyperbolic
// CHECK-NOT: math.asinh
// CHECK-NOT: math.acosh
// CHECK-NOT: math.atanh
// CHECK-NOT: math.log
// CHECK: math.sqrt
// CHECK: return
func.func @inverse_hyperbolic(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = math.asinh %x : vector<8xf32>
  %1 = math.acosh %x : vector<8xf32>
  %2 = math.atanh %x : vector<8xf32>
  return %0, %1, %2 : vector<8xf32>, vector<8xf32>, vector<8xf32>
}
