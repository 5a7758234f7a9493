"""Writes the model and inputs of runtime-indices.test into OUT:
m.onnx: y = Gather(data, i) (axis 0 of 5), z = GatherElements(data, j)
(axis 1 of 3), w = ScatterND(data, k, u) (2-tuples into 5x3), data and all
indices graph inputs; good/ holds in-range inputs (negative ones too) and
ONNX Runtime's outputs for them; bad_<name>/ the same inputs with one index
out of range: 5 (past the end), -6 (before the start), 10^15 and -2^63 for
Gather, 3 for GatherElements, (5, 0) for ScatterND."""
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

out = Path(sys.argv[1])
graph = helper.make_graph(
    [helper.make_node("Gather", ["data", "i"], ["y"], axis=0),
     helper.make_node("GatherElements", ["data", "j"], ["z"], axis=1),
     helper.make_node("ScatterND", ["data", "k", "u"], ["w"])],
    "runtime_indices",
    [helper.make_tensor_value_info("data", TensorProto.FLOAT, [5, 3]),
     helper.make_tensor_value_info("i", TensorProto.INT64, [4]),
     helper.make_tensor_value_info("j", TensorProto.INT64, [5, 2]),
     helper.make_tensor_value_info("k", TensorProto.INT64, [2, 2]),
     helper.make_tensor_value_info("u", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [5, 2]),
     helper.make_tensor_value_info("w", TensorProto.FLOAT, [5, 3])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, out / "m.onnx")

rng = np.random.default_rng(0)
good = {
    "data": rng.standard_normal((5, 3)).astype(np.float32),
    "i": np.array([0, 4, -1, -5], np.int64),
    "j": np.array([[0, 2], [-1, 1], [2, -3], [1, 1], [0, 0]], np.int64),
    "k": np.array([[4, 2], [-5, -1]], np.int64),
    "u": np.array([7.5, -2.25], np.float32),
}
names = ["data", "i", "j", "k", "u"]


def write(folder, inputs, outputs=None):
    folder.mkdir()
    for n, name in enumerate(names):
        np.save(folder / f"input_{n}.npy", inputs[name])
    for n, value in enumerate(outputs or []):
        np.save(folder / f"output_{n}.npy", value)


session = ort.InferenceSession(str(out / "m.onnx"), providers=["CPUExecutionProvider"])
write(out / "good", good, session.run(None, good))
for name, tensor, position, value in [
        ("past_end", "i", (1,), 5), ("before_start", "i", (3,), -6),
        ("huge", "i", (0,), 10**15), ("min", "i", (2,), -2**63),
        ("elements", "j", (4, 1), 3), ("tuple", "k", (0, 0), 5)]:
    bad = {n: v.copy() for n, v in good.items()}
    bad[tensor][position] = value
    write(out / f"bad_{name}", bad)
