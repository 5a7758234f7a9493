"""Writes to argv[1] a small seeded model (opset 17) full of what --onnx-simplify
removes, for simplify-numeric.test: input x float32 [1,3,8,8] ->
Identity -> Dropout (inference) -> Conv(3->4, bias) -> Add of a per-channel
constant [1,4,1,1] (into the bias) -> Relu -> Mul by ones -> Add of zeros ->
Transpose(0,2,3,1) -> Transpose(0,3,1,2) (cancel) -> the PyTorch flatten idiom
Reshape(t, Concat(Unsqueeze(Gather(Shape(t), 0)), [-1])) -> Reshape [1,16,16]
-> Reshape [1,256] (chain) -> Gemm(transB=1, 256->10) -> y [1,10]."""
import sys

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper

rng = np.random.default_rng(0)


def const(name, array, dtype=np.float32):
    return numpy_helper.from_array(np.asarray(array, dtype), name)


inits = [
    const("w", rng.normal(0, 0.3, (4, 3, 3, 3))), const("b", rng.normal(0, 0.5, 4)),
    const("chan", rng.normal(0, 0.5, (1, 4, 1, 1))), const("ones", np.ones((1, 4, 1, 1))),
    const("zeros", np.zeros((1, 4, 1, 1))), const("idx0", 0, np.int64),
    const("axes0", [0], np.int64), const("minus1", [-1], np.int64),
    const("s3", [1, 16, 16], np.int64), const("s2", [1, 256], np.int64),
    const("fc", rng.normal(0, 0.1, (10, 256))), const("fcb", rng.normal(0, 0.5, 10)),
]
n = helper.make_node
nodes = [
    n("Identity", ["x"], ["id"], name="id"),
    n("Dropout", ["id"], ["drop"], name="drop"),
    n("Conv", ["drop", "w", "b"], ["conv"], name="conv", kernel_shape=[3, 3],
      pads=[1, 1, 1, 1]),
    n("Add", ["conv", "chan"], ["bias2"], name="bias2"),
    n("Relu", ["bias2"], ["relu"], name="relu"),
    n("Mul", ["relu", "ones"], ["mul1"], name="mul1"),
    n("Add", ["mul1", "zeros"], ["add0"], name="add0"),
    n("Transpose", ["add0"], ["t1"], name="t1", perm=[0, 2, 3, 1]),
    n("Transpose", ["t1"], ["t2"], name="t2", perm=[0, 3, 1, 2]),
    n("Shape", ["t2"], ["shape"], name="shape"),
    n("Gather", ["shape", "idx0"], ["batch"], name="batch", axis=0),
    n("Unsqueeze", ["batch", "axes0"], ["batch1"], name="batch1"),
    n("Concat", ["batch1", "minus1"], ["newshape"], name="newshape", axis=0),
    n("Reshape", ["t2", "newshape"], ["flat"], name="flat"),
    n("Reshape", ["flat", "s3"], ["r3"], name="r3"),
    n("Reshape", ["r3", "s2"], ["r2"], name="r2"),
    n("Gemm", ["r2", "fc", "fcb"], ["y"], name="fc", transB=1),
]
graph = helper.make_graph(
    nodes, "simplify_model",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
checker.check_model(model)
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
