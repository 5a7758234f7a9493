#!/usr/bin/env python3
"""Latency of the compiled zoo models against ONNX Runtime (a benchmark, not a test).

For each model of utils/zoo_native_check.py's ZOO_MODELS present in the zoo:
compile it with `TOOL --emit=obj` for the host, link the generic runner with
`cc -std=c99 -O2 -D_POSIX_C_SOURCE=199309L` (so its `--repeat` timing uses
clock_gettime(CLOCK_MONOTONIC) around each NAME_run call, not the CPU-time
clock()), and time both on the same preprocessed zoo image:

  * ours: `run --inputs x.npy --repeat R` prints the median of R calls of
    NAME_run (the call only; file reading is outside the timed region);
  * ONNX Runtime: CPU provider, intra_op_num_threads = inter_op = 1, default
    graph optimizations, time.perf_counter() around each session.run, median
    of R calls.

Both run single-threaded. ORT's session gets --warmup calls (5) before timing;
our runner is a fresh process per round, so its first calls pay for page
faults and cold caches, which the median absorbs. The two alternate in
--rounds rounds (5): ours R calls, ORT R calls, ours, ... and each side's figure
is the median of its round medians, so a burst of load on the machine hits
both. R is --repeat (50), lowered (not below 5) for a slow model so that our
timed calls take about --budget seconds (30) in all. The ratio is ours / ORT
(below 1: we are faster).

Output: a Markdown table (model, input, ours ms, ORT ms, ratio), preceded by a
line giving the CPU, the ONNX Runtime version and the settings. Models that do
not compile get a row saying so. Zoo folder as in zoo_native_check.py (--zoo,
$ONNX_QUANT_ZOO, <repo>/../shared/zoo); without it: `SKIP: ...`, exit 0.

Run:  .venv/bin/python bench/latency.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c [--zoo DIR] [--repeat 50] \\
          [--rounds 5] [--warmup 5] [--budget 30]
"""

import argparse
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))

from tool_check import diagnostic_line, with_memory_limit  # noqa: E402
from zoo_native_check import (ZOO_MODELS, add_tool_arguments, default_zoo,  # noqa: E402
                               preprocess)

COMPILE_TIMEOUT = 600.0


def cpu_name():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def build(model, zoo, args, work):
    """Compile and link; return (runner path, '') or (None, reason)."""
    obj, header, exe = work / f"{model.entry}.o", work / f"{model.entry}.h", work / "run"
    try:
        p = subprocess.run(with_memory_limit(
            [args.tool, zoo / model.path, "--emit=obj", "-o", obj,
             f"--entry={model.entry}"], 4096),
            capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"compile timeout ({COMPILE_TIMEOUT:g} s)"
    if p.returncode != 0:
        return None, "does not compile: " + diagnostic_line(p.stderr).replace(
            str(zoo / model.path), Path(model.path).name)
    p = subprocess.run([args.cc, "-std=c99", "-O2", "-D_POSIX_C_SOURCE=199309L",
                        f"-DONNXQ_MODEL={model.entry}", "-include", str(header),
                        str(args.runner), str(obj), "-o", str(exe), "-lm"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, "runner link failed: " + diagnostic_line(p.stderr)
    return exe, ""


# Untimed calls before the timed ones (the runner's --warmup, ms): each
# timing is a new process, whose pool threads may not be running on their
# own cores yet (ResNet8 on two threads: 1 of 6 processes of 20 calls ran
# as slow as on one thread without it, none with it). ORT's sessions are
# warmed up likewise (--warmup calls) and kept across rounds.
WARMUP_MS = 20


def time_ours(exe, inp, repeat, threads=None):
    """Median ms per NAME_run call (NAME_run_parallel on a pool of `threads`
    when given), after WARMUP_MS of untimed calls."""
    cmd = [str(exe), "--inputs", str(inp), "--repeat", str(repeat),
           "--warmup", str(WARMUP_MS)]
    if threads:
        cmd += ["--threads", str(threads)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    m = re.search(r"median ([0-9.]+) ms/run.*wall clock", p.stdout)
    if not m:
        raise RuntimeError(f"no wall-clock timing line in: {p.stdout.strip()}")
    return float(m.group(1))


def alternating_rounds(exe, inp, args, other):
    """`args.rounds` alternating rounds of our object `exe` on `inp` and of
    `other(repeat)`: the per-round medians (ms per call) of each side, and
    the calls per round (fewer than --repeat for slow models, so that our
    side takes about --budget seconds)."""
    estimate = time_ours(exe, inp, 3)
    repeat = max(5, min(args.repeat, int(args.budget * 1e3 / (args.rounds * estimate))))
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(time_ours(exe, inp, repeat))
        theirs.append(other(repeat))
    return ours, theirs, repeat


def ort_session(path, threads=1):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def time_ort(sess, feed, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        sess.run(None, feed)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def bench_model(model, zoo, args, work):
    """Return a table row (list of cells)."""
    exe, why = build(model, zoo, args, work)
    _, x = preprocess(model, zoo, 1)[0]
    shape = f"{np.dtype(model.dtype).name}{list(x.shape)}"
    if exe is None:
        return [model.path, shape, "-", "-", "-", why]
    inp = work / "x.npy"
    np.save(inp, x)
    sess = ort_session(zoo / model.path)
    feed = {sess.get_inputs()[0].name: x}
    for _ in range(args.warmup):
        sess.run(None, feed)
    ours, theirs, repeat = alternating_rounds(exe, inp, args,
                                              lambda n: time_ort(sess, feed, n))
    a, b = statistics.median(ours), statistics.median(theirs)
    spread = (f"{args.rounds}x{repeat} calls; round medians: ours {min(ours):.3g}-"
              f"{max(ours):.3g}, ORT {min(theirs):.3g}-{max(theirs):.3g}")
    return [model.path, shape, f"{a:.3f}", f"{b:.3f}", f"{a / b:.2f}", spread]


def resolve_inputs(args):
    """(zoo, 0) with args.tool and args.runner made absolute, or (None, exit
    status) after saying why: 0 when the zoo is absent (skipped), 2 when the
    tool or the runner is missing."""
    zoo = (args.zoo or default_zoo()).resolve()
    if not zoo.is_dir():
        print(f"SKIP: zoo not found at {zoo} (set --zoo or ONNX_QUANT_ZOO)")
        return None, 0
    for f, what in ((args.tool, "tool"), (args.runner, "runner")):
        if not f.is_file():
            print(f"error: {what} not found: {f}", file=sys.stderr)
            return None, 2
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    return zoo, 0


def main():
    ap = argparse.ArgumentParser(
        description="Median latency of compiled zoo models vs ONNX Runtime.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--repeat", type=int, default=50, help="timed calls per round (50)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (5)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed ORT calls (5)")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="seconds of our timed calls per model; caps --repeat (30)")
    ap.add_argument("--cc", default="cc", help="C compiler (cc)")
    args = ap.parse_args()

    zoo, status = resolve_inputs(args)
    if zoo is None:
        return status
    import onnxruntime as ort

    print(f"CPU: {cpu_name()}; ONNX Runtime {ort.__version__}; both single-threaded; "
          f"median of {args.rounds} alternating rounds of up to {args.repeat} calls "
          f"(fewer when our calls would pass {args.budget:g} s); one preprocessed "
          "zoo image\n")
    print("| model | input | ours (ms) | ORT (ms) | ours/ORT | notes |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for model in ZOO_MODELS:
        if not (zoo / model.path).is_file():
            continue
        with tempfile.TemporaryDirectory(prefix="onnxq-bench-") as tmp:
            row = bench_model(model, zoo, args, Path(tmp))
        print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
