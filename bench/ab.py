#!/usr/bin/env python3
"""A/B of two compilers on one model: both objects in one process, timed call
by call and alternating (bench/ab_pair.c), so that a shared host's load slows
both alike. Prints, per thread count, both medians and the median ratio b/a.

  .venv/bin/python bench/ab.py --tool-a OLD/onnx-quant-opt --tool-b build/bin/onnx-quant-opt \\
      --model ../shared/zoo/imagenet/models/mobilenetv2-12-int8.onnx [--flags "..."] \\
      [--threads 1,2] [--pairs 1000] [--burst 4]

An A/A run (the same tool twice) shows the harness's own bias (up to about
0.7 % on the AMD host: code and data placement, and what noise is left). Both
models' data share the caches, so a change of memory footprint weighs more here
than in a run of its own; `--burst N` runs each model N times a turn and
times the calls after the first, which then find the model's own data where
its threads left it (a change of how loops split over threads shows there;
with one call a turn the other model's call has moved the data in between).
"""
import argparse
import pathlib
import shlex
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from four_way import run  # noqa: E402


def compile_model(tool, model, flags, entry, out_dir):
    obj = out_dir / f"{entry}.o"
    try:
        run([tool, model, *shlex.split(flags), "--emit=obj", "-o", obj, f"--entry={entry}"])
    except RuntimeError as error:
        sys.exit(f"ab.py: {tool} failed on {model}: {error}")
    return obj


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool-a", required=True, help="the baseline onnx-quant-opt")
    parser.add_argument("--tool-b", required=True, help="the onnx-quant-opt to compare")
    parser.add_argument("--model", required=True, help="ONNX model (or MLIR) both compile")
    parser.add_argument("--flags", default="", help="pass flags for both, e.g. --onnx-fold-batchnorm")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--pairs", type=int, default=1000, help="timed turns of each model per thread count")
    parser.add_argument("--burst", type=int, default=1,
                        help="calls per turn; above 1 a turn's time is the mean of its calls after "
                             "the first, so each model runs from its own cache state (data placed in "
                             "the cores that wrote it) rather than after the other model's call")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="onnxq-ab-") as tmp:
        out = pathlib.Path(tmp)
        objs = [compile_model(args.tool_a, args.model, args.flags, "a", out),
                compile_model(args.tool_b, args.model, args.flags, "b", out)]
        exe = out / "ab_pair"
        subprocess.run(["cc", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200112L",
                        f"-I{HERE.parent / 'include'}", "-include", str(out / "a.h"),
                        "-include", str(out / "b.h"), str(HERE / "ab_pair.c"),
                        *map(str, objs), "-o", str(exe), "-lm", "-lpthread"], check=True)
        for threads in args.threads.split(","):
            done = subprocess.run([str(exe), threads, str(args.pairs), str(args.burst)], capture_output=True, text=True)
            sys.stdout.write(done.stdout + done.stderr)
            if done.returncode != 0:
                sys.exit(done.returncode)


if __name__ == "__main__":
    main()
