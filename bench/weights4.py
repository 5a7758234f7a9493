#!/usr/bin/env python3
"""4-bit and weight-only objects: size and latency, against ONNX Runtime.

A benchmark, not a test. For each model:

  * ours fp32            `TOOL model --emit=obj`
  * ours int8            the default static quantization (u8 x s8 per channel,
                         calibrated on 16 samples), the size reference
  * ours w8 / w4 / w4b32 `--onnx-quantize="mode=weight-only weights=s8|s4
                         [block-size=32]"`: float activations, the 4-bit
                         weights unpacked and dequantized by the first call
                         (--unpack-weights=once, the default)
  * ours u8 x s4         the static quantization with `weights=s4`
  * ORT fp32             the float model, CPU provider, one thread
  * ORT 4-bit b32        ONNX Runtime's MatMulNBitsQuantizer (4 bits, blocks
                         of 32, symmetric, MatMulNBits: its fused kernel) where
                         the model has MatMuls (the transformer)

Models: the zoo's SqueezeNet 1.1 (its largest), and the transformer encoder
of bench/four_way.py (4 blocks, dim 256, feed-forward 1024, 128 tokens).
Object size: the text section (`size`), the bytes an application links.
Timing: one thread; after warm-up, --rounds rounds in which every variant
takes its turn timing --repeat calls (the median); a variant's figure is the
median of its round medians. Each round starts a new process, whose first
call unpacks the 4-bit weights: one slow call among --repeat, which the
round's median leaves out.

Run:  .venv/bin/python bench/weights4.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c [--zoo DIR] [--rounds 3]
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
sys.path.insert(0, str(REPO / "bench"))

from four_way import (CALIBRATION_SAMPLES, DYNAMIC, ZOO, compile_ours, run,  # noqa: E402
                      write_transformer)
from latency import cpu_name, ort_session, time_ort, time_ours  # noqa: E402
from zoo_native_check import ZOO_MODELS, add_tool_arguments, default_zoo, preprocess  # noqa: E402

ORTQ_PYTHON = REPO / ".venv-ortq/bin/python"
VARIANTS = ["ours fp32", "ours int8", "ours w8", "ours w4", "ours w4b32", "ours u8 x s4",
            "ORT fp32", "ORT 4-bit b32"]
WEIGHT_ONLY = {"ours w8": "weights=s8", "ours w4": "weights=s4",
               "ours w4b32": "weights=s4 block-size=32"}


def text_bytes(obj):
    out = subprocess.run(["size", str(obj)], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return int(out[1].split()[0])


def bench(name, model, shape_flag, xs, args, work):
    cal = work / "calibration"
    cal.mkdir()
    for i, x in enumerate(xs):
        np.save(cal / f"{i:03d}.npy", x)
    inp = work / "x.npy"
    np.save(inp, xs[0])
    static = [f"--onnx-calibrate=data={cal} quiet=true"]
    passes = {"ours fp32": [],
              "ours int8": static + ["--onnx-quantize=quiet=true"],
              "ours u8 x s4": static + ["--onnx-quantize=weights=s4 quiet=true"],
              **{k: [f"--onnx-quantize=mode=weight-only {v} quiet=true"]
                 for k, v in WEIGHT_ONLY.items()}}
    timers, sizes = {}, {}
    for i, (key, extra) in enumerate(passes.items()):
        exe = compile_ours(args, model, shape_flag + extra, f"v{i}", work)
        sizes[key] = text_bytes(work / f"v{i}.o")
        timers[key] = lambda n, exe=exe: time_ours(exe, inp, n)
    feeds = {"ORT fp32": model}
    fixed = work / "fixed21.onnx"
    run([args.tool, model, *shape_flag, "--emit=onnx", "--opset=21", "-o", fixed])
    import onnx
    if any(n.op_type == "MatMul" for n in onnx.load(str(fixed)).graph.node):
        out = work / "ort4.onnx"
        run([ORTQ_PYTHON, REPO / "utils/ort_quantize.py", fixed, "-", out,
             "--matmul-4bits", "32", "--format", "qoperator", "--symmetric"])
        feeds["ORT 4-bit b32"] = out
    for key, path in feeds.items():
        session = ort_session(path)
        feed = {session.get_inputs()[0].name: xs[0]}
        for _ in range(3):
            session.run(None, feed)
        timers[key] = lambda n, s=session, f=feed: time_ort(s, f, n)
    rounds = {k: [] for k in timers}
    for _ in range(args.rounds):
        for key, timer in timers.items():
            rounds[key].append(timer(args.repeat))
    return {k: statistics.median(v) for k, v in rounds.items()}, sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--models", default="squeezenet,transformer")
    ap.add_argument("--repeat", type=int, default=20, help="timed calls per round (20)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (3)")
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    zoo = (args.zoo or default_zoo()).resolve()
    import onnxruntime as ort
    print(f"CPU: {cpu_name()}; ONNX Runtime {ort.__version__}; one thread; median of "
          f"{args.rounds} rounds taken in turn\n")
    rows = []
    for name in args.models.split(","):
        with tempfile.TemporaryDirectory(prefix="onnxq-w4-") as tmp:
            work = Path(tmp)
            if name in ZOO:
                model = zoo / ZOO[name]
                if not model.is_file():
                    print(f"{name}: SKIP: zoo not found at {zoo}", file=sys.stderr)
                    continue
                zoo_model = next(m for m in ZOO_MODELS if m.path == ZOO[name])
                xs = [x for _, x in preprocess(zoo_model, zoo, CALIBRATION_SAMPLES)]
                shape_flag = []
            else:
                spec = DYNAMIC[name]
                model = write_transformer(name, work)
                rng = np.random.default_rng(0)
                xs = [rng.standard_normal(spec["shape"]).astype(np.float32)
                      for _ in range(CALIBRATION_SAMPLES)]
                shape_flag = ["--input-shape=x:" + "x".join(map(str, spec["shape"]))]
            ms, sizes = bench(name, model, shape_flag, xs, args, work)
        rows.append((name, ms, sizes))
        print(f"{name}: done", file=sys.stderr, flush=True)

    print("| model | " + " | ".join(f"{v} ms" for v in VARIANTS) + " |")
    print("| --- |" + " ---: |" * len(VARIANTS))
    for name, ms, _ in rows:
        print(f"| {name} | " + " | ".join(f"{ms[v]:.3g}" if v in ms else "-"
                                        for v in VARIANTS) + " |")
    print("\nObject size (text bytes; in parentheses: against ours int8):\n")
    ours = [v for v in VARIANTS if v.startswith("ours")]
    print("| model | " + " | ".join(ours) + " |")
    print("| --- |" + " ---: |" * len(ours))
    for name, _, sizes in rows:
        print(f"| {name} | " + " | ".join(
            f"{sizes[v]:,} ({sizes[v] / sizes['ours int8']:.2f}x)" for v in ours) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
