#!/usr/bin/env python3
"""Latency of a compiled zoo model before and after structured pruning (a benchmark, not a test).

For each model chosen with --models (keys: mnist, resnet8, squeezenet; default
resnet8,squeezenet), both present in the zoo:

  1. compile it twice for the host with `TOOL MODEL [PASSES] --emit=obj`: as is
     (entry NAME_base) and with `--onnx-prune="PRUNE report=r.json"` added
     after PASSES (entry NAME_pruned); the report gives output channels, MACs
     and weights before and after;
  2. link each with the generic runner (`cc -std=c99 -O2
     -D_POSIX_C_SOURCE=199309L`, so `--repeat` times each NAME_run call with
     clock_gettime(CLOCK_MONOTONIC));
  3. time both on the same preprocessed zoo image: the runner's `--repeat R`
     median of one inference, alternating in --rounds rounds (5): base R
     calls, pruned R calls, base, ... Each side's figure is the median of its
     round medians. R is --repeat (50), lowered (not below 5) so that the base
     model's timed calls take about --budget seconds (30) in all;
  4. run both on --images N (20) zoo images and count how often the pruned
     model's top-1 class is the base model's (structured pruning without
     fine-tuning changes what the model computes; this says by how much).

The ratio is pruned / base: below 1.0, the pruned model is faster. Output: a
line giving the CPU and the settings, then a Markdown table (model, MACs
before -> after, weights before -> after, base ms, pruned ms, ratio, top-1
agreement, notes).

Run:  flock /tmp/onnxq-build.lock .venv/bin/python bench/prune.py \\
          --tool build/bin/onnx-quant-opt --runner tools/onnx-quant-runner/runner.c \\
          [--zoo DIR] [--models resnet8,squeezenet] \\
          [--prune 'structured=channels sparsity=0.25'] [--passes '--onnx-fold-batchnorm'] \\
          [--repeat 50] [--rounds 5] [--budget 30] [--images 20]
"""

import argparse
import json
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
sys.path.insert(0, str(REPO / "bench"))

from latency import alternating_rounds, cpu_name, resolve_inputs, time_ours  # noqa: E402
from tool_check import diagnostic_line, with_memory_limit  # noqa: E402
from zoo_native_check import ZOO_MODELS, add_tool_arguments, preprocess  # noqa: E402

COMPILE_TIMEOUT = 600.0


def build(model, zoo, args, work, entry, extra):
    """Compile with `extra` flags and link; return the runner path (raises)."""
    obj, header, exe = work / f"{entry}.o", work / f"{entry}.h", work / f"run_{entry}"
    cmd = [str(args.tool), str(zoo / model.path), *shlex.split(args.passes), *extra,
           "--emit=obj", "-o", str(obj), f"--entry={entry}"]
    p = subprocess.run(with_memory_limit(cmd, 4096), capture_output=True, text=True,
                       timeout=COMPILE_TIMEOUT)
    if p.returncode != 0:
        raise RuntimeError(f"{entry} does not compile: {diagnostic_line(p.stderr)}")
    p = subprocess.run([args.cc, "-std=c99", "-O2", "-D_POSIX_C_SOURCE=199309L",
                        f"-DONNXQ_MODEL={entry}", "-include", str(header),
                        str(args.runner), str(obj), "-o", str(exe), "-lm"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("runner link failed: " + diagnostic_line(p.stderr))
    return exe


def top1(exe, inp, outdir):
    outdir.mkdir(exist_ok=True)
    subprocess.run([str(exe), "--inputs", str(inp), "--outputs-dir", str(outdir)],
                   capture_output=True, text=True, check=True)
    return int(np.argmax(np.load(outdir / "output_0.npy")))


def bench_model(model, zoo, args, work):
    report = work / "r.json"
    base = build(model, zoo, args, work, f"{model.entry}_base", [])
    pruned = build(model, zoo, args, work, f"{model.entry}_pruned",
                   [f"--onnx-prune={args.prune} quiet=true report={report}"])
    total = json.loads(report.read_text())["total"]
    layers = json.loads(report.read_text())["layers"]
    weights_after = sum(int(np.prod([int(d) for d in l["shape_after"].split("x")]))
                        for l in layers)
    macs = (f"{total['macs_before'] / 1e6:.2f}M -> {total['macs_after'] / 1e6:.2f}M "
            f"({100 * (1 - total['macs_after'] / total['macs_before']):.1f}% fewer)")
    weights = f"{total['elements']} -> {weights_after}"

    samples = preprocess(model, zoo, max(1, args.images))
    same = 0
    for i, (_, x) in enumerate(samples):
        inp = work / f"x{i}.npy"
        np.save(inp, x)
        same += top1(base, inp, work / "out_base") == top1(pruned, inp, work / "out_pruned")
    inp = work / "x0.npy"

    a, b, repeat = alternating_rounds(base, inp, args,
                                      lambda n: time_ours(pruned, inp, n))
    ma, mb = statistics.median(a), statistics.median(b)
    notes = (f"{args.rounds}x{repeat} calls; round medians: base {min(a):.3g}-{max(a):.3g}, "
             f"pruned {min(b):.3g}-{max(b):.3g}; output channels "
             f"{total['channels_before']} -> {total['channels_after']}")
    return [model.path, macs, weights, f"{ma:.3f}", f"{mb:.3f}", f"{mb / ma:.2f}",
            f"{same}/{len(samples)}", notes]


def main():
    ap = argparse.ArgumentParser(
        description="Latency of compiled zoo models before and after structured pruning.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--models", default="resnet8,squeezenet",
                    help="comma-separated ZOO_MODELS entries (resnet8,squeezenet)")
    ap.add_argument("--prune", default="structured=channels sparsity=0.25",
                    help="--onnx-prune options ('structured=channels sparsity=0.25')")
    ap.add_argument("--passes", default="",
                    help="flags given to both compiles before --onnx-prune (none)")
    ap.add_argument("--repeat", type=int, default=50, help="timed calls per round (50)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (5)")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="seconds of the base model's timed calls; caps --repeat (30)")
    ap.add_argument("--images", type=int, default=20,
                    help="zoo images for the top-1 agreement (20)")
    ap.add_argument("--cc", default="cc", help="C compiler (cc)")
    args = ap.parse_args()

    zoo, status = resolve_inputs(args)
    if zoo is None:
        return status
    wanted = [k for k in args.models.split(",") if k]
    by_entry = {m.entry: m for m in ZOO_MODELS}
    unknown = [k for k in wanted if k not in by_entry]
    if unknown:
        print(f"error: unknown --models {unknown}; known: {sorted(by_entry)}", file=sys.stderr)
        return 2

    print(f"CPU: {cpu_name()}; --onnx-prune=\"{args.prune}\""
          + (f" after {args.passes}" if args.passes else "")
          + f"; single-threaded; median of {args.rounds} alternating rounds of up to "
          f"{args.repeat} calls; one preprocessed zoo image\n")
    print("| model | MACs | weights | base (ms) | pruned (ms) | pruned/base | "
          "same top-1 | notes |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    for key in wanted:
        model = by_entry[key]
        if not (zoo / model.path).is_file():
            continue
        with tempfile.TemporaryDirectory(prefix="onnxq-bench-prune-") as tmp:
            try:
                row = bench_model(model, zoo, args, Path(tmp))
            except (RuntimeError, subprocess.SubprocessError) as e:
                row = [model.path, "-", "-", "-", "-", "-", "-", str(e)]
        print("| " + " | ".join(re.sub(r"\|", r"\\|", c) for c in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
