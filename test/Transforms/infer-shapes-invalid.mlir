// RUN: onnx-quant-opt %s --onnx-infer-shapes="require-static=true" --split-input-file -verify-diagnostics
// Shapes that contradict the ops' rules, and shapes that cannot be resolved at
// compile time (what `--emit=obj` reports through this pass).

// A declared result the operands contradict: transposing 2x6 gives 6x2.
func.func @contradiction(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{result #0 is declared 'tensor<2x6xf32>' but its operands give 'tensor<6x2xf32>'}}
  %t = onnx.Transpose(%x) : (tensor<2x6xf32>) -> tensor<2x6xf32>
  return %t : tensor<2x6xf32>
}

// -----

// A Reshape to a graph input's values: known only at run time.
func.func @runtime_target(%x: tensor<2x6xf32>, %shape: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{onnx.Reshape result #0 ('tensor<?x?xf32>') has no static shape although every input has one: it depends on the run-time value of input #1}}
  %r = onnx.Reshape(%x, %shape) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<*xf32>
  %y = onnx.Relu(%r) : (tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// A target computed from graph inputs names them (they are what would have to
// be constant), through the arithmetic; constants are not followed.
func.func @computed_target(%x: tensor<2x6xf32>, %a: tensor<2xi64> {onnx.name = "rows"}, %b: tensor<2xi64> {onnx.name = "cols"}) -> tensor<*xf32> {
  %c = onnx.Constant dense<[1, 1]> : tensor<2xi64>
  %m = onnx.Max(%a, %c) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %s = onnx.Mul(%m, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  // expected-error @+1 {{it depends on the run-time value of input #1, computed from graph inputs 'rows', 'cols'; native code needs it computed from shapes and constants}}
  %r = onnx.Reshape(%x, %s) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// A dynamic graph input names the option that fixes it.
// expected-error @+1 {{graph input 'images' has the dynamic type 'tensor<?x3xf32>'; give its shape with --input-shape=images:<d0>x<d1>x...}}
func.func @dynamic_input(%x: tensor<?x3xf32> {onnx.name = "images"}) -> tensor<?x3xf32> {
  %y = onnx.Relu(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
