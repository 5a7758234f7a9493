"""Writes a random-weight model (argv[1]) whose contractions have sizes that
fill no register tile exactly, for the contraction kernels' remainders:
a 3x3 convolution with 13 filters over a 19-wide image, a strided (gathered)
one, a depthwise one, a 1x1 one, a Gemm with transB on constant weights, a
batched MatMul of two activations, a matrix-vector MatMul, and pooling."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def weight(name, *shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


inits = [
    weight("w1", 13, 5, 3, 3), weight("b1", 13),
    weight("w2", 11, 13, 3, 3),
    weight("w3", 11, 1, 3, 3),
    weight("w4", 9, 11, 1, 1), weight("b4", 9),
    weight("fc", 37, 9 * 10 * 10), weight("fcb", 37),
    weight("v", 37),
]
nodes = [
    # 5x19x21 -> 13x19x21 (pads 1): 13 filters = 8 + 5 rows, 21 = 16 + 5 lanes.
    helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    # Stride 2: 11x10x11, windows gathered.
    helper.make_node("Conv", ["c1", "w2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                     strides=[2, 2]),
    # Depthwise: 11 groups.
    helper.make_node("Conv", ["c2", "w3"], ["c3"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                     group=11),
    helper.make_node("Conv", ["c3", "w4", "b4"], ["c4"], kernel_shape=[1, 1]),
    helper.make_node("Slice", ["c4", "starts", "ends", "axes"], ["s4"]),
    helper.make_node("Flatten", ["s4"], ["f"]),
    helper.make_node("Gemm", ["f", "fc", "fcb"], ["g"], transB=1),
    # Batched MatMul of activations: (3, 21, 5) x (3, 5, 21).
    helper.make_node("Reshape", ["c1", "shape_a"], ["a"]),
    helper.make_node("Slice", ["a", "a_starts", "a_ends", "a_axes"], ["a5"]),
    helper.make_node("Transpose", ["a5"], ["at"], perm=[0, 2, 1]),
    helper.make_node("MatMul", ["at", "a5"], ["mm"]),
    # Matrix-vector: (1, 37) x (37) -> (1).
    helper.make_node("MatMul", ["g", "v"], ["mv"]),
    # Pooling windows are reductions too: stride 2 (even lanes of two loads)
    # and stride 1 with partial windows.
    helper.make_node("MaxPool", ["c1"], ["mp"], kernel_shape=[3, 3], strides=[2, 2],
                     pads=[1, 1, 1, 1]),
    helper.make_node("AveragePool", ["c1"], ["ap"], kernel_shape=[2, 3], pads=[1, 1, 1, 1],
                     count_include_pad=0),
]
consts = [
    numpy_helper.from_array(np.array([0, 0], np.int64), "starts"),
    numpy_helper.from_array(np.array([10, 10], np.int64), "ends"),
    numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
    numpy_helper.from_array(np.array([13, 19, 21], np.int64), "shape_a"),
    numpy_helper.from_array(np.array([0, 0], np.int64), "a_starts"),
    numpy_helper.from_array(np.array([3, 5], np.int64), "a_ends"),
    numpy_helper.from_array(np.array([0, 1], np.int64), "a_axes"),
]
graph = helper.make_graph(
    nodes, "odd_contractions",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 5, 19, 21])],
    [helper.make_tensor_value_info("g", TensorProto.FLOAT, [1, 37]),
     helper.make_tensor_value_info("mm", TensorProto.FLOAT, [3, 21, 21]),
     helper.make_tensor_value_info("mv", TensorProto.FLOAT, [1]),
     helper.make_tensor_value_info("mp", TensorProto.FLOAT, [1, 13, 10, 11]),
     helper.make_tensor_value_info("ap", TensorProto.FLOAT, [1, 13, 20, 21])],
    inits + consts)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
