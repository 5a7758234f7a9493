// RUN: onnx-quant-opt %s --onnxq-record-abi="entry=m" --onnxq-check-indices -split-input-file | FileCheck %s

// A Gather with run-time indices: after it, whether any index lies outside
// [-5, 4] of axis 0 (size 5), as an i32 flag appended to the results; the
// ABI's outputs stay y alone and index_checks is set.
// CHECK: module attributes {onnx.abi = {entry = "m", function = "main_graph", index_checks
// CHECK-SAME: outputs = [{{[^]]*}}name = "y"{{[^]]*}}]
// CHECK: func.func @main_graph(%[[X:[a-z0-9]+]]: tensor<5x3xf32> {onnx.name = "x"}, %[[I:[a-z0-9]+]]: tensor<2xi64> {onnx.name = "i"}) -> (tensor<2x3xf32> {onnx.name = "y"}, tensor<i32>)
// CHECK: %[[Y:.*]] = onnx.Gather(%[[X]], %[[I]])
// CHECK-DAG: %[[LOW:.*]] = onnx.Constant dense<-5> : tensor<i64>
// CHECK-DAG: %[[HIGH:.*]] = onnx.Constant dense<5> : tensor<i64>
// CHECK: %[[BELOW:.*]] = onnx.Less(%[[I]], %[[LOW]]) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// CHECK: %[[ABOVE:.*]] = onnx.GreaterOrEqual(%[[I]], %[[HIGH]]) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// CHECK: %[[OUT:.*]] = onnx.Or(%[[BELOW]], %[[ABOVE]])
// CHECK: %[[FLAGS:.*]] = onnx.Cast(%[[OUT]]) {to = 6 : i64} : (tensor<2xi1>) -> tensor<2xi32>
// CHECK: %[[ANY:.*]] = onnx.ReduceMax(%[[FLAGS]]) {keepdims = 0 : i64} : (tensor<2xi32>) -> tensor<i32>
// CHECK: return %[[Y]], %[[ANY]] : tensor<2x3xf32>, tensor<i32>
func.func @main_graph(%x: tensor<5x3xf32> {onnx.name = "x"}, %i: tensor<2xi64> {onnx.name = "i"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
  %y = onnx.Gather(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// ScatterND's (..., 2) tuples: each component against its own dim (4 and
// 6), the flags of two ops combined with Max.
// CHECK: func.func @main_graph(%{{.*}}: tensor<4x6xf32>
// CHECK-SAME: -> (tensor<4x6xf32> {onnx.name = "y"}, tensor<3xi32> {onnx.name = "z"}, tensor<i32>)
// CHECK-DAG: onnx.Constant dense<[-4, -6]> : tensor<2xi64>
// CHECK-DAG: onnx.Constant dense<[4, 6]> : tensor<2xi64>
// CHECK: %[[F1:.*]] = onnx.ReduceMax
// CHECK: onnx.GatherElements
// CHECK-DAG: onnx.Constant dense<-7> : tensor<i32>
// CHECK-DAG: onnx.Constant dense<7> : tensor<i32>
// CHECK: %[[F2:.*]] = onnx.ReduceMax
// CHECK: %[[ANY:.*]] = onnx.Max(%[[F1]], %[[F2]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: return %{{.*}}, %{{.*}}, %[[ANY]]
func.func @main_graph(%x: tensor<4x6xf32> {onnx.name = "x"}, %i: tensor<3x2xi64> {onnx.name = "i"}, %u: tensor<3xf32> {onnx.name = "u"}, %d: tensor<7xi32> {onnx.name = "d"}, %j: tensor<3xi32> {onnx.name = "j"}) -> (tensor<4x6xf32> {onnx.name = "y"}, tensor<3xi32> {onnx.name = "z"}) {
  %y = onnx.ScatterND(%x, %i, %u) : (tensor<4x6xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x6xf32>
  %z = onnx.GatherElements(%d, %j) {axis = 0 : i64} : (tensor<7xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %y, %z : tensor<4x6xf32>, tensor<3xi32>
}

// -----

// Constant indices in range (negative ones count from the end): checked
// here, nothing added (no index_checks: `inputs` follows `function`).
// CHECK: module attributes {onnx.abi = {entry = "m", function = "main_graph", inputs = [{{[^]]*}}name = "x"{{[^]]*}}]
// CHECK: func.func @main_graph(%{{.*}}: tensor<5x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// CHECK-NOT: onnx.ReduceMax
func.func @main_graph(%x: tensor<5x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
  %i = onnx.Constant dense<[4, -5]> : tensor<2xi64>
  %y = onnx.Gather(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
