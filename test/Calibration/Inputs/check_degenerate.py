"""check_degenerate.py MODEL DATA RANGES RUNNER: runs the compiled int8
model (RUNNER, the generic runner) and ONNX Runtime's float model on every
sample of DATA; prints the largest |int8 - float| in quantization steps of
the output (from RANGES, the save= table, tensor 'add'; a step below float's
smallest normal number is 1, as the quantizer makes it) and fails on a
non-finite output or more than 2 steps."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnxruntime as ort

model, data, ranges, runner = sys.argv[1:5]
r = json.loads(Path(ranges).read_text())["tensors"]["add"]
lo, hi = min(r["min"], 0.0), max(r["max"], 0.0)
step = (hi - lo) / 255
if step < np.finfo(np.float32).tiny:
    step = 1.0
session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
worst = 0.0
for sample in sorted(Path(data).glob("*.npy")):
    x = np.load(sample)
    expected = session.run(None, {"x": x})[0]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([runner, "--inputs", str(sample), "--outputs-dir", out],
                       check=True, capture_output=True)
        y = np.load(Path(out) / "output_0.npy")
    if not np.all(np.isfinite(y)):
        sys.exit(f"FAIL {sample.name}: non-finite output")
    worst = max(worst, float(np.max(np.abs(y - expected))) / step)
verdict = "PASS" if worst <= 2 else "FAIL"
print(f"{verdict} {Path(data).name}: max |int8 - float| = {worst:.2f} output steps")
sys.exit(0 if verdict == "PASS" else 1)
