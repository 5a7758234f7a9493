#!/usr/bin/env python3
"""Compile a model before and after graph passes and compare the outputs.

A graph pass (--onnx-fold-batchnorm, --onnx-simplify, --onnx-prune=...) must
keep what the model computes, up to float rounding. This script checks that
numerically, on native code:

  1. compile MODEL twice with `TOOL MODEL [PASSES] --emit=obj`: once without
     the passes (entry `pc_before`), once with them (entry `pc_after`);
  2. link each object with the generic runner (RUNNER = runner.c):
     cc -std=c99 -O2 -DONNXQ_MODEL=NAME -include NAME.h RUNNER NAME.o -lm
  3. run both on the same inputs and compare every output: an element passes
     when |after - before| <= atol + rtol * |before| (numpy allclose, the
     model without passes is the reference). Per output one line gives dtype
     and shape, the worst absolute and relative difference, max |before|
     (to judge an atol), rel_1%, the worst relative difference among the
     elements with |before| >= 1% of max|before| (outputs near zero come out
     of cancellation: their rounding error scales with the summands, not with
     the result, so a large max_rel there is expected), and `ratio`, the
     largest |diff| / (atol + rtol |before|) (at most 1 when the output passes).
     --atol-range K sets each output's atol to K * max|before| (over all runs)
     when that is larger than --atol: the absolute rounding error of elements
     near zero grows with the scale of the output (logits in the thousands,
     probabilities below 1), so one fixed atol does not suit every model.
     K = 1e-6 is 8 to 17 float32 ulps of the largest output.
     --exact instead requires bitwise-identical outputs; --shapes-only (for
     passes meant to change values, such as pruning) only requires that both
     versions compile and run and give outputs of the same shapes and dtypes,
     and prints the differences for information.

Inputs (the shapes and dtypes are those of the compiled model's header, so a
dynamic batch dimension is 1 as in the compiler):
  --inputs FILE...   one .npy or ONNX TensorProto .pb per model input; a file
                     with a leading dimension N where the model has a static 1
                     is split into N runs;
  --zoo-images N     N real images of the zoo, preprocessed as in
                     zoo_native_check.py (MODEL must be one of its ZOO_MODELS);
  --random N         N seeded random input sets (--seed, default 0): N(0, 1)
                     for floats. This is the default, with N = 3.

Further checks:
  --expect-absent OP runs `TOOL MODEL PASSES --emit=mlir` and fails when an
                     `onnx.OP` op remains (e.g. BatchNormalization after
                     folding: a pass that silently does nothing then fails).
                     The count before the passes is printed too; a note says
                     when OP was not there to begin with.
  --expect-fewer OP  the same, but fails unless fewer `onnx.OP` ops remain
                     than before (for ops a pass removes only some of).
  --ort              also exports the transformed model (`--emit=onnx`), runs
                     it and the original MODEL in ONNX Runtime (CPU, 1 thread)
                     on the same inputs and compares them with the same
                     tolerances: an independent reference that does not use
                     onnx-quant's code generation.
  --ort-only         skip native code (for ops without a native lowering yet,
                     e.g. ConvTranspose); implies --ort. Input shapes then come
                     from the ONNX model (dynamic dimensions 1).

PASSES is one string of onnx-quant-opt flags, split like a shell command line,
so an option list with spaces needs inner quotes. Write it with `=` since it
starts with `--`:
    --passes=--onnx-fold-batchnorm
    --passes='--onnx-prune="mode=sparsity sparsity=0.5" --onnx-simplify'
--tool-arg ARG (repeatable) is given to every onnx-quant-opt call, e.g.
--tool-arg=--input-shape=x:4x3x32x32.

Output ends with `PASS` or `FAIL: ...`. Exit status: 0 every check passed,
1 a difference above the tolerance or an op that should be absent is there,
2 an error (bad usage, a compile or link failure, a runner crash).

Run:  .venv/bin/python utils/pass_check.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c MODEL.onnx \\
          --passes=--onnx-fold-batchnorm --expect-absent BatchNormalization \\
          [--inputs a.npy ... | --zoo-images N | --random N --seed S] \\
          [--rtol 1e-5 --atol 1e-6] [--ort | --ort-only] [--keep DIR]
"""

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from tensors import UsageError, compare, load_tensor_file, random_input, split_samples
from tool_check import diagnostic_line, with_memory_limit

COMPILE_TIMEOUT = 600.0
RUN_TIMEOUT = 300.0
ENTRIES = ("pc_before", "pc_after")

# Element type names of the header comment (ONNX TensorProto names) -> numpy.
HEADER_TYPES = {
    "FLOAT": np.float32, "DOUBLE": np.float64, "FLOAT16": np.float16,
    "BOOL": np.bool_, "INT8": np.int8, "UINT8": np.uint8, "INT16": np.int16,
    "UINT16": np.uint16, "INT32": np.int32, "UINT32": np.uint32,
    "INT64": np.int64, "UINT64": np.uint64,
}


class CheckError(Exception):
    """A tool, compile, link or run failure (exit status 2)."""


# ----------------------------------------------------------------------------
# Running the tools
# ----------------------------------------------------------------------------

def run_tool(args, extra, what, timeout=COMPILE_TIMEOUT):
    """Run onnx-quant-opt MODEL [extra] with --tool-arg flags; raise CheckError."""
    cmd = [str(args.tool), str(args.model), *args.tool_args, *extra]
    try:
        p = subprocess.run(with_memory_limit(cmd, args.mem_limit), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CheckError(f"{what}: timeout after {timeout:g} s: {shlex.join(cmd)}")
    if p.returncode != 0:
        why = diagnostic_line(p.stderr) or f"exit status {p.returncode}"
        if p.returncode < 0:
            why = f"crashed (signal {-p.returncode}): {why}"
        raise CheckError(f"{what} failed: {why}\n  command: {shlex.join(cmd)}")
    return p


def compile_and_link(args, passes, entry, work):
    obj, header, exe = work / f"{entry}.o", work / f"{entry}.h", work / f"run_{entry}"
    what = "compile " + ("with " + " ".join(passes) if passes else "without passes")
    run_tool(args, [*passes, "--emit=obj", "-o", str(obj), f"--entry={entry}"], what)
    cmd = [args.cc, "-std=c99", "-O2", f"-DONNXQ_MODEL={entry}", "-include", str(header),
           str(args.runner), str(obj), "-o", str(exe), "-lm"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise CheckError(f"linking the runner failed: {diagnostic_line(p.stderr)}\n"
                         f"  command: {shlex.join(cmd)}")
    return exe, header


def header_signature(header):
    """([(name, dtype, shape)] of inputs, same of outputs) from the header comment
    lines `input  NAME: FLOAT[1x3x32x32]` / `output NAME: FLOAT[1x10]`."""
    ins, outs = [], []
    for m in re.finditer(r"^ \*\s+(input|output)\s+(.+): (\w+)\[([0-9x]*)\]\s*$",
                         header.read_text(), re.M):
        kind, name, tname, dims = m.groups()
        if tname not in HEADER_TYPES:
            raise CheckError(f"{header.name}: {kind} '{name}' has unsupported type {tname}")
        shape = tuple(int(d) for d in dims.split("x")) if dims else ()
        (ins if kind == "input" else outs).append((name, np.dtype(HEADER_TYPES[tname]), shape))
    if not outs:
        raise CheckError(f"{header.name}: no input/output lines in the header comment")
    return ins, outs


def run_native(exe, inputs, outdir):
    """Run a linked runner on the input files; return its outputs (list of arrays)."""
    outdir.mkdir(exist_ok=True)
    for old in outdir.glob("output_*.npy"):
        old.unlink()
    cmd = [str(exe), "--inputs", *map(str, inputs), "--outputs-dir", str(outdir)]
    if not inputs:
        cmd = [str(exe), "--outputs-dir", str(outdir)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CheckError(f"{exe.name}: timeout after {RUN_TIMEOUT:g} s")
    if p.returncode != 0:
        why = diagnostic_line(p.stderr) or f"exit status {p.returncode}"
        if p.returncode < 0:
            why = f"crashed (signal {-p.returncode})" + (f": {why}" if p.stderr else "")
        raise CheckError(f"{exe.name} failed: {why}\n  command: {shlex.join(cmd)}")
    files = sorted(outdir.glob("output_*.npy"), key=lambda f: int(f.stem.split("_")[1]))
    return [np.load(f) for f in files]


# ----------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------

def onnx_signature(model):
    """[(name, dtype, shape)] of the ONNX model's real inputs (not initializers),
    dynamic dimensions 1."""
    import onnx
    from onnx import mapping
    m = onnx.load(str(model), load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    sig = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        t = vi.type.tensor_type
        dtype = np.dtype(mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type])
        shape = tuple(d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else 1
                      for d in t.shape.dim)
        sig.append((vi.name, dtype, shape))
    return sig


def zoo_inputs(args, n):
    """[(label, array)] of n preprocessed zoo images for args.model."""
    import zoo_native_check as znc
    zoo = (args.zoo or znc.default_zoo()).resolve()
    try:
        rel = Path(args.model).resolve().relative_to(zoo).as_posix()
    except ValueError:
        raise UsageError(f"--zoo-images: {args.model} is not in the zoo {zoo}")
    for m in znc.ZOO_MODELS:
        if m.path == rel:
            return [(label, x) for label, x in znc.preprocess(m, zoo, n)]
    raise UsageError(f"--zoo-images: no preprocessing known for {rel} "
                     "(add it to ZOO_MODELS in utils/zoo_native_check.py)")


def build_runs(args, sig):
    """(description, list of runs); a run is a list of arrays in input order."""
    if args.inputs:
        raw = [(n, d, s, s) for n, d, s in sig]
        if len(args.inputs) != len(sig):
            raise UsageError(f"the model takes {len(sig)} input(s) but "
                             f"{len(args.inputs)} file(s) were given")
        per_input = [split_samples(load_tensor_file(f), r) for f, r in zip(args.inputs, raw)]
        counts = {len(v) for v in per_input if len(v) > 1}
        if len(counts) > 1:
            raise UsageError(f"inputs split into different sample counts: {sorted(counts)}")
        n = counts.pop() if counts else 1
        runs = [[v[i] if len(v) > 1 else v[0] for v in per_input] for i in range(n)]
        return f"{n} run(s) from {' '.join(Path(f).name for f in args.inputs)}", runs
    if args.zoo_images:
        if len(sig) != 1:
            raise UsageError("--zoo-images needs a model with one input")
        samples = zoo_inputs(args, args.zoo_images)
        name, dtype, shape = sig[0]
        for label, x in samples:
            if x.dtype != dtype or x.shape != shape:
                raise UsageError(f"zoo image {label}: {x.dtype}{list(x.shape)} does not fit "
                                 f"input '{name}' {dtype}{list(shape)}")
        return (f"{len(samples)} zoo image(s) (zoo_native_check.py preprocessing)",
                [[x] for _, x in samples])
    rng = np.random.default_rng(args.seed)
    runs = [[random_input(rng, d, s) for _, d, s in sig] for _ in range(args.random)]
    return f"{args.random} random input set(s), seed {args.seed}", runs


# ----------------------------------------------------------------------------
# Comparing
# ----------------------------------------------------------------------------

class Worst:
    """Worst differences of one output over all runs."""

    def __init__(self, name, atol):
        self.name, self.ok, self.abs, self.rel, self.ratio = name, True, 0.0, 0.0, 0.0
        self.atol = atol
        self.ref_max, self.rel_big, self.note = 0.0, 0.0, ""

    def add(self, after, before, rtol, exact=False, shapes_only=False):
        atol = self.atol
        if after.shape != before.shape or after.dtype != before.dtype:
            self.ok = False
            self.note = (f"shape/dtype differ: after {after.dtype}{list(after.shape)} "
                         f"vs before {before.dtype}{list(before.shape)}")
            return
        self.note = self.note or f"{before.dtype}{list(before.shape)}"
        ok, d_abs, d_rel = compare(after, before, exact, rtol, atol)
        ok = ok or shapes_only
        self.ok, self.abs, self.rel = self.ok and ok, max(self.abs, d_abs), max(self.rel, d_rel)
        if np.issubdtype(before.dtype, np.number) and before.size:
            b64 = before.astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                diff = np.abs(after.astype(np.float64) - b64)
                ratio = np.nan_to_num(diff / (atol + rtol * np.abs(b64)), nan=0.0,
                                      posinf=np.inf)
            ratio[diff == 0] = 0.0
            self.ratio = max(self.ratio, float(ratio.max()))
            big_max = float(np.nanmax(np.abs(b64)))
            self.ref_max = max(self.ref_max, big_max)
            big = np.abs(b64) >= 0.01 * big_max  # away from cancellation near zero
            if big.any():
                with np.errstate(invalid="ignore", divide="ignore"):
                    self.rel_big = max(self.rel_big, float(np.nanmax(diff[big] / np.abs(b64[big]))))

    def line(self):
        return (f"  {self.name:<24} {self.note:<20} max_abs={self.abs:.3g} "
                f"max_rel={self.rel:.3g} (rel_1%={self.rel_big:.3g}) "
                f"max|before|={self.ref_max:.3g} "
                f"atol={self.atol:.3g} ratio={self.ratio:.3g}  "
                f"{'OK' if self.ok else 'MISMATCH'}")


def compare_runs(title, names, pairs, args):
    """pairs: list over runs of (after outputs, before outputs). Print; return #failed."""
    for after, before in pairs:
        if len(after) != len(before):
            raise CheckError(f"{title}: {len(after)} outputs after the passes, "
                             f"{len(before)} before")
    worst = []
    for k, name in enumerate(names):
        atol = args.atol
        if args.atol_range:  # a fraction of the output's range over all runs
            rng = max((float(np.nanmax(np.abs(np.asarray(b[k], np.float64))))
                       for _, b in pairs if np.asarray(b[k]).size), default=0.0)
            atol = max(atol, args.atol_range * rng)
        worst.append(Worst(name, atol))
    for after, before in pairs:
        for w, a, b in zip(worst, after, before):
            w.add(np.asarray(a), np.asarray(b), args.rtol, args.exact, args.shapes_only)
    atol_text = (f"atol=max({args.atol:g}, {args.atol_range:g} * max|before|)"
                 if args.atol_range else f"atol={args.atol:g}")
    if args.exact:
        atol_text = "exact (bitwise)"
    elif args.shapes_only:
        atol_text = "shapes and dtypes only (values are expected to change)"
    print(f"{title}: {len(names)} output(s), {len(pairs)} run(s), "
          + (atol_text if args.exact or args.shapes_only else f"rtol={args.rtol:g} {atol_text}"))
    for w in worst:
        print(w.line())
    return sum(not w.ok for w in worst)


def count_ops(text, op):
    """Number of `onnx.OP` operations in printed IR (custom or generic form)."""
    return len(re.findall(r'(?:^|[\s=])"?onnx\.' + re.escape(op) + r'(?![\w.])', text, re.M))


def check_ops(args, passes, work):
    """Print one line per --expect-absent and --expect-fewer op; return the
    number of those checks that failed."""
    before = run_tool(args, ["--emit=mlir", "-o", str(work / "before.mlir")],
                      "import").returncode
    after = run_tool(args, [*passes, "--emit=mlir", "-o", str(work / "after.mlir")],
                     "running the passes").returncode
    assert before == after == 0
    text_b, text_a = (work / "before.mlir").read_text(), (work / "after.mlir").read_text()
    failed = 0
    for op in args.expect_absent:
        nb, na = count_ops(text_b, op), count_ops(text_a, op)
        note = "  (note: none before the passes either, so this proves nothing)" \
            if nb == 0 else ""
        print(f"expect-absent onnx.{op}: {nb} before, {na} after the passes  "
              f"{'OK' if na == 0 else 'MISMATCH'}{note}")
        failed += na != 0
    for op in args.expect_fewer:
        nb, na = count_ops(text_b, op), count_ops(text_a, op)
        print(f"expect-fewer onnx.{op}: {nb} before, {na} after the passes  "
              f"{'OK' if na < nb else 'MISMATCH'}")
        failed += na >= nb
    return failed


def ort_outputs(path, sig, runs):
    from ort_compare import make_session
    sess = make_session(path)
    names = [i.name for i in sess.get_inputs()]
    if len(names) != len(sig):
        raise CheckError(f"{path.name}: ONNX Runtime sees {len(names)} inputs, "
                         f"expected {len(sig)}")
    return [o.name for o in sess.get_outputs()], [
        sess.run(None, dict(zip(names, arrays))) for arrays in runs]


# ----------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------

def check(args, passes, work):
    failed = 0
    if args.expect_absent or args.expect_fewer:
        failed += check_ops(args, passes, work)

    sig = None
    if not args.ort_only:
        exe_b, header_b = compile_and_link(args, [], ENTRIES[0], work)
        exe_a, header_a = compile_and_link(args, passes, ENTRIES[1], work)
        sig, outs_b = header_signature(header_b)
        sig_a, outs_a = header_signature(header_a)
        if [(d, s) for _, d, s in sig] != [(d, s) for _, d, s in sig_a]:
            raise CheckError(f"the passes changed the inputs: {sig} -> {sig_a}")
        if [(d, s) for _, d, s in outs_b] != [(d, s) for _, d, s in outs_a]:
            print(f"note: the passes changed the outputs: {outs_b} -> {outs_a}")
    else:
        sig = onnx_signature(args.model)

    desc, runs = build_runs(args, sig)
    print(f"inputs: {desc}")
    if not args.ort_only:
        pairs = []
        for k, arrays in enumerate(runs):
            files = []
            for i, x in enumerate(arrays):
                files.append(work / f"run{k}_input_{i}.npy")
                np.save(files[-1], x)
            before = run_native(exe_b, files, work / f"run{k}_before")
            after = run_native(exe_a, files, work / f"run{k}_after")
            pairs.append((after, before))
        failed += compare_runs("native, after vs before the passes",
                               [n for n, _, _ in outs_b], pairs, args)

    if args.ort or args.ort_only:
        exported = work / "after.onnx"
        run_tool(args, [*passes, "--emit=onnx", "-o", str(exported)], "--emit=onnx")
        names, before = ort_outputs(Path(args.model), sig, runs)
        _, after = ort_outputs(exported, sig, runs)
        failed += compare_runs("ONNX Runtime, exported after vs original model",
                               names, list(zip(after, before)), args)
    return failed


def main():
    ap = argparse.ArgumentParser(
        description="Compile a model before and after graph passes and compare outputs.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("model", type=Path, help="the ONNX model (or anything the tool reads)")
    ap.add_argument("--tool", required=True, type=Path, help="onnx-quant-opt binary")
    ap.add_argument("--runner", type=Path, help="runner.c (needed unless --ort-only)")
    ap.add_argument("--passes", required=True, metavar="FLAGS",
                    help="the pass flags, one string (write --passes=--onnx-...)")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--inputs", nargs="+", metavar="FILE", help=".npy/.pb per model input")
    src.add_argument("--zoo-images", type=int, default=0, metavar="N",
                     help="N preprocessed zoo images (MODEL must be a zoo model)")
    src.add_argument("--random", type=int, default=3, metavar="N",
                     help="N seeded random input sets (default 3)")
    ap.add_argument("--seed", type=int, default=0, help="seed for --random (0)")
    ap.add_argument("--zoo", type=Path, default=None,
                    help="zoo folder for --zoo-images ($ONNX_QUANT_ZOO or <repo>/../shared/zoo)")
    ap.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance (1e-5)")
    ap.add_argument("--atol", type=float, default=1e-6, help="absolute tolerance (1e-6)")
    ap.add_argument("--exact", action="store_true",
                    help="require bitwise-identical outputs instead of tolerances")
    ap.add_argument("--shapes-only", action="store_true",
                    help="passes that change values (pruning): check only that both "
                         "versions compile and run with outputs of the same shapes "
                         "and dtypes; differences are printed, not judged")
    ap.add_argument("--atol-range", type=float, default=0.0, metavar="K",
                    help="per output, atol = max(--atol, K * max|before| over the runs)")
    ap.add_argument("--expect-absent", action="append", default=[], metavar="OP",
                    help="fail if onnx.OP remains after the passes (repeatable)")
    ap.add_argument("--expect-fewer", action="append", default=[], metavar="OP",
                    help="fail unless the passes leave fewer onnx.OP ops (repeatable)")
    ap.add_argument("--ort", action="store_true",
                    help="also compare the --emit=onnx export with MODEL in ONNX Runtime")
    ap.add_argument("--ort-only", action="store_true",
                    help="only the ONNX Runtime comparison (no native code)")
    ap.add_argument("--tool-arg", dest="tool_args", action="append", default=[],
                    metavar="ARG", help="extra onnx-quant-opt argument (repeatable)")
    ap.add_argument("--cc", default="cc", help="C compiler for the runner (cc)")
    ap.add_argument("--mem-limit", type=int, default=4096, metavar="MB",
                    help="address-space cap of the compiler (4096; 0: none)")
    ap.add_argument("--keep", type=Path, metavar="DIR",
                    help="keep objects, runners, inputs and outputs in DIR")
    args = ap.parse_args()

    try:
        passes = shlex.split(args.passes)
    except ValueError as e:
        print(f"error: --passes: {e}", file=sys.stderr)
        return 2
    problems = [f"{what} not found: {f}" for f, what in (
        (args.tool, "--tool"), (args.model, "model")) if not f.is_file()]
    if not args.ort_only:
        if not args.runner or not args.runner.is_file():
            problems.append(f"--runner not found: {args.runner} (needed unless --ort-only)")
        if shutil.which(args.cc) is None:
            problems.append(f"C compiler not found: {args.cc}")
    if args.random < 1:
        problems.append("--random must be at least 1")
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        return 2
    args.tool = args.tool.resolve()
    args.runner = args.runner.resolve() if args.runner else None

    print(f"pass_check: {args.model.name} with {shlex.join(passes) or '(no passes)'}")
    try:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            failed = check(args, passes, args.keep.resolve())
        else:
            with tempfile.TemporaryDirectory(prefix="onnxq-pass-check-") as tmp:
                failed = check(args, passes, Path(tmp))
    except (CheckError, UsageError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("PASS" if not failed else f"FAIL: {failed} check(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
