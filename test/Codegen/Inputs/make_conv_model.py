"""Writes a small random-weight CNN (Conv 3x3 -> Relu -> GlobalAveragePool ->
Flatten -> Gemm with transB) to argv[1], for codegen tests."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
w = numpy_helper.from_array(rng.standard_normal((16, 8, 3, 3)).astype(np.float32), "w")
fc = numpy_helper.from_array(rng.standard_normal((64, 16)).astype(np.float32), "fc")
nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("GlobalAveragePool", ["r"], ["g"]),
    helper.make_node("Flatten", ["g"], ["f"]),
    helper.make_node("Gemm", ["f", "fc"], ["y"], transB=1),
]
graph = helper.make_graph(
    nodes, "conv_model",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 32, 32])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])],
    [w, fc])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
