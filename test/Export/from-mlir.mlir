// RUN: onnx-quant-opt %s --emit=onnx -o %t.onnx
// RUN: %python %S/Inputs/dump_onnx.py %t.onnx | FileCheck %s --check-prefix=ONNX
// RUN: onnx-quant-opt %t.onnx | FileCheck %s
// Exporting hand-written MLIR: without onnx.name, inputs and outputs are named
// input_<i> and output_<i>; results of multi-result ops (optional and variadic
// ones included) become node outputs; a returned argument, a returned constant
// and a value returned twice get an Identity node each.

// ONNX: input input_0 FLOAT [1,2,4,4]
// ONNX-NEXT: input scale FLOAT [2]
// ONNX: initializer const INT64 [2] raw=16
// ONNX: node MaxPool ai.onnx.MaxPool (input_0) -> (output_0, output_1) {{{.*}}}
// ONNX: node Split ai.onnx.Split (input_0, const) -> (output_2, output_3) {axis=1}
// ONNX: node Dropout ai.onnx.Dropout (input_0) -> (Dropout_out0, Dropout_out1) {}
// ONNX: node BatchNormalization ai.onnx.BatchNormalization (input_0, scale, scale, scale, scale) -> (output_4, BatchNormalization_out1, BatchNormalization_out2) {{{.*}}training_mode=1}
// ONNX: node LayerNormalization ai.onnx.LayerNormalization (input_0, input_0) -> (LayerNormalization_out0, LayerNormalization_out1, LayerNormalization_out2) {{{.*}}}
// ONNX: node output_5_identity ai.onnx.Identity (input_0) -> (output_5) {}
// ONNX: node output_6_identity ai.onnx.Identity (const) -> (output_6) {}
// ONNX: node output_7_identity ai.onnx.Identity (output_0) -> (output_7) {}
// ONNX: output output_0 FLOAT [1,2,2,2]
// ONNX-NEXT: output output_1 INT64 [1,2,2,2]
// ONNX-NEXT: output output_2 FLOAT [1,1,4,4]
// ONNX-NEXT: output output_3 FLOAT [1,1,4,4]
// ONNX-NEXT: output output_4 FLOAT [1,2,4,4]
// ONNX-NEXT: output output_5 FLOAT [1,2,4,4]
// ONNX-NEXT: output output_6 INT64 [2]
// ONNX-NEXT: output output_7 FLOAT [1,2,2,2]

// CHECK-LABEL: func.func @main_graph
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32> {onnx.name = "input_0"}, %[[S:.*]]: tensor<2xf32> {onnx.name = "scale"})
// CHECK: %[[C:.*]] = onnx.Constant dense<1> : tensor<2xi64>
// CHECK: %[[Y:.*]], %[[I:.*]] = onnx.MaxPool(%[[X]])
// CHECK: %[[SP:.*]]:2 = onnx.Split(%[[X]], %{{.*}}) {axis = 1 : i64}
// Unused results that are optional ONNX outputs (Dropout's mask, the
// BatchNormalization running statistics, LayerNormalization's Mean and
// InvStdDev) are not materialized by the re-import.
// CHECK: onnx.Dropout(%[[X]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[BN:.*]] = onnx.BatchNormalization(%[[X]], %[[S]], %[[S]], %[[S]], %[[S]]) {training_mode = 1 : i64} : ({{.*}}) -> tensor<1x2x4x4xf32>
// CHECK: onnx.LayerNormalization(%[[X]], %[[X]]) {axis = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[ID0:.*]] = onnx.Identity(%[[X]])
// The re-import folds the Identity of the returned constant (a shape
// computation: a small integer tensor).
// CHECK: %[[ID2:.*]] = onnx.Identity(%[[Y]])
// CHECK: return %[[Y]], %[[I]], %[[SP]]#0, %[[SP]]#1, %[[BN]], %[[ID0]], %[[C]], %[[ID2]]

func.func @main_graph(%x: tensor<1x2x4x4xf32>, %s: tensor<2xf32> {onnx.name = "scale"}) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<2xi64>, tensor<1x2x2x2xf32>) {
  %sizes = onnx.Constant dense<[1, 1]> : tensor<2xi64>
  %y, %i = onnx.MaxPool(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  %sp:2 = onnx.Split(%x, %sizes) {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2xi64>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>)
  %d, %mask = onnx.Dropout(%x) : (tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi1>)
  %bn:3 = onnx.BatchNormalization(%x, %s, %s, %s, %s) {training_mode = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>)
  %ln:3 = onnx.LayerNormalization(%x, %x) {axis = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>)
  return %y, %i, %sp#0, %sp#1, %bn#0, %x, %sizes, %y : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<2xi64>, tensor<1x2x2x2xf32>
}
