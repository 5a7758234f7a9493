#!/usr/bin/env python3
"""Where one compiled model spends its time: achieved MACs per cycle of its
large layers against the CPU's peak.

A benchmark, not a test. The model is compiled as bench/four_way.py compiles
it (ours fp32 and/or ours int8, same calibration samples), run under
`perf record` (one thread), and each node's share of the samples (every node
is a function of its own, `<graph>_<node>`, docs/codegen.md) times the
median latency gives its time per inference. Multiply-accumulates per node
come from the float model's shapes (Conv, ConvTranspose, Gemm, MatMul and their QLinear forms).
Cycles = time x --ghz (default: measured under load by a chain of dependent
adds, one per cycle; /proc/cpuinfo's `cpu MHz` is the nominal clock, and
turbo runs above it).

Peaks per core: fp32 32 MAC/cycle (two 16-lane FMA pipes), AVX-512 VNNI 128
int8 MAC/cycle (two 64-MAC vpdpbusd pipes), AMX 1024 int8 MAC/cycle (one
16 x 16 x 64 tdpbsud per 16 cycles), the figures the kernel and thread
issues set their targets against; CPUs that split 512-bit instructions in
two (AMD Zen 4: family 25 in /proc/cpuinfo) reach half of the vector ones,
which the table then uses. Variants: fp32; int8 (on a
host with AMX-INT8 its deep convolutions run on tiles: peak 1024);
int8-noamx (--mattr=-amx-int8: peak 128). A node split over threads
(onnxq-parallelize) runs in functions `<node>_part...`, counted as the node.

Output: per variant, the latency, the share of the time in layers of at
least --min-mmac MMAC, and a Markdown table of those layers (largest share
first): MMAC, ms, MAC/cycle and % of peak; then the op types by share.
With --threads N instead: each node's wall time on 1 and on N threads (the
calling thread's samples: it runs every node, split or not) and the time
lost against a perfect split, the largest losses first.

Run:  .venv/bin/python bench/layers.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c --model resnet18 \\
          [--variants fp32,int8] [--min-mmac 20] [--ghz 2.6] [--zoo DIR]
          [--threads 2 [--top 15]]
"""

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
sys.path.insert(0, str(REPO / "bench"))

import cnn_models  # noqa: E402
from four_way import ZOO, compile_ours, samples  # noqa: E402
from latency import time_ours  # noqa: E402
from zoo_native_check import add_tool_arguments, default_zoo  # noqa: E402

PEAK = {"fp32": 32, "int8": 128, "int8-noamx": 128}
_CPUINFO = Path("/proc/cpuinfo").read_text()
if "amx_int8" in _CPUINFO.split():
    PEAK["int8"] = 1024
# AMD family 25 (Zen 3, Zen 4) runs a 512-bit instruction as two 256-bit
# halves: half of the vector peaks.
if ("AuthenticAMD" in _CPUINFO
        and re.search(r"^cpu family\s*:\s*25$", _CPUINFO, re.MULTILINE)):
    PEAK = {k: v // 2 for k, v in PEAK.items()}


def c_identifier(name):
    """OutlineNodes' function name rule (makeCIdentifier)."""
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return "_" + ident if ident[:1].isdigit() else ident


def ort_shapes(model, x):
    """{value name: shape} of every node output, from one ONNX Runtime run on
    `x`: for models ONNX's shape inference does not follow through (it stops
    at contrib ops such as QLinearAdd)."""
    import onnx
    import onnxruntime as ort

    model = onnx.ModelProto.FromString(model.SerializeToString())
    known = {o.name for o in model.graph.output}
    for node in model.graph.node:
        model.graph.output.extend(onnx.ValueInfoProto(name=o) for o in node.output
                                  if o and o not in known)
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    values = session.run(None, {session.get_inputs()[0].name: x})
    return {o.name: list(v.shape) for o, v in zip(session.get_outputs(), values)}


def node_macs(model_path, x=None):
    """{function name: (op type, MACs)} of the model's contractions; `x`, a
    sample input, lets ONNX Runtime fill in shapes inference cannot."""
    import onnx
    from onnx import numpy_helper, shape_inference

    model = shape_inference.infer_shapes(onnx.load(str(model_path)))
    graph = model.graph
    shapes = {}
    for vi in list(graph.value_info) + list(graph.input) + list(graph.output):
        # A symbolic dimension (a dynamic batch) counts as 1, as the tool sets it.
        shapes[vi.name] = [d.dim_value if d.HasField("dim_value") else 1
                           for d in vi.type.tensor_type.shape.dim]
    for init in graph.initializer:
        shapes[init.name] = list(numpy_helper.to_array(init).shape)
    if x is not None and any(o not in shapes for n in graph.node for o in n.output[:1]):
        shapes.update(ort_shapes(model, x))
    prefix = "main_graph_"  # the importer's graph function (ONNXGraph.h)
    result = {}
    for i, node in enumerate(graph.node):
        attrs = {a.name: a for a in node.attribute}
        out = shapes.get(node.output[0]) if node.output else None
        macs = 0
        if node.op_type in ("Conv", "ConvTranspose", "QLinearConv") and out:
            w = shapes.get(node.input[3 if node.op_type == "QLinearConv" else 1])
            if w:
                per_output = 1
                for d in w[1:]:
                    per_output *= d
                count = 1
                for d in (out if node.op_type != "ConvTranspose" else shapes.get(node.input[0], [])):
                    count *= d
                macs = count * per_output
        elif node.op_type in ("Gemm", "MatMul", "QLinearMatMul") and out:
            a = shapes.get(node.input[0])
            if a:
                k = a[0] if node.op_type == "Gemm" and attrs.get("transA") and attrs["transA"].i else a[-1]
                count = 1
                for d in out:
                    count *= d
                macs = count * k
        name = node.name or f"{node.op_type}_{i}"  # ModelLoader's name for a nameless node
        result[prefix + c_identifier(name)] = (node.op_type, macs)
    return result


def profile(exe, inp, repeat, threads=None):
    """{symbol: share of the samples} of `exe` running `inp` `repeat` times.
    With `threads`, NAME_run_parallel on a pool of that many threads, and
    the shares are those of the calling thread's samples (the lowest thread
    id): the calling thread runs every node, split or not, so its share of a
    node is the node's share of the wall time."""
    cmd = [str(exe), "--inputs", str(inp), "--repeat", str(repeat)]
    if threads:
        cmd += ["--threads", str(threads)]
    with tempfile.TemporaryDirectory(prefix="onnxq-perf-") as tmp:
        data = Path(tmp) / "perf.data"
        subprocess.run(["perf", "record", "-q", "-F", "4000", "-o", str(data), *cmd],
                       capture_output=True, check=True)
        report = subprocess.run(["perf", "report", "-i", str(data), "--sort",
                                 "pid,symbol" if threads else "symbol", "--stdio"],
                                capture_output=True, text=True, check=True).stdout
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+(?:([0-9]+):\S+\s+)?\[\.\]\s+(\S+)", line)
        if m:
            rows.append((int(m.group(2) or 0), float(m.group(1)) / 100, m.group(3)))
    if threads and rows:
        caller = min(tid for tid, _, _ in rows)
        total = sum(share for tid, share, _ in rows if tid == caller)
        rows = [(tid, share / total, sym) for tid, share, sym in rows if tid == caller]
    shares = {}
    for _, share, symbol in rows:
        # A split loop's task (and its entry) belongs to its node.
        node = re.sub(r"_part(_[0-9]+)?(_entry)?$", "", symbol)
        shares[node] = shares.get(node, 0.0) + share
    return shares


def report_threads(variant, exe, inp, args):
    """Each node's wall time on one thread and on --threads, the largest
    losses against a perfect split first."""
    n = args.threads
    ms1 = statistics.median(time_ours(exe, inp, args.repeat, 1) for _ in range(3))
    msn = statistics.median(time_ours(exe, inp, args.repeat, n) for _ in range(3))
    repeat = max(args.repeat, int(2000 / max(ms1, 1e-3)))
    one, many = profile(exe, inp, repeat, 1), profile(exe, inp, repeat, n)
    rows = []
    for node in set(one) | set(many):
        t1, tn = one.get(node, 0.0) * ms1, many.get(node, 0.0) * msn
        rows.append((tn - t1 / n, node, t1, tn))
    rows.sort(reverse=True)
    print(f"\n### {args.model} ours {variant}: {ms1:.3g} ms on 1 thread, {msn:.3g} ms on "
          f"{n} ({ms1 / msn:.2f}x); perfect split {ms1 / n:.3g} ms, "
          f"lost {msn - ms1 / n:.3g} ms\n")
    print(f"| node | ms, 1 thread | ms, {n} threads | speedup | ms lost |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for lost, node, t1, tn in rows[:args.top]:
        speedup = f"{t1 / tn:.2f}" if tn > 0 else "-"
        print(f"| {node} | {t1:.3f} | {tn:.3f} | {speedup} | {lost:.3f} |")


CLOCK_PROBE = r"""
#include <stdio.h>
#include <time.h>
int main(void) {
  struct timespec a, b;
  long n = 200000000, x = 0, one = 1;
  clock_gettime(CLOCK_MONOTONIC, &a);
  /* Register operands: newer cores fold an add of an immediate at rename,
     which would count 3 adds a cycle. */
  for (long i = 0; i < n; ++i)
    __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                     : "+r"(x) : "r"(one));
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%f\n", 4.0 * n / ((b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec)) / 1e9);
  return x == 4 * n ? 0 : 1;
}
"""


def measure_ghz(cc, work):
    """The clock under load: a chain of dependent adds retires one per cycle
    (x86-64); else the mean `cpu MHz` of /proc/cpuinfo."""
    src, exe = work / "clock.c", work / "clock"
    src.write_text(CLOCK_PROBE)
    try:
        subprocess.run([cc, "-O1", str(src), "-o", str(exe)], check=True,
                       capture_output=True)
        return max(float(subprocess.run([str(exe)], capture_output=True, text=True,
                                         check=True).stdout) for _ in range(3))
    except (subprocess.CalledProcessError, ValueError, OSError):
        mhz = [float(m) for m in re.findall(r"cpu MHz\s*:\s*([0-9.]+)",
                                             Path("/proc/cpuinfo").read_text())]
        return statistics.mean(mhz) / 1e3 if mhz else 2.6


def report(variant, exe, inp, macs, args):
    ms = statistics.median(time_ours(exe, inp, args.repeat) for _ in range(3))
    shares = profile(exe, inp, max(args.repeat, int(2000 / max(ms, 1e-3))))
    cycles_per_ms = args.ghz * 1e6
    # A node's further functions are `<node>_<k>` (OutlineNodes): a
    # convolution whose kernel and fill were outlined apart, for instance.
    nodes = {}
    for symbol, share in shares.items():
        base = re.sub(r"_[0-9]+$", "", symbol)
        node = base if symbol not in macs and base in macs else symbol
        nodes[node] = nodes.get(node, 0.0) + share
    rows, by_op = [], {}
    for symbol, share in nodes.items():
        op, count = macs.get(symbol, (symbol.rsplit("_", 1)[0], 0))
        by_op[op] = by_op.get(op, 0.0) + share
        if count >= args.min_mmac * 1e6:
            t = share * ms
            rate = count / (t * cycles_per_ms) if t else 0.0
            rows.append((share, symbol, op, count, t, rate))
    rows.sort(reverse=True)
    large = sum(r[0] for r in rows)
    print(f"\n### {args.model} ours {variant}: {ms:.3g} ms; layers >= {args.min_mmac:g} MMAC: "
          f"{len(rows)}, {100 * large:.0f} % of the time; clock {args.ghz:.2f} GHz, "
          f"peak {PEAK[variant]} MAC/cycle\n")
    print("| layer | op | MMAC | ms | share | MAC/cycle | % of peak |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for share, symbol, op, count, t, rate in rows:
        print(f"| {symbol} | {op} | {count / 1e6:.1f} | {t:.3f} | {100 * share:.1f} % | "
              f"{rate:.1f} | {100 * rate / PEAK[variant]:.0f} % |")
    ops = ", ".join(f"{op} {100 * s:.1f} %" for op, s in
                    sorted(by_op.items(), key=lambda kv: -kv[1])[:8])
    print(f"\nBy op type: {ops}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--model", default="resnet18",
                    help="a bench/cnn_models.py name or a zoo short name of four_way.py")
    ap.add_argument("--variants", default="fp32,int8")
    ap.add_argument("--min-mmac", type=float, default=20.0)
    ap.add_argument("--ghz", type=float, default=None)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--threads", type=int, default=None,
                    help="instead of MAC/cycle: each node's wall time on 1 and on N "
                         "threads (NAME_run_parallel), the largest losses first")
    ap.add_argument("--top", type=int, default=15, help="rows of the --threads table")
    args = ap.parse_args()
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    zoo = (args.zoo or default_zoo()).resolve()
    with tempfile.TemporaryDirectory(prefix="onnxq-layers-") as tmp:
        work = Path(tmp)
        args.ghz = args.ghz or measure_ghz(args.cc, work)
        if args.model in ZOO:
            model = zoo / ZOO[args.model]
            if not model.is_file():
                print(f"SKIP: zoo not found at {zoo}")
                return 0
        elif args.model in cnn_models.MODELS:
            import onnx
            model = work / f"{args.model}.onnx"
            onnx.save(cnn_models.build(args.model), str(model))
        else:
            print(f"error: unknown model '{args.model}'", file=sys.stderr)
            return 2
        cal, inp, x = samples(args.model, zoo, model, work)
        macs = node_macs(model, x)
        for variant in args.variants.split(","):
            passes = [] if variant == "fp32" else [
                "--onnx-fold-batchnorm", f"--onnx-calibrate=data={cal} quiet=true",
                "--onnx-quantize=quiet=true"]
            if variant == "int8-noamx":
                passes.append("--mattr=-amx-int8")
            exe = compile_ours(args, model, passes, variant.replace("-", "_"), work)
            if args.threads:
                report_threads(variant, exe, inp, args)
            else:
                report(variant, exe, inp, macs, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
