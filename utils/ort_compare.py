#!/usr/bin/env python3
"""Run two ONNX models in ONNX Runtime on the same inputs and compare their outputs.

Used to check the `--emit=onnx` round trip: A is the original model, B what
onnx-quant-opt wrote back. Both run on the CPU provider with 1 thread. Inputs
and outputs are matched by position (names may differ); shapes and element types
must agree.

Inputs (--inputs, in model input order):
  * `.npy` files or ONNX TensorProto `.pb` files, one per model input;
  * a directory holding `input_<i>.pb` (an ONNX test-data folder) or `.npy`
    files (named `<input name>.npy`, else taken in sorted order).
  An array whose shape is the model's with a leading dimension N instead of a
  static 1 is split into N samples, each run and compared separately (e.g. the
  [N,1,8,8] digits_test_images.npy against a [1,1,8,8] model).
Without --inputs, seeded random inputs of the right shapes and element types are
used (dynamic dimensions become 1); --samples runs several of them.

Comparison: --exact requires bitwise-identical outputs; otherwise an element
passes when |a - b| <= atol + rtol * |b| (NaN must match NaN). The worst
absolute and relative difference of each output is printed.
Exit status: 0 all outputs match, 1 mismatch, 2 bad usage or a model/input error.

Run:  .venv/bin/python utils/ort_compare.py A.onnx B.onnx [--inputs DIR_or_FILE...]
          [--exact | --rtol R --atol A] [--seed S] [--samples K]
"""

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

from tensors import UsageError, compare, load_tensor_file, random_input, split_samples

# ONNX Runtime type strings -> numpy dtypes (the types a random input can be made for).
ORT_TYPES = {
    "tensor(float)": np.float32, "tensor(double)": np.float64,
    "tensor(float16)": np.float16, "tensor(bool)": np.bool_,
    "tensor(int8)": np.int8, "tensor(uint8)": np.uint8,
    "tensor(int16)": np.int16, "tensor(uint16)": np.uint16,
    "tensor(int32)": np.int32, "tensor(uint32)": np.uint32,
    "tensor(int64)": np.int64, "tensor(uint64)": np.uint64,
}


def make_session(path):
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as e:  # ORT raises several exception types
        raise UsageError(f"{path}: ONNX Runtime cannot load the model: {e}") from e


def static_shape(node_arg):
    """Shape with dynamic dimensions replaced by 1."""
    return tuple(d if isinstance(d, int) and d >= 0 else 1 for d in node_arg.shape)


def input_signature(sess):
    sig = []
    for i in sess.get_inputs():
        if i.type not in ORT_TYPES:
            raise UsageError(f"input '{i.name}' has unsupported type {i.type}")
        sig.append((i.name, np.dtype(ORT_TYPES[i.type]), static_shape(i), i.shape))
    return sig


def expand_input_paths(paths, input_names):
    """Turn the --inputs arguments into one file per model input, in input order."""
    files = []
    for p in map(Path, paths):
        if p.is_dir():
            pbs = sorted(p.glob("input_*.pb"),
                         key=lambda f: int(re.search(r"(\d+)", f.stem).group(1)))
            npys = {f.stem: f for f in p.glob("*.npy")}
            if pbs:
                files += pbs
            elif npys and set(input_names) <= set(npys):
                files += [npys[n] for n in input_names]
            elif npys:
                files += [npys[k] for k in sorted(npys)]
            else:
                raise UsageError(f"{p}: no input_*.pb or .npy files")
        elif p.exists():
            files.append(p)
        else:
            raise UsageError(f"{p}: no such file or directory")
    if len(files) != len(input_names):
        raise UsageError(f"the models take {len(input_names)} input(s) "
                         f"but {len(files)} file(s) were given: {[str(f) for f in files]}")
    return files


def build_feeds(args, sigs):
    """List of runs; each run is a list of arrays in model input order."""
    if args.inputs:
        files = expand_input_paths(args.inputs, [s[0] for s in sigs])
        per_input = [split_samples(load_tensor_file(f), s) for f, s in zip(files, sigs)]
        counts = {len(v) for v in per_input if len(v) > 1}
        if len(counts) > 1:
            raise UsageError(f"inputs split into different sample counts: {sorted(counts)}")
        n = counts.pop() if counts else 1
        return [[v[i] if len(v) > 1 else v[0] for v in per_input] for i in range(n)]
    rng = np.random.default_rng(args.seed)
    return [[random_input(rng, dtype, shape) for _, dtype, shape, _ in sigs]
            for _ in range(args.samples)]


def main():
    ap = argparse.ArgumentParser(
        description="Compare two ONNX models' outputs under ONNX Runtime.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("model_a", type=Path)
    ap.add_argument("model_b", type=Path)
    ap.add_argument("--inputs", nargs="+", metavar="DIR_OR_FILE",
                    help=".npy/.pb files or folders (see above); default: random")
    ap.add_argument("--exact", action="store_true", help="require bitwise-equal outputs")
    ap.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance (1e-5)")
    ap.add_argument("--atol", type=float, default=1e-6, help="absolute tolerance (1e-6)")
    ap.add_argument("--seed", type=int, default=0, help="seed for random inputs (0)")
    ap.add_argument("--samples", type=int, default=1, help="random input sets to run (1)")
    args = ap.parse_args()

    try:
        sess_a, sess_b = make_session(args.model_a), make_session(args.model_b)
        sig_a, sig_b = input_signature(sess_a), input_signature(sess_b)
        if [(d, s) for _, d, s, _ in sig_a] != [(d, s) for _, d, s, _ in sig_b]:
            raise UsageError(f"input signatures differ:\n  A: {sig_a}\n  B: {sig_b}")
        outs_a, outs_b = sess_a.get_outputs(), sess_b.get_outputs()
        if len(outs_a) != len(outs_b):
            raise UsageError(f"A has {len(outs_a)} outputs, B has {len(outs_b)}")
        runs = build_feeds(args, sig_a)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    names = [f"{oa.name}" + ("" if oa.name == ob.name else f" / {ob.name}")
             for oa, ob in zip(outs_a, outs_b)]
    worst = [[True, 0.0, 0.0, ""] for _ in names]  # ok, abs, rel, note per output
    for arrays in runs:
        res_a = sess_a.run(None, {s[0]: x for s, x in zip(sig_a, arrays)})
        res_b = sess_b.run(None, {s[0]: x for s, x in zip(sig_b, arrays)})
        for k, (a, b) in enumerate(zip(res_a, res_b)):
            a, b = np.asarray(a), np.asarray(b)
            if a.shape != b.shape or a.dtype != b.dtype:
                worst[k][0] = False
                worst[k][3] = f"A {a.dtype}{list(a.shape)} vs B {b.dtype}{list(b.shape)}"
                continue
            ok, d_abs, d_rel = compare(a, b, args.exact, args.rtol, args.atol)
            w = worst[k]
            w[0], w[1], w[2] = w[0] and ok, max(w[1], d_abs), max(w[2], d_rel)
            w[3] = w[3] or f"{a.dtype}{list(a.shape)}"

    mode = "exact" if args.exact else f"rtol={args.rtol:g} atol={args.atol:g}"
    print(f"compared {len(names)} output(s) over {len(runs)} run(s), {mode}")
    for k, (ok, d_abs, d_rel, note) in enumerate(worst):
        print(f"  [{k}] {names[k]:<24} {note:<20} max_abs={d_abs:.3g} max_rel={d_rel:.3g}"
              f"  {'OK' if ok else 'MISMATCH'}")
    failed = sum(not w[0] for w in worst)
    print("PASS" if not failed else f"FAIL: {failed} output(s) differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
