"""Writes seeded random inputs for MODEL and ONNX Runtime's outputs for them:
OUT_DIR/input_<i>.npy and OUT_DIR/output_<i>.npy (the independent reference
for end-to-end tests). Float inputs are standard normal, 8-bit ones uniform
over their range."""
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

model, out_dir = sys.argv[1], Path(sys.argv[2])
rng = np.random.default_rng(0)
session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
feeds = {}
for i, info in enumerate(session.get_inputs()):
    shape = [d if isinstance(d, int) else 1 for d in info.shape]
    if info.type in ("tensor(uint8)", "tensor(int8)"):
        dtype = np.uint8 if info.type == "tensor(uint8)" else np.int8
        bounds = np.iinfo(dtype)
        x = rng.integers(bounds.min, bounds.max + 1, shape).astype(dtype)
    else:
        x = rng.standard_normal(shape).astype(np.float32)
    feeds[info.name] = x
    np.save(out_dir / f"input_{i}.npy", x)
for i, y in enumerate(session.run(None, feeds)):
    np.save(out_dir / f"output_{i}.npy", y)
