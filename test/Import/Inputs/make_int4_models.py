"""Writes small models with int4/uint4 tensors (onnx >= 1.16: the .venv-ortq
python) for int4-tensors.test:

  make_int4_models.py DIR

  odd.onnx        x + DequantizeLinear of an int4 [3, 33] initializer (99
                  values: the last byte half used), per row
  typed.onnx      the same of a uint4 initializer written in int32_data
                  (onnx.helper.make_tensor without raw), zero point 8
  short.onnx      an int4 [3, 5] initializer of 7 bytes (8 needed)
  input.onnx      an int4 graph input
  cast.onnx       a Cast of an int4 initializer (a codebook's indices)
  identity.onnx   an Identity of an int4 initializer
"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
values = np.array([[-8, -1, 0, 1, 7], [2, -3, 4, -5, 6], [-7, 5, -2, 3, -4]], np.int64)


def packed(vals):
    flat = [int(v) & 0xF for v in vals.reshape(-1)] + [0]
    return bytes(flat[i] | (flat[i + 1] << 4) for i in range(0, len(flat) - 1, 2))


def save(name, nodes, inits, inputs, outputs):
    graph = helper.make_graph(nodes, name, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    onnx.save(model, str(out / name))


y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 5])
scale = helper.make_tensor("s", TensorProto.FLOAT, [3], [0.5, 1.0, 2.0])
dq = helper.make_node("DequantizeLinear", ["w", "s"], ["y"], axis=0)
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 33])
wide = (np.arange(99) * 7 % 16 - 8).reshape(3, 33)
save("odd.onnx", [helper.make_node("DequantizeLinear", ["w", "s"], ["d"], axis=0),
                  helper.make_node("Add", ["x", "d"], ["y"])],
     [helper.make_tensor("w", TensorProto.INT4, [3, 33], packed(wide), raw=True), scale],
     [x], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 33])])
u = values + 8
zp = helper.make_tensor("z", TensorProto.UINT4, [3], [8, 8, 8])
save("typed.onnx", [helper.make_node("DequantizeLinear", ["w", "s", "z"], ["y"], axis=0)],
     [helper.make_tensor("w", TensorProto.UINT4, [3, 5], u.reshape(-1).tolist()), scale, zp],
     [], [y])
short = helper.make_tensor("w", TensorProto.INT4, [3, 5], packed(values), raw=True)
short.raw_data = short.raw_data[:7]
save("short.onnx", [dq], [short, scale], [], [y])
save("input.onnx", [dq], [scale], [helper.make_tensor_value_info("w", TensorProto.INT4, [3, 5])],
     [y])
save("cast.onnx", [helper.make_node("Cast", ["w"], ["y"], to=TensorProto.FLOAT)],
     [helper.make_tensor("w", TensorProto.INT4, [3, 5], packed(values), raw=True)], [], [y])
save("identity.onnx", [helper.make_node("Identity", ["w"], ["y"])],
     [helper.make_tensor("w", TensorProto.INT4, [3, 5], packed(values), raw=True)], [],
     [helper.make_tensor_value_info("y", TensorProto.INT4, [3, 5])])
