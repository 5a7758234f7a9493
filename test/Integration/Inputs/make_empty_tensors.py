"""The model of empty-tensors.test: Concat of a 0x4 initializer, the input
and another 0x4 one (first, middle and last position), and a Concat along
axis 1 with a 3x0 initializer."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

empty_rows = numpy_helper.from_array(np.zeros((0, 4), np.float32), "empty_rows")
empty_cols = numpy_helper.from_array(np.zeros((3, 0), np.float32), "empty_cols")
graph = helper.make_graph(
    [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Concat", ["empty_rows", "r", "empty_rows"], ["y"], axis=0),
        helper.make_node("Concat", ["r", "empty_cols"], ["z"], axis=1),
    ],
    "empty",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [3, 4])],
    [empty_rows, empty_cols],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
