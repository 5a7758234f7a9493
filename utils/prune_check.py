#!/usr/bin/env python3
"""Check --onnx-prune's written model against its report and its options.

  prune_check.py --tool onnx-quant-opt MODEL.onnx --prune='mode=... ...'
                 [--identical] [--random N] [--keep DIR]

Runs `TOOL MODEL --onnx-prune="PRUNE quiet=true report=DIR/r.json" --emit=onnx
-o DIR/pruned.onnx`, loads the original and the written model with the onnx
package and checks, for the weight (input 1, an initializer) of every Conv,
ConvTranspose, Gemm and MatMul node, matched in node order (and by the
initializer's name; the importer names unnamed nodes, and the report uses those
names):

  * the zeros counted in the written model equal the report's `zeros_after`
    exactly, per layer and in total, and the zeros of the original equal its
    `zeros_before` (the report has one row per such weight, in the same order);
  * every element is either bit-identical to the original or zero, and a
    layer the report leaves alone (`skipped`: excluded, below min-elements)
    is bit-identical;
  * the zeros are the ones the options ask for:
      mode=absolute threshold=T   exactly the elements with |w| < T (and the
                                  zeros already there);
      mode=relative threshold=T   exactly |w| < float32(T * max|w|) per tensor;
      mode=sparsity scope=layer   zeros == max(zeros before, floor(S * n)) per
                                  pruned layer, so |zeros - S * n| < 1 (within
                                  one element) unless the original had more,
                                  and no zeroed element is larger in magnitude
                                  than a kept one;
      mode=sparsity scope=global  the same over all pruned layers together;
  * every other initializer (biases, BatchNormalization parameters, ...) is
    bit-identical to the original's of the same name (or, for one the exporter
    adds, such as the shape of an old Softmax's Reshape, to the model written
    without the pass).

--identical (for settings that remove nothing: threshold=0, sparsity=0)
instead requires every initializer of the written model to be bit-identical to
the original one of the same name, and zeros_after == zeros_before in every
report row. Prints one line per weight (node, op, elements, zeros before,
zeros in the written model, the report's figure, the target for
mode=sparsity).

With `structured=channels` in PRUNE the checks are instead:

  * the written model passes onnx.checker and strict shape inference;
  * every weight has the report's shape before and after;
  * the multiply-accumulates per inference of each Conv/Gemm/MatMul, counted on
    the original and the written model (shapes from ONNX shape inference,
    symbolic dimensions 1), are the report's macs_before and macs_after, per
    layer and in total;
  * in ONNX Runtime (needs onnxruntime), on --random N (3) seeded random
    inputs, the written model computes what the original computes with the
    removed channels zeroed (the report's JSON lists the kept ones): their
    filters and bias entries, and downstream through Relu, pooling, Add/Sub/
    Mul, the BatchNormalization scale and B and the per-channel Add/Sub
    constants at those channels, are zero; within rtol 1e-5, atol 1e-6 *
    max|output|. The difference to the unpruned original is printed too.
    (A removed channel that reaches an op not mapping 0 to 0, e.g. a Sigmoid,
    makes this comparison fail although the pass is right.)

Ends with `PASS` or `FAIL: N check(s) failed`. Exit status 0 pass, 1 a check
failed, 2 an error (the tool failed, bad usage).
"""

import argparse
import json
import math
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

WEIGHT_OPS = ("Conv", "ConvTranspose", "Gemm", "MatMul")


def parse_options(text):
    """The --onnx-prune option string as a dict (defaults of the pass)."""
    opts = {"mode": "relative", "threshold": "0", "sparsity": "0", "scope": "layer"}
    for word in shlex.split(text):
        key, _, value = word.partition("=")
        opts[key] = value
    return opts


def prunable_weights(model):
    """[(node name, initializer name, weight array)] of the prunable nodes, in
    node order (unnamed nodes of the original get their names on import)."""
    inits = {t.name: t for t in model.graph.initializer}
    return [(node.name, node.input[1], numpy_helper.to_array(inits[node.input[1]]))
            for node in model.graph.node
            if node.op_type in WEIGHT_OPS and len(node.input) > 1 and node.input[1] in inits]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("model", type=Path)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--prune", required=True, help="the --onnx-prune option string")
    ap.add_argument("--identical", action="store_true",
                    help="the settings remove nothing: every initializer bit-identical")
    ap.add_argument("--keep", type=Path, help="write pruned.onnx and r.json here")
    ap.add_argument("--random", type=int, default=3,
                    help="structured: random input sets for ONNX Runtime (3)")
    args = ap.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        return check_pruning(args, args.keep)
    with tempfile.TemporaryDirectory(prefix="onnxq-prune-check-") as work:
        return check_pruning(args, Path(work))


def check_pruning(args, work):
    report_path, pruned_path = work / "r.json", work / "pruned.onnx"
    # The model written without the pass: initializers the exporter adds (a
    # Reshape's shape for an old Softmax) are compared with it.
    for cmd in ([args.tool, str(args.model), "--emit=onnx", "-o", str(work / "plain.onnx")],
                [args.tool, str(args.model),
                 f"--onnx-prune={args.prune} quiet=true report={report_path}",
                 "--emit=onnx", "-o", str(pruned_path)]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"error: {shlex.join(cmd)} failed:\n{p.stderr}", file=sys.stderr)
            return 2

    original = onnx.load(str(args.model))
    plain = onnx.load(str(work / "plain.onnx"))
    pruned = onnx.load(str(pruned_path))
    report = json.loads(report_path.read_text())
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
        return ok

    before, after = prunable_weights(original), prunable_weights(pruned)
    print(f"prune_check: {args.model.name} with --onnx-prune=\"{args.prune}\"")
    check([r["node"] for r in report["layers"]] == [w[0] for w in after],
          f"report rows {[r['node'] for r in report['layers']]} != weights of the "
          f"written model {[w[0] for w in after]}")
    check([w[1] for w in before] == [w[1] for w in after],
          f"weight initializers {[w[1] for w in after]} != those of the original "
          f"{[w[1] for w in before]}")
    if parse_options(args.prune).get("structured", "none") == "channels":
        check_structured(args, original, pruned, report, check)
    else:
        check_magnitude(args, original, plain, pruned, report, check)
    for f in failures:
        print(f"MISMATCH: {f}")
    print("PASS" if not failures else f"FAIL: {len(failures)} check(s) failed")
    return 1 if failures else 0


def check_magnitude(args, original, plain, pruned, report, check):
    opts = parse_options(args.prune)
    mode, scope = opts["mode"], opts["scope"]
    sparsity, threshold = float(opts["sparsity"]), float(opts["threshold"])
    before, after = prunable_weights(original), prunable_weights(pruned)
    rows = report["layers"]

    # Every other initializer (and with --identical, every one): bit-identical
    # to the original's of that name (else to the one written without the pass).
    weight_names = {w[1] for w in before}
    orig_inits = {t.name: numpy_helper.to_array(t) for t in plain.graph.initializer}
    orig_inits.update((t.name, numpy_helper.to_array(t)) for t in original.graph.initializer)
    new_inits = {t.name: numpy_helper.to_array(t) for t in pruned.graph.initializer}
    others = 0
    for name, value in new_inits.items():
        if args.identical or name not in weight_names:
            others += 1
            check(name in orig_inits and same_bits(orig_inits[name], value),
                  f"initializer {name} differs from the original")

    pruned_rows = []  # (row, original, written) of the layers in scope
    total_zeros = total_report = 0
    print(f"{'node':24} {'op':8} {'elements':>9} {'zeros':>9} {'written':>9} "
          f"{'report':>9} {'target':>10}")
    for row, (_, _, w0), (_, _, w1) in zip(rows, before, after):
        node = row["node"]
        n = w1.size
        z0, z1 = int(np.count_nonzero(w0 == 0)), int(np.count_nonzero(w1 == 0))
        total_zeros += z1
        total_report += row["zeros_after"]
        target = ""
        if not row.get("skipped") and mode == "sparsity" and scope == "layer":
            target = f"{sparsity * n:.1f}"
        print(f"{node:24} {row['op']:8} {n:9d} {z0:9d} {z1:9d} {row['zeros_after']:9d} "
              f"{target:>10}" + (f"  (left alone: {row['skipped']})" if row.get("skipped") else ""))
        check(w0.shape == w1.shape and w0.dtype == w1.dtype,
              f"{node}: shape or type changed")
        check(row["elements"] == n, f"{node}: report elements {row['elements']} != {n}")
        check(row["zeros_before"] == z0, f"{node}: report zeros_before {row['zeros_before']} "
              f"!= {z0} zeros in the original")
        check(row["zeros_after"] == z1, f"{node}: report zeros_after {row['zeros_after']} "
              f"!= {z1} zeros in the written model")
        check(abs(row["sparsity_after"] - 100.0 * z1 / n) < 1e-9,
              f"{node}: report sparsity {row['sparsity_after']}% != {100.0 * z1 / n}%")
        if args.identical or row.get("skipped"):
            check(same_bits(w0, w1), f"{node}: weights not bit-identical")
            continue
        a0, a1 = w0.astype(np.float32), w1.astype(np.float32)
        zeroed = (a1 == 0) & (a0 != 0)
        check(bool(np.all((a1 == 0) | (a1 == a0))) and same_bits(
            np.where(zeroed, np.zeros_like(w0), w0), w1),
            f"{node}: an element is neither unchanged nor zero")
        mag = np.abs(a0)
        if mode in ("absolute", "relative"):
            cut = np.float32(threshold)
            if mode == "relative":
                cut = np.float32(np.float64(threshold) * np.float64(mag.max()))
            want = (mag < cut) | (a0 == 0)
            check(bool(np.array_equal(a1 == 0, want)),
                  f"{node}: zeros are not exactly the elements with |w| < {cut}")
        else:
            pruned_rows.append((row, a0, a1))
            if scope == "layer":
                want = max(z0, math.floor(sparsity * n))
                check(z1 == want, f"{node}: {z1} zeros, want max({z0}, floor({sparsity} * {n}))")
                check(z0 > sparsity * n or abs(z1 - sparsity * n) < 1,
                      f"{node}: sparsity {z1}/{n} not within one element of {sparsity}")
                if zeroed.any() and (a1 != 0).any():
                    check(mag[zeroed].max() <= mag[a1 != 0].min(),
                          f"{node}: a zeroed weight is larger than a kept one")

    if mode == "sparsity" and scope == "global" and not args.identical and pruned_rows:
        n = sum(r[1].size for r in pruned_rows)
        z0 = sum(int(np.count_nonzero(r[1] == 0)) for r in pruned_rows)
        z1 = sum(int(np.count_nonzero(r[2] == 0)) for r in pruned_rows)
        want = max(z0, math.floor(sparsity * n))
        print(f"pruned layers together: {n} elements, {z1} zeros, target {sparsity * n:.1f}")
        check(z1 == want, f"global: {z1} zeros, want max({z0}, floor({sparsity} * {n}))")
        check(z0 > sparsity * n or abs(z1 - sparsity * n) < 1,
              f"global: sparsity {z1}/{n} not within one element of {sparsity}")
        mags0 = np.concatenate([np.abs(r[1]).ravel() for r in pruned_rows])
        zero0 = np.concatenate([((r[2] == 0) & (r[1] != 0)).ravel() for r in pruned_rows])
        kept = np.concatenate([(r[2] != 0).ravel() for r in pruned_rows])
        if zero0.any() and kept.any():
            check(mags0[zero0].max() <= mags0[kept].min(),
                  "global: a zeroed weight is larger than a kept one")

    total = report["total"]
    compared = "initializer(s)" if args.identical else "other initializer(s)"
    print(f"total: zeros in the written model {total_zeros}, report {total['zeros_after']} "
          f"(sparsity {total['sparsity_after']:.2f}%); {others} {compared} compared bit for bit")
    check(total["zeros_after"] == total_zeros == total_report,
          f"total: report {total['zeros_after']} != {total_zeros} zeros in the written model")


# Ops through which a removed channel that is zero stays zero (channel c of
# the result reads channel c of the input); BatchNormalization and an Add or
# Sub of a per-channel constant too once the constant is zero there.
ZERO_PRESERVING = {"Relu", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
                   "Dropout", "Identity", "Add", "Sub", "Mul", "BatchNormalization"}


def static_shapes(model):
    """{value name: shape} after ONNX shape inference, symbolic dimensions 1."""
    inferred = onnx.shape_inference.infer_shapes(model)
    shapes = {}
    for vi in [*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output]:
        dims = vi.type.tensor_type.shape.dim
        shapes[vi.name] = [d.dim_value if d.HasField("dim_value") else 1 for d in dims]
    for t in inferred.graph.initializer:
        shapes[t.name] = list(t.dims)
    return shapes


def count_macs(model):
    """[MACs per inference] of the prunable nodes, as the pass counts them: a
    Conv's output elements times C/group * kernel; a Gemm's or MatMul's output
    elements times K."""
    shapes = static_shapes(model)
    inits = {t.name for t in model.graph.initializer}
    macs = []
    for node in model.graph.node:
        if node.op_type not in WEIGHT_OPS or len(node.input) < 2 or node.input[1] not in inits:
            continue
        out, w = np.prod(shapes[node.output[0]]), shapes[node.input[1]]
        if node.op_type in ("Conv", "ConvTranspose"):
            macs.append(int(out * np.prod(w[1:])))
        else:
            a = shapes[node.input[0]]
            trans_a = any(at.name == "transA" and at.i for at in node.attribute)
            macs.append(int(out * (a[0] if node.op_type == "Gemm" and trans_a else a[-1])))
    return macs


def mask_removed_channels(model, report):
    """A copy of the original `model` in which the output channels the report
    says were removed compute zeros: the filters and bias entries of each
    pruned producer, and the scale and B of the BatchNormalizations they reach
    through ZERO_PRESERVING ops, and the entries of per-channel constants
    added or subtracted there, are zero. When the pass is right, the pruned
    model computes what this one does (a path through other ops, e.g. a
    Sigmoid, would make the removed channels nonzero: the check then fails)."""
    masked = onnx.ModelProto()
    masked.CopyFrom(model)
    shapes = static_shapes(model)
    inits = {t.name: t for t in masked.graph.initializer}
    users = {}
    for node in masked.graph.node:
        for i, name in enumerate(node.input):
            users.setdefault(name, []).append((node, i))

    def zero(name, axis, channels):
        array = numpy_helper.to_array(inits[name]).copy()
        index = [slice(None)] * array.ndim
        index[axis] = channels
        array[tuple(index)] = 0
        inits[name].CopyFrom(numpy_helper.from_array(array, name))

    # The report's rows are the prunable nodes in order (the original's may be
    # unnamed: the importer names them).
    nodes = [n for n in masked.graph.node if n.op_type in WEIGHT_OPS and len(n.input) > 1
             and n.input[1] in inits]
    done = set()
    for row, node in zip(report["layers"], nodes):
        if "channels_kept" not in row:
            continue
        removed = sorted(set(range(row["channels_before"])) - set(row["channels_kept"]))
        columns = node.op_type == "Gemm" and not any(
            a.name == "transB" and a.i for a in node.attribute)
        zero(node.input[1], 1 if columns else 0, removed)
        if len(node.input) > 2 and node.input[2]:
            bias = numpy_helper.to_array(inits[node.input[2]])
            if bias.size > 1:
                zero(node.input[2], bias.ndim - 1, removed)
        work = [node.output[0]]
        while work:
            value = work.pop()
            for user, i in users.get(value, []):
                binary = user.op_type in ("Add", "Sub", "Mul")
                if user.op_type not in ZERO_PRESERVING or (i > 0 and not binary):
                    continue
                if id(user) not in done:
                    done.add(id(user))
                    if user.op_type == "BatchNormalization":
                        for k in (1, 2):  # scale, B
                            zero(user.input[k], 0, removed)
                    elif user.op_type in ("Add", "Sub"):
                        rank = len(shapes[user.output[0]])
                        for name in user.input:
                            if name in inits:
                                dims = list(inits[name].dims)
                                axis = 1 - (rank - len(dims))
                                if axis >= 0 and dims[axis] == row["channels_before"]:
                                    zero(name, axis, removed)
                work.append(user.output[0])
    return masked


def check_structured(args, original, pruned, report, check):
    """Structured pruning: a valid model whose weights have the report's
    shapes, whose MACs are the report's, and which computes what the original
    computes with the removed channels zeroed."""
    try:
        onnx.checker.check_model(pruned)
        onnx.shape_inference.infer_shapes(pruned, strict_mode=True)
        print("written model: onnx.checker and strict shape inference OK")
    except Exception as e:  # noqa: BLE001 (any checker error fails the check)
        check(False, f"the written model is not valid: {e}")
        return
    rows = report["layers"]
    macs0, macs1 = count_macs(original), count_macs(pruned)
    weights0 = [w[2].shape for w in prunable_weights(original)]
    weights1 = [w[2].shape for w in prunable_weights(pruned)]
    print(f"{'node':24} {'op':6} {'weights':>14} {'written':>14} {'channels':>9} "
          f"{'MACs':>11} {'written':>11} {'report':>11}")
    for row, m0, m1, s0, s1 in zip(rows, macs0, macs1, weights0, weights1):
        shape = lambda text: tuple(int(d) for d in text.split("x"))  # noqa: E731
        print(f"{row['node']:24} {row['op']:6} {row['shape']:>14} "
              f"{'x'.join(map(str, s1)):>14} {row['channels_before']:>4}->"
              f"{row['channels_after']:<4} {m0:11d} {m1:11d} {row['macs_after']:11d}")
        check(shape(row["shape"]) == s0, f"{row['node']}: report shape {row['shape']} != {s0}")
        check(shape(row["shape_after"]) == s1,
              f"{row['node']}: report shape_after {row['shape_after']} != written {s1}")
        check((row["macs_before"], row["macs_after"]) == (m0, m1),
              f"{row['node']}: report MACs {row['macs_before']} -> {row['macs_after']} "
              f"!= {m0} -> {m1} counted on the models")
        if "channels_kept" in row:
            check(len(row["channels_kept"]) == row["channels_after"] < row["channels_before"],
                  f"{row['node']}: {len(row['channels_kept'])} channels kept, "
                  f"report {row['channels_after']} of {row['channels_before']}")
    total = report["total"]
    print(f"total: MACs {sum(macs0)} -> {sum(macs1)} "
          f"({100 * (1 - sum(macs1) / max(1, sum(macs0))):.1f}% fewer) in the written model, "
          f"report {total['macs_before']} -> {total['macs_after']}")
    check((total["macs_before"], total["macs_after"]) == (sum(macs0), sum(macs1)),
          "total MACs differ from the report")

    import onnxruntime as ort
    from tensors import compare, random_input

    def session(model):
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        return ort.InferenceSession(model.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])

    masked, written = session(mask_removed_channels(original, report)), session(pruned)
    reference = session(original)
    rng = np.random.default_rng(0)
    runs = []
    weights = {t.name for t in original.graph.initializer}  # old models list them as inputs
    for _ in range(args.random):
        feed = {}
        for i in masked.get_inputs():
            if i.name in weights:
                continue
            shape = [d if isinstance(d, int) and d > 0 else 1 for d in i.shape]
            dtype = np.float16 if i.type == "tensor(float16)" else np.float32
            feed[i.name] = random_input(rng, np.dtype(dtype), tuple(shape))
        runs.append((masked.run(None, feed), written.run(None, feed), reference.run(None, feed)))
    print(f"ONNX Runtime, {args.random} random input(s): written model vs the original "
          "with the removed channels zeroed (rtol 1e-5, atol 1e-6 * max|output|)")
    for k, out in enumerate(masked.get_outputs()):
        top = max(float(np.abs(r[0][k]).max()) for r in runs)
        ok, worst, changed = True, 0.0, 0.0
        for want, got, ref in runs:
            good, d_abs, _ = compare(got[k], want[k], False, 1e-5, 1e-6 * top)
            ok, worst = ok and good, max(worst, d_abs)
            changed = max(changed, float(np.abs(got[k].astype(np.float64) - ref[k]).max()))
        print(f"  {out.name:24} max_abs={worst:.3g} max|output|={top:.3g}  "
              f"{'OK' if ok else 'MISMATCH'} (vs the unpruned original: max_abs={changed:.3g})")
        check(ok, f"output {out.name} differs from the masked original")


if __name__ == "__main__":
    sys.exit(main())
