// RUN: onnx-quant-opt %s --onnxq-lower-table-lookups=isa=sse -verify-diagnostics
// An unknown instruction set is an error, not a silent fallback.

// expected-error@+1 {{onnxq-lower-table-lookups: unknown isa 'sse' (none, vbmi or tbl)}}
func.func @f() {
  return
}
