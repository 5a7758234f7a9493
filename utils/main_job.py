#!/usr/bin/env python3
"""The README's main job on the default model: run onnx-quant on it and say what happened.

What the pipeline does today (the foundation stage):
  1. import the ONNX model into the `onnx` MLIR dialect   (onnx-quant-opt M.onnx -o M.mlir)
  2. write the IR back out as ONNX                        (onnx-quant-opt M.onnx --emit=onnx)
  3. prove the round trip: ONNX Runtime runs the original and the re-exported model on
     every held-out image; outputs must be bitwise identical, and the held-out accuracy
     is reported.
Native code generation and quantization come in later stages; this script then grows.

Run:  .venv/bin/python utils/main_job.py --tool build/bin/onnx-quant-opt \\
          --model M.onnx --images X.npy --labels Y.npy --out-dir DIR
"""

import argparse
import collections
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort


def run_tool(tool, *args):
    start = time.perf_counter()
    proc = subprocess.run([str(tool), *map(str, args)], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"onnx-quant-opt failed:\n{proc.stderr}")
    return time.perf_counter() - start


def predict(model, images):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    return np.concatenate([session.run(None, {name: image[None]})[0] for image in images])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", type=Path, required=True)
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--images", type=Path, required=True)
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--out-dir", type=Path, required=True)
    args = ap.parse_args()

    mlir = args.out_dir / (args.model.stem + ".mlir")
    exported = args.out_dir / (args.model.stem + ".roundtrip.onnx")
    seconds = run_tool(args.tool, args.model, "-o", mlir)
    ops = collections.Counter(re.findall(r"= onnx\.(\w+)", mlir.read_text()))
    listing = ", ".join(f"{n} x{c}" for n, c in sorted(ops.items()))
    print(f"1. imported {args.model.name} in {seconds:.2f} s -> {mlir}")
    print(f"   onnx dialect ops: {listing}")

    seconds = run_tool(args.tool, args.model, "--emit=onnx", "-o", exported)
    print(f"2. exported the IR back to ONNX in {seconds:.2f} s -> {exported}")

    images, labels = np.load(args.images), np.load(args.labels)
    original, roundtrip = predict(args.model, images), predict(exported, images)
    identical = np.array_equal(original, roundtrip)
    accuracy = float(np.mean(roundtrip.argmax(axis=1) == labels))
    print(f"3. ONNX Runtime on {len(images)} held-out images: outputs of the original and "
          f"the re-exported model are {'bitwise identical' if identical else 'DIFFERENT'}; "
          f"held-out accuracy {100 * accuracy:.2f}%")
    if not identical:
        sys.exit("round trip changed the model's outputs")
    print("Next stages (not built yet): native code (--emit=obj), calibration, int8.")


if __name__ == "__main__":
    main()
