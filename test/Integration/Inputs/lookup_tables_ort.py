"""Writes DIR/x.npy (every byte value, then 32 random bytes, shaped like the
model's input) and ONNX Runtime's outputs of MODEL on it, with graph
optimizations off (DIR/unoptimized) and on (DIR/optimized)."""

import os
import sys

import numpy as np
import onnxruntime as ort

model, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(1)
x = np.concatenate([np.arange(256), rng.integers(0, 256, 32)]).astype(np.uint8)
x = x.reshape(1, 4, 8, 9)
np.save(os.path.join(out, "x.npy"), x)
levels = {"unoptimized": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
          "optimized": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}
for name, level in levels.items():
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    os.makedirs(os.path.join(out, name), exist_ok=True)
    for i, y in enumerate(session.run(None, {"x": x})):
        np.save(os.path.join(out, name, f"output_{i}.npy"), y)
