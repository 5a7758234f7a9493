#!/usr/bin/env python3
"""Where a compiled model loses time on several threads, loop by loop.

  .venv/bin/python bench/loops.py --tool build/bin/onnx-quant-opt \\
      --model ../shared/zoo/imagenet/models/mobilenetv2-12-int8.onnx [--flags "..."] \\
      [--threads 2] [--calls 2000] [--top 15]

Compiles the model, links it with bench/loops.c (the reference pool of
include/onnxq_pool.h behind a wrapper that times every split loop and each of
its parts) and runs it, calls alternating between the loops' parts run one
after the other on the calling thread ("serial") and on the pool, in bursts
of 4 (the first call of each untimed, so that each mode starts from its own
data placement). Per split
loop, in microseconds per call: the serial time, the loop's time on the pool,
the calling thread's part, the other threads' parts, and the loss (the pool
time less the serial time / threads: what the split loses against a perfect
one). The totals split a call's loss between the loops and the code between
them (fills, small nodes, the hand-overs' own cost: "rest").
"""
import argparse
import pathlib
import shlex
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from ab import compile_model  # noqa: E402


def node_names(exe):
    """Task entry address -> node name, from the harness's symbols."""
    names = {}
    for line in subprocess.run(["nm", str(exe)], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and "_part" in parts[2] and parts[2].endswith("_entry"):
            name = parts[2][:-len("_entry")]
            names[int(parts[0], 16)] = name[len("m_"):] if name.startswith("m_") else name
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", required=True, help="onnx-quant-opt")
    parser.add_argument("--model", required=True, help="ONNX model (or MLIR)")
    parser.add_argument("--flags", default="", help="pass flags, e.g. --onnx-fold-batchnorm")
    parser.add_argument("--threads", type=int, default=2, help="pool threads (2 or more)")
    parser.add_argument("--calls", type=int, default=2000, help="calls in each mode")
    parser.add_argument("--top", type=int, default=15, help="loops listed, largest loss first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="onnxq-loops-") as tmp:
        out = pathlib.Path(tmp)
        obj = compile_model(args.tool, args.model, args.flags, "m", out)
        exe = out / "loops"
        subprocess.run(["cc", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200112L", "-no-pie",
                        f"-I{HERE.parent / 'include'}", "-include", str(out / "m.h"),
                        str(HERE / "loops.c"), str(obj), "-o", str(exe), "-lm", "-lpthread"],
                       check=True)
        done = subprocess.run([str(exe), str(args.threads), str(args.calls)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"loops.py: {done.stderr.strip()}")
        names = node_names(exe)
    rows, calls = [], None
    for line in done.stdout.splitlines():
        fields = line.split()
        if fields[0] == "loop":
            serial, pool, caller, others = map(float, fields[2:])
            rows.append((names.get(int(fields[1], 16), fields[1]), serial, pool, caller, others))
        elif fields[0] == "calls":
            calls = tuple(map(float, fields[1:]))
    t = args.threads
    loss = lambda row: row[2] - row[1] / t
    print(f"{args.model}: {len(rows)} split loops, {t} threads, means of {args.calls} calls: "
          f"serial {calls[0]:.1f} us, pool {calls[1]:.1f} us (speedup {calls[0] / calls[1]:.2f})")
    print()
    print("| loop | serial us | pool us | caller's part | others' parts | loss us |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in sorted(rows, key=loss, reverse=True)[:args.top]:
        print(f"| {row[0]} | {row[1]:.1f} | {row[2]:.1f} | {row[3]:.1f} | {row[4]:.1f} | {loss(row):.1f} |")
    serial_loops = sum(r[1] for r in rows)
    pool_loops = sum(r[2] for r in rows)
    print()
    print(f"Loops: serial {serial_loops:.1f} us, pool {pool_loops:.1f} us, loss "
          f"{pool_loops - serial_loops / t:.1f} us; waiting for the others (pool less the caller's "
          f"part) {pool_loops - sum(r[3] for r in rows):.1f} us. Rest of a call: serial "
          f"{calls[0] - serial_loops:.1f} us, pool {calls[1] - pool_loops:.1f} us.")


if __name__ == "__main__":
    main()
