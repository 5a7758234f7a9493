"""Writes argv[1]: DynamicQuantizeLinear on three ranges of a float input x
(2, 3, 17): x itself (negative and positive values), |x| (the minimum is
0: zero point 0) and x * 0 (an empty range: ONNX Runtime's scale 1, zero
point 0), each with its y, y_scale and y_zero_point as outputs; and what
ONNX Runtime's quantize_dynamic builds on it, a MatMulInteger of the
quantized x with int8 weights whose int32 result is scaled back to float."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(1)
inits = [
    numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
    numpy_helper.from_array(rng.integers(-127, 128, (17, 6)).astype(np.int8), "w"),
    numpy_helper.from_array(np.array(0, np.int8), "wz"),
    numpy_helper.from_array(np.array(0.0123, np.float32), "ws"),
]
nodes = [
    helper.make_node("Abs", ["x"], ["abs"]),
    helper.make_node("Mul", ["x", "zero"], ["zeros"]),
]
outputs = []
for name in ("x", "abs", "zeros"):
    nodes.append(helper.make_node("DynamicQuantizeLinear", [name],
                                  [f"{name}_q", f"{name}_s", f"{name}_z"]))
    outputs += [helper.make_tensor_value_info(f"{name}_q", TensorProto.UINT8, [2, 3, 17]),
                helper.make_tensor_value_info(f"{name}_s", TensorProto.FLOAT, []),
                helper.make_tensor_value_info(f"{name}_z", TensorProto.UINT8, [])]
nodes += [
    helper.make_node("MatMulInteger", ["x_q", "w", "x_z", "wz"], ["mm"]),
    helper.make_node("Cast", ["mm"], ["mmf"], to=TensorProto.FLOAT),
    helper.make_node("Mul", ["x_s", "ws"], ["scale"]),
    helper.make_node("Mul", ["mmf", "scale"], ["y"]),
]
outputs.append(helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 6]))
graph = helper.make_graph(
    nodes, "dynamic_quantize",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 17])], outputs, inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
