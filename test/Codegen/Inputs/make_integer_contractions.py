"""Writes argv[1]: a model of ONNX Runtime's dynamic-quantization integer ops
on a u8 input x (1, 8, 9, 9) and a u8 input a (2, 5, 24): ConvInteger with
scalar zero points (ONNX Runtime takes no per-filter ones; pads 1, and a
grouped strided one with no weight zero point), MatMulInteger of the 3-D a
with u8 weights and per-column zero points, and one with s8 weights and
scalar zero points."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def init(name, array):
    return numpy_helper.from_array(array, name)


inits = [
    init("xz", np.array(121, np.uint8)),
    init("w", rng.integers(-128, 128, (13, 8, 3, 3)).astype(np.int8)),
    init("wz", np.array(-3, np.int8)),
    init("wg", rng.integers(-128, 128, (6, 4, 3, 3)).astype(np.int8)),
    init("az", np.array(3, np.uint8)),
    init("b", rng.integers(0, 256, (24, 17)).astype(np.uint8)),
    init("bz", rng.integers(100, 156, 17).astype(np.uint8)),
    init("bs", rng.integers(-128, 128, (24, 40)).astype(np.int8)),
    init("bsz", np.array(-2, np.int8)),
]
nodes = [
    helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["conv"], pads=[1, 1, 1, 1]),
    helper.make_node("ConvInteger", ["x", "wg", "xz"], ["grouped"], group=2,
                     strides=[2, 2]),
    helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["mm"]),
    helper.make_node("MatMulInteger", ["a", "bs", "az", "bsz"], ["mm_s8"]),
]
outputs = [
    helper.make_tensor_value_info("conv", TensorProto.INT32, [1, 13, 9, 9]),
    helper.make_tensor_value_info("grouped", TensorProto.INT32, [1, 6, 4, 4]),
    helper.make_tensor_value_info("mm", TensorProto.INT32, [2, 5, 17]),
    helper.make_tensor_value_info("mm_s8", TensorProto.INT32, [2, 5, 40]),
]
graph = helper.make_graph(
    nodes, "integer_contractions",
    [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 8, 9, 9]),
     helper.make_tensor_value_info("a", TensorProto.UINT8, [2, 5, 24])],
    outputs, inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
