"""Compare our native code with ONNX Runtime on QDQ models (a module, not a script).

Used by the QDQ lit tests (test/Integration/qdq-*.test) and bench/accuracy.py.
Needs numpy and onnx (any version >= 1.12); ONNX Runtime only for `ort_run`.

`output_step(model)` -> (scale, dq_name, path): the quantization step of the
    model's first output: the scale of the DequantizeLinear that produces it,
    or, when float ops follow that DequantizeLinear (Softmax, Reshape, Flatten,
    Identity, Dropout: ops whose output moves by at most as much as their input
    in max norm; Softmax's Jacobian has infinity norm max_i 2 p_i (1 - p_i) <= 1/2),
    the scale of the last DequantizeLinear before them; `path` lists the ops
    walked through. A per-channel output scale gives its smallest value.
    (None, '', []) when the output is not reached from a DequantizeLinear that way.
`build_runner(tool, src, passes, work, entry, runner, cc)` compiles with
    `TOOL src PASSES --emit=obj` and links the generic runner; returns the path;
    RuntimeError("compile failed: <first error: line>") when the tool fails.
`run_native(exe, x, work)` runs it on one input array; returns output 0.
`ort_run(model, xs, optimize=True)` output 0 of ONNX Runtime (CPU, 1 thread)
    for each input. With its default graph optimizations ORT fuses QDQ groups
    into int8 kernels (QLinearConv, ...) that requantize in their own way;
    optimize=False (ORT_DISABLE_ALL) runs every DequantizeLinear, float op and
    QuantizeLinear as written: the literal QDQ semantics.
`check_float_model(tool, path, passes, shape, work, entry, runner, rng, rtol,
    atol, inputs=2)` -> (ok, output shape, worst |diff|, worst rel): compiles a
    float model, runs it and ONNX Runtime on `inputs` seeded normal inputs of
    `shape` and compares output 0 within rtol/atol (build or run failures
    raise RuntimeError or CalledProcessError).
`agreement(ours, ref, step)` -> dict(n, within, exact, max_steps): the
    fraction of elements with |ours - ref| <= step (plus a relative slack of
    1e-6 for float rounding of the comparison itself), the fraction bitwise
    equal, and the largest difference in steps.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np

PASS_THROUGH = {"Softmax", "Reshape", "Flatten", "Identity", "Dropout", "Squeeze",
                "Unsqueeze", "Transpose"}


def default_model(tool, utils, work):
    """(digits_cnn.onnx, its held-out images): the default model in <build>/models
    (scripts/setup.sh writes it; <build> = the tool's ../..), or made in
    WORK/default-model with make_default_model.py when it is missing."""
    models = Path(tool).resolve().parent.parent / "models"
    if not (models / "digits_cnn.onnx").exists():
        models = Path(work) / "default-model"
        subprocess.run([sys.executable, str(Path(utils) / "make_default_model.py"),
                        "--out-dir", str(models)], check=True, stdout=subprocess.DEVNULL)
    return models / "digits_cnn.onnx", np.load(models / "digits_test_images.npy")


def output_step(model_path):
    import onnx
    from onnx import numpy_helper
    m = onnx.load(str(model_path))
    inits = {i.name: i for i in m.graph.initializer}
    consts = {}
    for n in m.graph.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    consts[n.output[0]] = a.t
    producer = {o: n for n in m.graph.node for o in n.output}
    name, path = m.graph.output[0].name, []
    while name in producer:
        n = producer[name]
        if n.op_type == "DequantizeLinear":
            t = inits.get(n.input[1]) or consts.get(n.input[1])
            if t is None:
                return None, "", path
            return float(np.min(numpy_helper.to_array(t))), n.name or n.output[0], path
        if n.op_type not in PASS_THROUGH:
            return None, "", path + [n.op_type]
        path.append(n.op_type)
        name = n.input[0]
    return None, "", path


def diagnostic(text):
    """The first `error:` line of a tool's stderr, else its first line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return next((ln for ln in lines if "error:" in ln), lines[0] if lines else "")


def build_runner(tool, src, passes, work, entry, runner, cc="cc"):
    work = Path(work)
    obj = work / f"{entry}.o"
    p = subprocess.run([str(tool), str(src), *passes, "--emit=obj", f"--entry={entry}",
                        "-o", str(obj)], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"compile failed: {diagnostic(p.stderr)}")
    exe = work / f"run-{entry}"
    subprocess.run([cc, "-std=c99", "-O2", f"-DONNXQ_MODEL={entry}", "-include",
                    str(work / f"{entry}.h"), str(runner), str(obj), "-o", str(exe),
                    "-lm"], check=True)
    return exe


def run_native(exe, x, work):
    work = Path(work)
    inp, outdir = work / "native_in.npy", work / "native_out"
    outdir.mkdir(exist_ok=True)
    out = outdir / "output_0.npy"
    if out.exists():
        out.unlink()
    np.save(inp, x)
    p = subprocess.run([str(exe), "--inputs", str(inp), "--outputs-dir", str(outdir)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{exe}: exit {p.returncode}: {p.stderr.strip()}")
    return np.load(out)


def check_float_model(tool, path, passes, shape, work, entry, runner, rng, rtol, atol,
                      inputs=2):
    from tensors import compare
    exe = build_runner(tool, path, passes, work, entry, runner)
    xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(inputs)]
    ours = [run_native(exe, x, work) for x in xs]
    ref = ort_run(path, xs)
    ok, worst_abs, worst_rel = True, 0.0, 0.0
    for a, b in zip(ours, ref):
        good, d, r = (compare(a, b, False, rtol, atol) if a.shape == b.shape
                      else (False, np.inf, np.inf))
        ok &= good
        worst_abs, worst_rel = max(worst_abs, d), max(worst_rel, r)
    return ok, tuple(ours[0].shape), worst_abs, worst_rel


def ort_run(model_path, xs, optimize=True):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    if not optimize:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    return [sess.run(None, {name: x})[0] for x in xs]


def agreement(ours, ref, step):
    a = np.concatenate([np.asarray(o, np.float64).reshape(-1) for o in ours])
    b = np.concatenate([np.asarray(r, np.float64).reshape(-1) for r in ref])
    d = np.abs(a - b)
    return {"n": int(a.size),
            "within": float(np.mean(d <= step * (1 + 1e-6))),
            "exact": float(np.mean(a == b)),
            "max_steps": float(d.max() / step) if a.size else 0.0}
