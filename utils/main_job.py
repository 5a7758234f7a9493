#!/usr/bin/env python3
"""The README's main job on the default model: run onnx-quant on it and say what happened.

What the pipeline does today:
  1. import the ONNX model into the `onnx` MLIR dialect   (onnx-quant-opt M.onnx -o M.mlir)
  2. write the IR back out as ONNX                        (onnx-quant-opt M.onnx --emit=onnx)
     and prove the round trip: ONNX Runtime runs the original and the re-exported model
     on every held-out image; outputs must be bitwise identical.
  3. compile to a native object + C header                (onnx-quant-opt M.onnx --emit=obj)
     link it with the generic runner (tools/onnx-quant-runner/runner.c), run it on every
     held-out image and report its accuracy next to ONNX Runtime's, with the worst
     difference of the logits.
  4. the int8 pipeline: prune -> fold BatchNorm -> calibrate (on training images, never
     the held-out ones) -> quantize -> object, linked and run on every held-out image;
     float and int8 accuracy and the size of both objects.

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


def link_runner(args, obj, entry):
    """The generic runner linked with one compiled model."""
    runner = args.out_dir / f"run-{entry}"
    subprocess.run([args.cc, "-std=c99", "-O2", f"-DONNXQ_MODEL={entry}", "-include",
                    str(obj.with_suffix(".h")), str(args.runner), str(obj), "-o",
                    str(runner), "-lm"], check=True)
    return runner


def run_native(runner, images, work):
    """Runs the linked object on each image through the runner; returns logits."""
    work.mkdir(parents=True, exist_ok=True)
    logits = []
    for i, image in enumerate(images):
        path = work / f"image_{i}.npy"
        np.save(path, image[None])
        subprocess.run([str(runner), "--inputs", str(path), "--outputs-dir", str(work)],
                       check=True, capture_output=True)
        logits.append(np.load(work / "output_0.npy"))
    return np.concatenate(logits)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", type=Path, required=True)
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--images", type=Path, required=True)
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--calibration", type=Path, required=True,
                    help="directory of calibration samples (.npy, disjoint from --images)")
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--runner", type=Path, required=True, help="runner.c")
    ap.add_argument("--cc", default="cc")
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

    obj = args.out_dir / "digits.o"
    seconds = run_tool(args.tool, args.model, "--emit=obj", "--entry=digits", "-o", obj)
    runner = link_runner(args, obj, "digits")
    native = run_native(runner, images, args.out_dir / "native")
    native_accuracy = float(np.mean(native.argmax(axis=1) == labels))
    worst = float(np.max(np.abs(native - original)))
    print(f"4. compiled to {obj.name} + digits.h in {seconds:.2f} s, linked with the runner; "
          f"native code on {len(images)} held-out images: accuracy "
          f"{100 * native_accuracy:.2f}% (ONNX Runtime: {100 * accuracy:.2f}%), "
          f"worst logit difference {worst:.2e}")
    if native_accuracy != accuracy:
        sys.exit("native code and ONNX Runtime disagree on the held-out accuracy")

    int8_obj = args.out_dir / "digits_int8.o"
    passes = ["--onnx-prune=mode=relative threshold=0.02 quiet=true",
              "--onnx-fold-batchnorm",
              f"--onnx-calibrate=data={args.calibration} quiet=true",
              "--onnx-quantize"]
    seconds = run_tool(args.tool, args.model, *passes, "--emit=obj",
                       "--entry=digits_int8", "-o", int8_obj)
    samples = len(list(args.calibration.glob("*.npy")))
    int8_runner = link_runner(args, int8_obj, "digits_int8")
    int8 = run_native(int8_runner, images, args.out_dir / "native_int8")
    int8_accuracy = float(np.mean(int8.argmax(axis=1) == labels))
    print(f"5. int8: {' '.join(passes)}")
    print(f"   calibrated on {samples} training images, compiled to {int8_obj.name} in "
          f"{seconds:.2f} s; on the {len(images)} held-out images: float "
          f"{100 * native_accuracy:.2f}%, int8 {100 * int8_accuracy:.2f}% "
          f"({100 * (int8_accuracy - native_accuracy):+.2f} points)")
    print(f"   object size: float {obj.stat().st_size} bytes, int8 "
          f"{int8_obj.stat().st_size} bytes")


if __name__ == "__main__":
    main()
