"""Writes the model and calibration sets of degenerate-ranges.test: OUT/m.onnx
(x -> Conv 3x3 -> Relu -> Add x, 8 channels of 8x8) and one folder of two
samples per kind: zero (all 0), subnormal (N(0,1) * 1e-40), tiny (* 1e-30),
huge (* 1e30); and range tables for --onnx-annotate-ranges with every
tensor at +-1e-30, at +-3e38 (a span past float's range) and alternating
between the two."""
import json
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = Path(sys.argv[1])
rng = np.random.default_rng(0)
weights = numpy_helper.from_array(rng.normal(size=(8, 8, 3, 3)).astype(np.float32), "W")
bias = numpy_helper.from_array(np.zeros(8, np.float32), "B")
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "W", "B"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["c"], ["r"], name="relu"),
     helper.make_node("Add", ["r", "x"], ["y"], name="add")],
    "degenerate",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])],
    [weights, bias])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
          out / "m.onnx")
for kind, factor in [("zero", 0.0), ("subnormal", 1e-40), ("tiny", 1e-30), ("huge", 1e30)]:
    (out / kind).mkdir()
    for i in range(2):
        x = (rng.normal(size=(1, 8, 8, 8)) * factor).astype(np.float32)
        np.save(out / kind / f"s{i}.npy", x)
names = ["x", "conv", "relu", "add"]
for kind, bounds in [("tiny", [1e-30] * 4), ("overflow", [3e38] * 4),
                     ("mixed", [1e-30, 3e38, 1e-30, 3e38])]:
    table = {"format": "onnx-quant ranges 1",
             "tensors": {n: {"min": -b, "max": b, "method": "minmax", "samples": 1}
                         for n, b in zip(names, bounds)}}
    (out / f"ranges-{kind}.json").write_text(json.dumps(table))
