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

// bfloat16 conversions are integer bit operations, not compiler-rt calls:
// truncation adds 0x7FFF plus the lowest kept bit (round to nearest even)
// and keeps NaNs quiet; extension shifts the bits up.
// CHECK-LABEL: func @bfloat16
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK-DAG: arith.constant dense<32767> : vector<8xi32>
// CHECK-DAG: arith.cmpf une
// CHECK-DAG: arith.shrui %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-DAG: arith.shli %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: return
func.func @bfloat16(%x: vector<8xf32>, %y: vector<8xbf16>) -> (vector<8xbf16>, vector<8xf32>) {
  %0 = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  %1 = arith.extf %y : vector<8xbf16> to vector<8xf32>
  return %0, %1 : vector<8xbf16>, vector<8xf32>
}
