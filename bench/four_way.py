#!/usr/bin/env python3
"""Ours fp32, ours int8, ONNX Runtime fp32 and ONNX Runtime int8, side by side.

A benchmark, not a test. For each model:

  * ours fp32: `TOOL model --onnx-fold-batchnorm --emit=obj`, linked with the generic runner;
  * ours int8: `TOOL model --onnx-fold-batchnorm --onnx-calibrate="data=CAL"
    --onnx-quantize --emit=obj` (the default calibration and quantization);
  * ORT fp32: the float model, CPU provider, one thread;
  * ours int8 without AMX (`--amx-off`): the same compiled with
    --mattr=-amx-int8 (vpdpbusd only), timed on one thread;
  * ORT int8: ONNX Runtime's quantize_static (QDQ, U8S8, per channel, minmax,
    utils/ort_quantize.py in .venv-ortq) of the same model with its
    BatchNormalization folded (`TOOL --onnx-fold-batchnorm --emit=onnx`), on
    the same calibration samples CAL, run like ORT fp32.

Models: the zoo's MNIST, ResNet8 (CIFAR-10) and SqueezeNet 1.1 (calibrated on
16 preprocessed zoo images), the zoo's already quantized MobileNetV2-int8
(int8 columns only: ours compiles the QOperator model, ORT runs it), the
torchvision-style CNNs of bench/cnn_models.py (random weights, BatchNorm
kept; calibrated on 16 random normal images), and a transformer encoder
(utils/make_transformer_model.py: 4 blocks, model dim 256, feed-forward
1024, 128 tokens) whose int8 columns are dynamic quantization: ours
`--onnx-quantize="mode=dynamic"`, ORT's quantize_dynamic (both per tensor,
s8 weights, u8 activations quantized when the model runs).

Timing: one thread, and each count of --threads (e.g. 1,2): ours calls
NAME_run for one thread and NAME_run_parallel on a pool of T threads
(include/onnxq_pool.h) for T, ORT runs with intra_op_num_threads = T. After
warm-up, --rounds rounds in which every variant takes its turn (ours fp32,
ours int8, ORT fp32, ORT int8, per thread count), each timing R calls and
keeping their median; a variant's figure is the median of its round
medians. Ours is timed by the runner around the call only (`--repeat`, after
20 ms of untimed calls: `--warmup 20`), ORT
with time.perf_counter() around session.run. R is --repeat, lowered (not
below 3) for slow models so that each variant takes about --budget seconds.

Output: the CPU and ONNX Runtime version, then a Markdown table with the four
one-thread latencies (ms) and the ratios ours-int8/ORT-int8, ours-int8/ours-
fp32, ours-fp32/ORT-fp32 (below 1: the first is faster); per other thread
count T, a table with the four T-thread latencies, each variant's speedup over
its one-thread time, and ours-int8/ORT-int8 at T threads.

Run:  .venv/bin/python bench/four_way.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c [--zoo DIR] \\
          [--models squeezenet,resnet18,...] [--threads 1,2] [--rounds 3] \\
          [--repeat 20] [--budget 10]
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
sys.path.insert(0, str(REPO / "bench"))

import cnn_models  # noqa: E402
from latency import cpu_name, ort_session, time_ort, time_ours  # noqa: E402
from tool_check import diagnostic_line, with_memory_limit  # noqa: E402
from zoo_native_check import ZOO_MODELS, add_tool_arguments, default_zoo, preprocess  # noqa: E402

COMPILE_TIMEOUT = 900.0
# Seconds to wait after timing ONNX Runtime on several threads, longer than
# its pool threads spin after a run.
ORT_SPIN_S = 0.1
CALIBRATION_SAMPLES = 16
# Zoo models by short name (utils/zoo_native_check.py's ZOO_MODELS paths).
ZOO = {
    "mnist": "mnist/models/mnist-cntk-opset7.onnx",
    "resnet8": "cifar10/models/mlperf_tiny_resnet8_fp32.onnx",
    "squeezenet": "imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx",
    "mobilenetv2_zoo_int8": "imagenet/models/mobilenetv2-12-int8.onnx",
}
PREQUANTIZED = {"mobilenetv2_zoo_int8"}
# Models quantized dynamically (no calibration), with the input shape.
DYNAMIC = {"transformer": dict(blocks=4, dim=256, ff=1024, shape=(1, 128, 256))}


def write_transformer(name, work):
    """The DYNAMIC model `name`, written as WORK/NAME.onnx."""
    import make_transformer_model
    spec = DYNAMIC[name]
    model = work / f"{name}.onnx"
    make_transformer_model.make_model(str(model), spec["blocks"], 0, spec["dim"],
                                      spec["ff"])
    return model


def run(cmd, timeout=COMPILE_TIMEOUT):
    p = subprocess.run(with_memory_limit([str(c) for c in cmd], 6144),
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(diagnostic_line(p.stderr) or p.stdout.strip()[-200:])
    return p


def compile_ours(args, model, passes, entry, work):
    obj, header, exe = work / f"{entry}.o", work / f"{entry}.h", work / f"run_{entry}"
    run([args.tool, model, *passes, "--emit=obj", "-o", obj, f"--entry={entry}"])
    run([args.cc, "-std=c99", "-O2", "-D_POSIX_C_SOURCE=199309L",
         f"-DONNXQ_MODEL={entry}", "-include", header, args.runner, obj, "-o", exe,
         "-lm"])
    return exe


def samples(name, zoo, model_path, work):
    """A folder of calibration .npy samples and one timing input."""
    cal = work / "calibration"
    cal.mkdir()
    if name in DYNAMIC:
        x = np.random.default_rng(0).standard_normal(DYNAMIC[name]["shape"]).astype(np.float32)
        inp = work / "x.npy"
        np.save(inp, x)
        return cal, inp, x
    if name in ZOO:
        zoo_model = next(m for m in ZOO_MODELS if m.path == ZOO[name])
        xs = [x for _, x in preprocess(zoo_model, zoo, CALIBRATION_SAMPLES)]
    else:
        rng = np.random.default_rng(0)
        xs = [rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
              for _ in range(CALIBRATION_SAMPLES)]
    for i, x in enumerate(xs):
        np.save(cal / f"{i:03d}.npy", x)
    inp = work / "x.npy"
    np.save(inp, xs[0])
    return cal, inp, xs[0]


def quantize_with_ort(args, model, cal, work, dynamic=False):
    if dynamic:
        out = work / "ort_dynamic.onnx"
        run([REPO / ".venv-ortq/bin/python", REPO / "utils/ort_quantize.py", model, "-",
             out, "--dynamic"])
        return out
    folded = work / "folded.onnx"
    run([args.tool, model, "--onnx-fold-batchnorm", "--emit=onnx", "-o", folded])
    out = work / "ort_int8.onnx"
    run([REPO / ".venv-ortq/bin/python", REPO / "utils/ort_quantize.py", folded, cal,
         out, "--per-channel"])
    return out


VARIANTS = ("ours fp32", "ours int8", "ORT fp32", "ORT int8")
NO_AMX = "ours int8 w/o AMX"
QUANTIZE = ["--onnx-fold-batchnorm", "--onnx-calibrate=data={cal} quiet=true",
            "--onnx-quantize=quiet=true"]


def bench(name, model, zoo, args, work):
    """Latencies (ms) keyed by (variant, threads), and notes."""
    cal, inp, x = samples(name, zoo, model, work)
    built, notes = {}, []

    def add(key, build):
        try:
            built[key] = build()
        except Exception as e:  # a failing variant is a cell, not an abort
            notes.append(f"{key}: {str(e)[:160]}")

    if name in DYNAMIC:
        shape = ["--input-shape=x:" + "x".join(map(str, DYNAMIC[name]["shape"]))]
        add("ours fp32", lambda: ("ours", compile_ours(args, model, shape, "f32", work)))
        add("ours int8", lambda: ("ours", compile_ours(
            args, model, shape + ["--onnx-quantize=mode=dynamic per-channel=false quiet=true"],
            "i8", work)))
        add("ORT fp32", lambda: ("ort", model))
        add("ORT int8", lambda: ("ort", quantize_with_ort(args, model, cal, work, dynamic=True)))
    elif name not in PREQUANTIZED:
        # BatchNorm folded, as the user guide compiles float models and as
        # ONNX Runtime does when it loads one.
        add("ours fp32", lambda: ("ours", compile_ours(
            args, model, ["--onnx-fold-batchnorm"], "f32", work)))
        passes = [p.format(cal=cal) for p in QUANTIZE]
        add("ours int8", lambda: ("ours", compile_ours(args, model, passes, "i8", work)))
        if args.amx_off:
            add(NO_AMX, lambda: ("ours", compile_ours(
                args, model, passes + ["--mattr=-amx-int8"], "i8v", work)))
        add("ORT fp32", lambda: ("ort", model))
        add("ORT int8", lambda: ("ort", quantize_with_ort(args, model, cal, work)))
    else:
        add("ours int8", lambda: ("ours", compile_ours(
            args, model, [], "i8", work)))
        if args.amx_off:
            add(NO_AMX, lambda: ("ours", compile_ours(
                args, model, ["--mattr=-amx-int8"], "i8v", work)))
        add("ORT int8", lambda: ("ort", model))

    def timer(kind, target, threads):
        if kind == "ours":
            return lambda n: time_ours(target, inp, n, threads if threads > 1 else None)
        session = ort_session(target, threads)
        feed = {session.get_inputs()[0].name: x}
        for _ in range(args.warmup):
            session.run(None, feed)
        if threads == 1:
            return lambda n: time_ort(session, feed, n)

        def timed_then_settled(n):
            # ORT's idle pool threads spin for some 30 ms after a run (this
            # process's CPU time grows while it sleeps): the next variant
            # would share the cores with them.
            ms = time_ort(session, feed, n)
            time.sleep(ORT_SPIN_S)
            return ms
        return timed_then_settled

    timers = {(k, t): timer(*v, t) for k, v in built.items() for t in args.threads
              if t == 1 or k != NO_AMX}
    repeats = {k: max(3, min(args.repeat, int(args.budget * 1e3 /
                                                (args.rounds * max(t(3), 1e-3)))))
               for k, t in timers.items()}
    rounds = {k: [] for k in timers}
    for _ in range(args.rounds):
        for k, t in timers.items():
            rounds[k].append(t(repeats[k]))
    ms = {k: statistics.median(v) for k, v in rounds.items()}
    spread = "; ".join(f"{k} {'' if t == 1 else f'{t}T '}{min(v):.3g}-{max(v):.3g} "
                       f"({repeats[(k, t)]} calls)" for (k, t), v in rounds.items())
    return ms, notes + [spread]


def table_rows(name, ms, notes, threads, amx_off):
    """The one-thread row, and one row per other thread count."""
    def cell(k, t=1):
        return f"{ms[(k, t)]:.3g}" if (k, t) in ms else "-"

    def ratio(a, b):
        return f"{ms[a] / ms[b]:.2f}" if a in ms and b in ms else "-"

    amx = [cell(NO_AMX), ratio((NO_AMX, 1), ("ours int8", 1))] if amx_off else []
    rows = {1: [name, *(cell(k) for k in VARIANTS),
                ratio(("ours int8", 1), ("ORT int8", 1)),
                ratio(("ours int8", 1), ("ours fp32", 1)),
                ratio(("ours fp32", 1), ("ORT fp32", 1)), *amx, "; ".join(notes)]}
    for t in threads:
        if t != 1:
            rows[t] = [name, *(cell(k, t) for k in VARIANTS),
                       *(ratio((k, 1), (k, t)) for k in VARIANTS),
                       ratio(("ours int8", t), ("ORT int8", t))]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--models",
                    default=",".join(list(ZOO) + list(cnn_models.MODELS) + list(DYNAMIC)))
    ap.add_argument("--threads", default="1",
                    help="thread counts, comma-separated (1); 1 is always timed")
    ap.add_argument("--amx-off", action="store_true",
                    help="also time ours int8 without AMX (--mattr=-amx-int8), one thread")
    ap.add_argument("--repeat", type=int, default=20, help="timed calls per round (20)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (3)")
    ap.add_argument("--warmup", type=int, default=3, help="untimed ORT calls (3)")
    ap.add_argument("--budget", type=float, default=10.0,
                    help="seconds per variant and model; caps --repeat (10)")
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    args.threads = sorted({1, *(int(t) for t in args.threads.split(","))})
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    zoo = (args.zoo or default_zoo()).resolve()
    import onnxruntime as ort

    print(f"CPU: {cpu_name()}; ONNX Runtime {ort.__version__}; threads "
          f"{', '.join(map(str, args.threads))}; median of {args.rounds} rounds "
          f"taken in turn\n")
    tables = {}
    for name in args.models.split(","):
        with tempfile.TemporaryDirectory(prefix="onnxq-4way-") as tmp:
            work = Path(tmp)
            if name in ZOO:
                model = zoo / ZOO[name]
                if not model.is_file():
                    tables.setdefault(1, []).append(
                        [name, *["-"] * (9 if args.amx_off else 7),
                         f"SKIP: zoo not found at {zoo}"])
                    continue
            elif name in cnn_models.MODELS:
                model = work / f"{name}.onnx"
                import onnx
                onnx.save(cnn_models.build(name), str(model))
            elif name in DYNAMIC:
                model = write_transformer(name, work)
            else:
                print(f"error: unknown model '{name}'", file=sys.stderr)
                return 2
            ms, notes = bench(name, model, zoo, args, work)
        label = f"{name} (dynamic)" if name in DYNAMIC else name
        for t, row in table_rows(label, ms, notes, args.threads, args.amx_off).items():
            tables.setdefault(t, []).append(row)
        print(f"{name}: done", file=sys.stderr, flush=True)

    def show(header, rows):
        print("| " + " | ".join(header) + " |")
        print("| --- | " + " | ".join("---:" for _ in header[1:-1]) +
              (" | --- |" if header[-1] == "notes" else " | ---: |"))
        for row in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
        print()

    print("One thread:\n")
    amx = [f"{NO_AMX} ms", "AMX speedup"] if args.amx_off else []
    show(["model", "ours fp32 ms", "ours int8 ms", "ORT fp32 ms", "ORT int8 ms",
          "ours int8 / ORT int8", "ours int8 / ours fp32", "ours fp32 / ORT fp32",
          *amx, "notes"], tables.get(1, []))
    for t in args.threads:
        if t != 1:
            print(f"{t} threads (speedup: the variant's one-thread time / its "
                  f"{t}-thread time):\n")
            show(["model", *(f"{k} ms" for k in VARIANTS),
                  *(f"{k} speedup" for k in VARIANTS), "ours int8 / ORT int8"],
                 tables.get(t, []))
    return 0


if __name__ == "__main__":
    sys.exit(main())
