"""Print the parts of an ONNX model the export tests check, one fact a line.

Usage: dump_onnx.py MODEL.onnx
  opset <domain or ai.onnx> <version>
  input <name> <elem type> [dims]     (graph inputs that are not initializers)
  initializer <name> <elem type> [dims] raw=<bytes>
  node <name> <domain or ai.onnx>.<op type> (<inputs>) -> (<outputs>) {attr=value ...}
  output <name> <elem type> [dims]
"""
import sys

import onnx
from onnx import helper

model = onnx.load(sys.argv[1])
graph = model.graph


def type_str(t):
    tt = t.tensor_type
    dims = [str(d.dim_value) if d.HasField("dim_value") else (d.dim_param or "?")
            for d in tt.shape.dim]
    return f"{onnx.TensorProto.DataType.Name(tt.elem_type)} [{','.join(dims)}]"


print(f"ir_version {model.ir_version} producer {model.producer_name}")
for opset in model.opset_import:
    print(f"opset {opset.domain or 'ai.onnx'} {opset.version}")
inits = {i.name for i in graph.initializer}
for i in graph.input:
    if i.name not in inits:
        print(f"input {i.name} {type_str(i.type)}")
for t in graph.initializer:
    print(f"initializer {t.name} {onnx.TensorProto.DataType.Name(t.data_type)} "
          f"[{','.join(map(str, t.dims))}] raw={len(t.raw_data)}")
for n in graph.node:
    attrs = " ".join(f"{a.name}={helper.get_attribute_value(a)}" for a in n.attribute)
    print(f"node {n.name} {n.domain or 'ai.onnx'}.{n.op_type} ({', '.join(n.input)}) -> "
          f"({', '.join(n.output)}) {{{attrs}}}")
for o in graph.output:
    print(f"output {o.name} {type_str(o.type)}")
