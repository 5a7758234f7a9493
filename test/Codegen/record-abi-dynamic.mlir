// RUN: onnx-quant-opt %s --onnxq-record-abi -verify-diagnostics

// expected-error @+1 {{graph input/output 'x' needs a static shape and an ONNX element type, got 'tensor<?x4xf32>'}}
func.func @main_graph(%x: tensor<?x4xf32> {onnx.name = "x"}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
