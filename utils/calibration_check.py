#!/usr/bin/env python3
"""Check `onnx-quant-opt --onnx-calibrate` independently, against ONNX Runtime and PIL.

Subcommand `ranges` (a model and calibration samples):

  (a) minmax: runs TOOL model --onnx-calibrate="data=D method=minmax save=J",
      then runs ONNX Runtime (CPU, 1 thread) on the same samples with every
      intermediate float tensor added to graph.output, takes the exact min and
      max of each tensor over the samples (finite values only, as ours does)
      and compares tensor by tensor. Tolerance:
          |ours - ORT| <= RTOL * max(|ORT min|, |ORT max|) + ATOL
      with RTOL 1e-5, ATOL 0 (--rtol/--atol): an extreme of a tensor is one
      of its elements, so it inherits the float error of our compiled code
      against ORT (measured: at most 6e-7 of the tensor's magnitude on the
      default model, MNIST, ResNet8 and SqueezeNet); the scale is the tensor's
      magnitude because rounding error in a sum scales with its terms, not
      with the (possibly near-zero) extreme. Any tensor outside it is a FAIL.
      --bound-rtol R also requires |ours - ORT| <= R * |ORT| for each bound
      on its own; the worst such ratio is always reported. It is as small
      except for bounds that are tiny results of exp: a Softmax minimum of
      2e-17 inherits the absolute error of its logits (~1e-5 relative on
      SqueezeNet), while the quantization step it matters for is 1/255.
  (b) histogram methods (entropy, percentile, mse), two references:
      1. the method as docs/calibration.md specifies it, re-implemented here
         in numpy (SpecHistogram, spec_range) and fed ORT's tensors in the
         same sample order: 2048 bins of |x| with exact zeros counted apart,
         width doubling, TensorRT KL with 255 (never-negative) or 127 (signed)
         levels, percentile of |x|, expected squared error; [0, t] or [-t, t].
         Asserted: |ours - reference| <= RTOL * max|x| + ATOL + --spec-bins
         (2) bin widths, because a value within float error of a bin edge may
         fall into the neighbouring bin on one side.
      2. ONNX Runtime's own calibrators (onnxruntime.quantization.calibrate.
         create_calibrator with CalibrationMethod.Entropy / Percentile and a
         CalibrationDataReader over the same samples). Compared per tensor by
         the threshold t = max(|min|, |max|) of each side's range,
             d = |t_ours - t_ORT| / max(t_ours, t_ORT),
         reported as median / 90th percentile / worst. These are different
         histogram implementations:
         * percentile (ORT: symmetric, 2048 bins of |x|): ORT's bins are
           fixed at the max of all samples and it returns the *left* edge of
           the bin holding the percentile, ours the right edge of a bin up to
           2x wider, so t differs by about one or two bin widths: ~0.05-0.1 %
           of max|x|. Asserted: median d < --percentile-bound (1 %): a
           systematic error (a percentile of x instead of |x|, of a wrong
           bin, a histogram that lost samples) moves most tensors by more.
         * entropy (ORT: num_bins 4096 signed = 2048 per side, as ours;
           num_quantized_bins 255 = 127 levels per side): ours fits 255
           levels over [0, t] for never-negative tensors and keeps exact
           zeros out of the histogram (docs/calibration.md), ORT fits 127 per
           side and keeps the zero spike; the KL minimum moves a lot with
           both, so ReLU outputs differ by tens of percent (measured on
           MNIST: median 33 %). Reported only, unless --entropy-bound is
           given; reference 1 is the assertion for entropy.
      ORT's calibrators need onnxruntime.quantization (use .venv-ortq, onnx
      >= 1.14); with Debian's onnx 1.12 the missing pieces it imports but
      calibration does not use (ml_dtypes, onnx.reference, newer TensorProto
      enums) are stubbed.

  Samples: --data DIR with one float32 .npy per sample (shape of the input,
  or the input's shape without leading 1s) or INPUTNAME/*.npy folders for
  several inputs; or --zoo-model KEY --zoo-images N to make N samples from
  the zoo's images with that model's preprocessing (utils/zoo_native_check.py
  ZOO_MODELS entries: mnist, resnet8, squeezenet); or --default-model
  --count N: the default model (<build>/models/digits_cnn.onnx, trained into
  a temporary folder when missing) and its first N held-out images.

  Names: our JSON keys are ONNX node names (an unnamed node is
  `<OpType>_<index in graph.node>`), `NAME:i` for output i of a node with
  several outputs, and graph inputs by name. ORT tensors are mapped to those
  keys through the model's node list; tensors only one side has are listed
  (`ours only` / `ORT only`) and, with --strict-names, fail the check.

Subcommand `images` (our image decoding and preprocessing vs PIL):

  Builds a probe model with input x (--shape, e.g. 1x3x224x224) whose
  calibration ranges reveal the preprocessed tensor: Identity(x) (min/max),
  ReduceMean over H,W split into one output per channel (exact per-channel
  means: with one sample min = max = the value), the global mean, and
  --probes single-element Gathers at seeded random positions plus the four
  corners of every channel (each one pixel's exact value). For each image it
  runs TOOL probe.onnx --onnx-calibrate="data=DIR method=minmax
  preprocess=SPEC save=J" on a folder holding only that image, and computes
  the same values from a PIL/numpy implementation of SPEC: PIL decode to RGB,
  Image.resize(BILINEAR) of the shorter side to `resize` (the other side
  rounded half up), center crop (left = (w - crop) // 2), channel order,
  (pixel * scale - mean[c]) / std[c] with mean/std in the tensor's channel
  order (what ours does; --mean-order rgb: given as R,G,B, as the option's
  help text says, which differs for channels=bgr), layout.
  Tolerance: --pixel-tol pixel levels (default 1) times scale/min(std):
  PIL resamples in 8-bit fixed point (22-bit coefficients) and rounds after
  each pass, ours in double and rounds after each pass, so a pixel can land
  one level apart where a value is within rounding of .5; the per-channel
  means must agree to --mean-tol levels (default 0.05) because such flips
  are rare. A PNG copy of a JPEG (--png-copy DIR) checks the PNG decoder.

Exit status: 0 all checks pass, 1 a check fails, 2 bad usage or a tool error
(the tool's error line is printed).

Run:
  .venv/bin/python utils/calibration_check.py ranges --tool build/bin/onnx-quant-opt \\
      --default-model --count 50          # run ranges with .venv-ortq/bin/python for ORT's calibrators
  .venv/bin/python utils/calibration_check.py ranges --tool build/bin/onnx-quant-opt \\
      --zoo-model mnist --count 50  (or --model M.onnx --data DIR)
  .venv/bin/python utils/calibration_check.py images --tool build/bin/onnx-quant-opt \\
      --shape 1x3x224x224 --preprocess 'resize=256 crop=224 scale=1/255 \\
      mean=0.485,0.456,0.406 std=0.229,0.224,0.225' IMG.JPEG [IMG.png ...]
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tool_check import diagnostic_line  # noqa: E402

RTOL, ATOL = 1e-5, 0.0


# ----------------------------------------------------------------------------
# The documented range methods, re-implemented in numpy (docs/calibration.md)
# ----------------------------------------------------------------------------

HIST_BINS = 2048


class SpecHistogram:
    """Our streamed statistics as documented: exact min/max; exact zeros
    counted apart; the other |x| in 2048 bins whose width starts at
    max|x| / 2048 (x (1 + 1e-6)) on the first sample with a non-zero value and
    doubles (pairs of bins merge) while a sample's max|x| does not fit."""

    def __init__(self):
        self.hist = np.zeros(HIST_BINS, np.int64)
        self.width = 0.0
        self.min = self.max = None
        self.zeros = 0

    def add(self, x):
        x = np.asarray(x, np.float32).ravel()
        x = x[np.isfinite(x)]
        if x.size == 0:
            return
        lo, hi = float(x.min()), float(x.max())
        self.min = lo if self.min is None else min(self.min, lo)
        self.max = hi if self.max is None else max(self.max, hi)
        amax = max(abs(lo), abs(hi))
        if amax > 0:
            if self.width == 0:
                self.width = amax / HIST_BINS * (1 + 1e-6)
            while self.width * HIST_BINS <= amax:
                self.hist = np.concatenate([self.hist.reshape(-1, 2).sum(1),
                                            np.zeros(HIST_BINS // 2, np.int64)])
                self.width *= 2
        nz = x[x != 0]
        self.zeros += x.size - nz.size
        if nz.size:
            b = np.floor(np.abs(nz).astype(np.float64) / self.width).astype(np.int64)
            self.hist += np.bincount(np.minimum(b, HIST_BINS - 1), minlength=HIST_BINS)


def spec_entropy_bins(h, levels):
    """TensorRT's KL calibration: for a threshold of i bins, P = h[:i] with the
    outliers added to bin i-1, Q = h[:i] merged into `levels` bins (bin j =
    [j*i//levels, (j+1)*i//levels)) and spread evenly over its non-empty bins;
    KL(P/|P| || Q/|Q|) over P's non-zero bins (an empty Q bin counts as 1e-9)."""
    nonempty = np.nonzero(h)[0]
    if nonempty.size == 0:
        return 0
    if nonempty[-1] + 1 <= levels:
        return int(nonempty[-1]) + 1
    suffix = np.concatenate([np.cumsum(h[::-1])[::-1], [0]])
    best, best_i = np.inf, len(h)
    hf = h.astype(np.float64)
    for i in range(levels, len(h) + 1):
        p = hf[:i].copy()
        p[-1] += suffix[i]
        edges = (np.arange(levels + 1) * i) // levels
        nz = h[:i] != 0
        sums = np.add.reduceat(hf[:i], edges[:-1])
        counts = np.add.reduceat(nz.astype(np.float64), edges[:-1])
        per = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
        q = np.repeat(per, np.diff(edges)) * nz
        if q.sum() == 0:
            continue
        pn, qn = p / p.sum(), q / q.sum()
        m = pn > 0
        kl = float(np.sum(pn[m] * np.log(pn[m] / np.where(qn[m] > 0, qn[m], 1e-9))))
        if kl < best:
            best, best_i = kl, i
    return best_i


def spec_mse_bins(h, width, levels):
    """argmin over t = i * width of (values below t) * step^2 / 12 + sum over
    the bins from i of h * (center - t)^2, step = t / levels."""
    hf = h.astype(np.float64)
    c = (np.arange(len(h)) + 0.5) * width
    i = np.arange(1, len(h) + 1)
    t = i * width
    suffix = lambda v: np.concatenate([np.cumsum(v[::-1])[::-1], [0.0]])[1:]  # noqa: E731
    err = np.cumsum(hf) * (t / levels) ** 2 / 12 + suffix(hf * c * c) \
        - 2 * t * suffix(hf * c) + t * t * suffix(hf)
    return int(np.argmin(err)) + 1


def spec_range(s, method, percentile=99.999, bits=8):
    """The range docs/calibration.md specifies for statistics s."""
    if s.min is None:
        return (0.0, 0.0)
    if method == "minmax" or s.width == 0:
        return (s.min, s.max)
    nonneg = s.min >= 0
    levels = 2 ** bits - 1 if nonneg else 2 ** (bits - 1) - 1
    if method == "percentile":
        cum = s.zeros + np.cumsum(s.hist)
        target = percentile / 100 * cum[-1]
        t = 0.0 if s.zeros >= target else float(np.argmax(cum >= target) + 1) * s.width
    elif method == "entropy":
        t = spec_entropy_bins(s.hist, levels) * s.width
    else:
        t = spec_mse_bins(s.hist, s.width, levels) * s.width
    t = min(t, max(abs(s.min), abs(s.max)))
    return (0.0, t) if nonneg else (-t, t)


class ToolError(Exception):
    pass


# ----------------------------------------------------------------------------
# Running our calibration
# ----------------------------------------------------------------------------

def run_calibrate(tool, model, options, timeout=1800):
    """Runs TOOL model --onnx-calibrate="OPTIONS save=J quiet=true" and returns
    the JSON's tensors dict; raises ToolError with the tool's error line."""
    with tempfile.TemporaryDirectory(prefix="onnxq-calcheck-") as tmp:
        save = Path(tmp) / "ranges.json"
        cmd = [str(tool), str(model),
               f"--onnx-calibrate={options} save={save} quiet=true",
               "--emit=mlir", "-o", os.devnull]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0 or not save.exists():
            raise ToolError(f"{' '.join(cmd[:3])!s}: exit {p.returncode}: "
                            f"{diagnostic_line(p.stderr)}")
        table = json.loads(save.read_text())
    if table.get("format") != "onnx-quant ranges 1":
        raise ToolError(f"unexpected ranges format {table.get('format')!r}")
    return table["tensors"]


# ----------------------------------------------------------------------------
# Names: ORT tensor names -> our JSON keys
# ----------------------------------------------------------------------------

def tensor_keys(model):
    """{tensor name: our key} for every node output and real graph input.
    Outputs computed from constants only (a Reshape of a weight) are weights,
    not activations: calibration leaves them out, and so does this map."""
    initializers = {t.name for t in model.graph.initializer}
    constant = set(initializers)
    keys = {}
    for inp in model.graph.input:
        if inp.name not in initializers:
            keys[inp.name] = inp.name
    for index, node in enumerate(model.graph.node):
        base = node.name or f"{node.op_type}_{index}"
        outputs = [o for o in node.output]
        if all(i in constant for i in node.input if i):
            constant.update(o for o in outputs if o)
            continue
        for j, out in enumerate(outputs):
            if out:
                keys[out] = base if len(outputs) == 1 else f"{base}:{j}"
    return keys


def lookup(ours, key):
    """Our JSON entry for key (a single-output ONNX node may be a multi-result
    op of ours, keyed `key:0`, and the other way round)."""
    if key in ours:
        return key, ours[key]
    if key + ":0" in ours:
        return key + ":0", ours[key + ":0"]
    # A node with several ONNX outputs of which ours keeps one (Dropout
    # without its mask) is a single-result op of ours, keyed `node`.
    if key.endswith(":0") and key[:-2] in ours:
        return key[:-2], ours[key[:-2]]
    return None, None


# ----------------------------------------------------------------------------
# Samples
# ----------------------------------------------------------------------------

def ort_session(model_bytes):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])


def input_specs(model):
    initializers = {t.name for t in model.graph.initializer}
    specs = []
    for inp in model.graph.input:
        if inp.name in initializers:
            continue
        dims = [d.dim_value if d.HasField("dim_value") else 1
                for d in inp.type.tensor_type.shape.dim]
        specs.append((inp.name, dims))
    return specs


def load_samples(data_dir, specs):
    """[{input name: array}] from DIR/*.npy (one input) or DIR/NAME/*.npy."""
    data_dir = Path(data_dir)
    if len(specs) == 1 and sorted(data_dir.glob("*.npy")):
        columns = {specs[0][0]: sorted(data_dir.glob("*.npy"))}
    else:
        columns = {name: sorted((data_dir / name).glob("*.npy")) for name, _ in specs}
    counts = {len(v) for v in columns.values()}
    if len(counts) != 1 or 0 in counts:
        raise ToolError(f"{data_dir}: expected *.npy files (one input) or "
                        f"INPUTNAME/*.npy folders for {[n for n, _ in specs]}")
    samples = []
    for k in range(counts.pop()):
        feed = {}
        for name, dims in specs:
            x = np.load(columns[name][k])
            feed[name] = np.ascontiguousarray(x.reshape(dims))
        samples.append(feed)
    return samples


def zoo_samples(key, n, out_dir, zoo=None):
    """Writes n preprocessed zoo images for model `key` as DIR/sNNNN.npy and
    returns the model path."""
    import zoo_native_check as znc
    zoo = Path(zoo) if zoo else znc.default_zoo()
    models = {m.entry: m for m in znc.ZOO_MODELS}
    if key not in models:
        raise ToolError(f"--zoo-model {key}: known: {', '.join(models)}")
    model = models[key]
    for k, (_, x) in enumerate(znc.preprocess(model, zoo, n)):
        np.save(Path(out_dir) / f"s{k:04d}.npy", x)
    return zoo / model.path


def default_model_samples(tool, n, out_dir, tmp):
    """The default model (<build>/models/digits_cnn.onnx, <build> = the tool's
    bin/..; trained into TMP with utils/make_default_model.py when missing) and
    its first n held-out images as DIR/sNNNN.npy."""
    models = Path(tool).resolve().parent.parent / "models"
    if not (models / "digits_cnn.onnx").exists():
        models = Path(tmp) / "default-model"
        subprocess.run([sys.executable, str(Path(__file__).resolve().parent /
                                            "make_default_model.py"),
                        "--out-dir", str(models)], check=True, stdout=subprocess.DEVNULL)
    images = np.load(models / "digits_test_images.npy").astype(np.float32)
    for k, x in enumerate(images[:n]):
        np.save(Path(out_dir) / f"s{k:04d}.npy", x[None])
    return models / "digits_cnn.onnx"


# ----------------------------------------------------------------------------
# (a) exact min/max in ORT
# ----------------------------------------------------------------------------

def float_tensor_types(model):
    """{tensor name: elem_type} for every tensor whose type shape inference knows."""
    import onnx
    inferred = onnx.shape_inference.infer_shapes(model)
    types_ = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output) + \
            list(inferred.graph.input):
        if vi.type.HasField("tensor_type"):
            types_[vi.name] = vi.type.tensor_type.elem_type
    return types_


def ort_statistics(model, samples):
    """{our key: SpecHistogram} over the samples (in order, one ORT run per
    sample) for every float tensor: ORT runs the model with every float node
    output added to graph.output."""
    import onnx
    from onnx import TensorProto, helper
    elem = float_tensor_types(model)
    keys = tensor_keys(model)
    floats = (TensorProto.FLOAT, TensorProto.FLOAT16)
    wanted = {t for t in keys if elem.get(t) in floats}
    augmented = onnx.ModelProto()
    augmented.CopyFrom(model)
    present = {o.name for o in augmented.graph.output}
    inputs = {i.name for i in augmented.graph.input}
    for t in sorted(wanted):
        if t not in present and t not in inputs:
            augmented.graph.output.append(helper.make_tensor_value_info(t, elem[t], None))
    sess = ort_session(augmented.SerializeToString())
    names = [o.name for o in sess.get_outputs()]
    stats = {}
    for feed in samples:
        values = dict(zip(names, sess.run(names, feed)))
        values.update(feed)
        for name, value in values.items():
            if name in wanted:
                stats.setdefault(name, SpecHistogram()).add(value)
    return stats


# ----------------------------------------------------------------------------
# (b) ORT's calibrators
# ----------------------------------------------------------------------------

def import_ort_calibrate():
    """onnxruntime.quantization.calibrate, importable with Debian's onnx 1.12:
    quant_utils imports ml_dtypes (float8/int4 types, unused by calibration)
    and onnx.reference (onnx >= 1.13, unused by calibration), and indexes
    TensorProto enum values newer than 1.12. Only what is missing is stubbed;
    the calibration code itself is ORT's, unchanged."""
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        stub = types.ModuleType("ml_dtypes")
        for n, t in [("float8_e4m3fn", np.uint8), ("float8_e4m3fnuz", np.uint8),
                     ("float8_e5m2", np.uint8), ("float8_e5m2fnuz", np.uint8),
                     ("int4", np.int8), ("uint4", np.uint8), ("bfloat16", np.uint16)]:
            setattr(stub, n, t)
        sys.modules["ml_dtypes"] = stub
    from onnx import TensorProto
    for n, v in [("BFLOAT16", 16), ("FLOAT8E4M3FN", 17), ("FLOAT8E4M3FNUZ", 18),
                 ("FLOAT8E5M2", 19), ("FLOAT8E5M2FNUZ", 20), ("UINT4", 21),
                 ("INT4", 22), ("FLOAT4E2M1", 23)]:
        if not hasattr(TensorProto, n):
            setattr(TensorProto, n, v)
    try:
        import onnx.reference  # noqa: F401
    except ImportError:
        ref = types.ModuleType("onnx.reference")
        ref.ReferenceEvaluator = None
        sys.modules["onnx.reference"] = ref
        op_run = types.ModuleType("onnx.reference.op_run")
        op_run.OpRun = object
        sys.modules["onnx.reference.op_run"] = op_run
    import onnxruntime.quantization.calibrate as cal
    return cal


ORT_OPTIONS = {
    "entropy": {"num_bins": 4096, "num_quantized_bins": 255},
    "percentile": {"num_bins": 2048, "percentile": 99.999, "symmetric": True},
}


def ort_histogram_ranges(model_path, samples, method, percentile):
    """{tensor name: (lo, hi)} from ORT's create_calibrator."""
    cal = import_ort_calibrate()
    import contextlib
    import io

    class Reader(cal.CalibrationDataReader):
        def __init__(self):
            self.it = iter(samples)

        def get_next(self):
            return next(self.it, None)

    options = dict(ORT_OPTIONS[method])
    if method == "percentile":
        options["percentile"] = percentile
    kind = {"entropy": cal.CalibrationMethod.Entropy,
            "percentile": cal.CalibrationMethod.Percentile}[method]
    with tempfile.TemporaryDirectory(prefix="onnxq-ortcal-") as tmp:
        with contextlib.redirect_stdout(io.StringIO()):  # ORT prints progress
            calibrator = cal.create_calibrator(
                str(model_path), None, augmented_model_path=str(Path(tmp) / "aug.onnx"),
                calibrate_method=kind, extra_options=options)
            calibrator.collect_data(Reader())
            data = calibrator.compute_data()
    result = {}
    for name, value in data.items():
        rng = value.range_value if hasattr(value, "range_value") else value[:2]
        result[name] = (float(rng[0]), float(rng[1]))
    return result


# ----------------------------------------------------------------------------
# ranges
# ----------------------------------------------------------------------------

def magnitude(r):
    return max(abs(r[0]), abs(r[1]))


def match(model, ours, theirs):
    """[(key, ours (min, max), theirs value)], ours-only keys, ORT-only names."""
    keys = tensor_keys(model)
    pairs, used, ort_only = [], set(), []
    for name, value in sorted(theirs.items()):
        key = keys.get(name)
        k, entry = lookup(ours, key) if key else (None, None)
        if entry is None:
            ort_only.append(name)
            continue
        used.add(k)
        pairs.append((k, (entry["min"], entry["max"]), value))
    ours_only = sorted(set(ours) - used)
    return pairs, ours_only, ort_only


def expansion_names(ours_only, matched):
    """Our names that are not ONNX tensors by the documented rule: a node the
    importer expands into several ops names the earlier ones NODE_1, NODE_2,
    ... (docs/calibration.md), NODE being a name matched to an ORT tensor."""
    import re
    return [k for k in ours_only
            if (m := re.fullmatch(r"(.+)_[0-9]+", k)) and m.group(1) in matched]


def check_against_spec(method, pairs, args):
    """ours vs the numpy re-implementation on ORT's tensors; (ok, line, details)."""
    bad, worst, worst_bound, exact = [], (0.0, ""), (0.0, ""), 0
    for key, o, st in pairs:
        ref = spec_range(st, method, args.percentile)
        scale = max(abs(st.min), abs(st.max))
        # minmax: float error only. Histogram methods: a value within float
        # error of a bin edge may land in the neighbouring bin, which can move
        # a threshold by a bin; allow --spec-bins bin widths more.
        tol = args.rtol * scale + args.atol + (
            0 if method == "minmax" else args.spec_bins * st.width)
        err = max(abs(o[0] - ref[0]), abs(o[1] - ref[1]))
        exact += err <= args.rtol * scale + args.atol
        rel = err / scale if scale else err
        worst = max(worst, (rel, key))
        # Each bound relative to itself (numpy.isclose with atol 0).
        for b in range(2):
            d = abs(o[b] - ref[b])
            r = d / abs(ref[b]) if ref[b] else (0.0 if d == 0 else math.inf)
            worst_bound = max(worst_bound, (r, f"{key} {('min', 'max')[b]}"))
            if method == "minmax" and args.bound_rtol is not None and \
                    d > args.bound_rtol * abs(ref[b]):
                err = math.inf  # fails below
        if err > tol:
            bad.append(f"{key}: ours [{o[0]:.9g}, {o[1]:.9g}] reference "
                       f"[{ref[0]:.9g}, {ref[1]:.9g}] (bin width {st.width:.3g})")
    what = ("ORT's exact min/max" if method == "minmax" else
            f"the documented method on ORT's tensors (+{args.spec_bins:g} bins)")
    bound = (f" and each bound within rtol {args.bound_rtol:g} of its own value"
             if method == "minmax" and args.bound_rtol is not None else "")
    line = (f"{method}: {len(pairs) - len(bad)}/{len(pairs)} tensors within rtol "
            f"{args.rtol:g} atol {args.atol:g}{bound} of {what}; {exact} within float "
            f"error; worst relative {worst[0]:.2g} ({worst[1]}); worst bound relative "
            f"{worst_bound[0]:.2g} ({worst_bound[1]})")
    return not bad, line, bad


def check_against_ort_calibrator(method, pairs, args):
    """ours vs ORT's calibrator: distribution of the threshold difference."""
    diffs = []
    for key, o, t in pairs:
        to, tt = magnitude(o), magnitude(t)
        d = abs(to - tt) / max(to, tt) if max(to, tt) else 0.0
        diffs.append((d, key, o, t))
    diffs.sort()
    values = np.array([d for d, *_ in diffs])
    median, worst = float(np.median(values)), diffs[-1]
    limit = args.percentile_bound if method == "percentile" else args.entropy_bound
    ok = limit is None or median < limit
    bound = f"median < {limit:.0%}" if limit is not None else "none (reported only)"
    line = (f"{method} vs ORT's calibrator {ORT_OPTIONS[method]}: {len(pairs)} tensors, "
            f"threshold difference median {median:.2%}, 90th percentile "
            f"{float(np.percentile(values, 90)):.2%}, worst {worst[0]:.2%} ({worst[1]}: ours "
            f"[{worst[2][0]:.6g}, {worst[2][1]:.6g}] ORT [{worst[3][0]:.6g}, "
            f"{worst[3][1]:.6g}]); bound {bound}")
    details = [f"{d:8.3%}  {key}: ours [{o[0]:.6g}, {o[1]:.6g}] ORT [{t[0]:.6g}, {t[1]:.6g}]"
               for d, key, o, t in diffs]
    return ok, line, details


def prepare_samples(args, tmp):
    import onnx
    if args.default_model:
        data = tmp / "samples"
        data.mkdir()
        model_path = default_model_samples(args.tool, args.zoo_images, data, tmp)
    elif args.zoo_model:
        data = tmp / "samples"
        data.mkdir()
        model_path = zoo_samples(args.zoo_model, args.zoo_images, data, args.zoo)
        if args.model:
            model_path = args.model
    else:
        if not args.model or not args.data:
            raise ToolError("give --model and --data, or --zoo-model")
        model_path, data = args.model, args.data
    model = onnx.load(str(model_path))
    samples = load_samples(data, input_specs(model))
    return model_path, model, data, samples


def cmd_ranges(args):
    tmp = Path(tempfile.mkdtemp(prefix="onnxq-calcheck-"))
    try:
        model_path, model, data, samples = prepare_samples(args, tmp)
        t0 = time.monotonic()
        stats = ort_statistics(model, samples)
        print(f"model {Path(model_path).name}; {len(samples)} samples from {data}; "
              f"{len(stats)} float tensors in ONNX Runtime ({time.monotonic() - t0:.1f} s)")
        failed = False
        for method in [m for m in args.methods.split(",") if m]:
            opts = f"data={data} method={method}"
            if method == "percentile":
                opts += f" percentile={args.percentile}"
            if method == "entropy":
                opts += " entropy-floor=0"  # pure KL, the documented method and ORT's
            ours = run_calibrate(args.tool, model_path, opts)
            wrong_count = [k for k, e in ours.items() if e.get("samples") != len(samples)]
            if wrong_count:
                print(f"FAIL  {method}: 'samples' is not {len(samples)} for "
                      f"{', '.join(wrong_count)}")
                failed = True
            pairs, ours_only, ort_only = match(model, ours, stats)
            expanded = expansion_names(ours_only, {k for k, _, _ in pairs})
            ours_only = [k for k in ours_only if k not in expanded]
            names_note = (f" [expanded nodes, not ONNX tensors: {', '.join(expanded)}]"
                          if expanded else "")
            if ours_only or ort_only:
                names_note += (f" [ours only: {', '.join(ours_only) or '-'}; "
                              f"ORT only: {', '.join(ort_only) or '-'}]")
                failed |= args.strict_names
            if not pairs:
                print(f"FAIL  {method}: no tensor in common{names_note}")
                failed = True
                continue
            ok, line, bad = check_against_spec(method, pairs, args)
            failed |= not ok
            print(f"{'PASS' if ok else 'FAIL'}  {line}{names_note}")
            for b in bad:
                print(f"      {b}")
            if method in args.ort_methods.split(","):
                t0 = time.monotonic()
                theirs = ort_histogram_ranges(model_path, samples, method, args.percentile)
                seconds = time.monotonic() - t0
                pairs, _, _ = match(model, ours, theirs)
                ok, line, details = check_against_ort_calibrator(method, pairs, args)
                failed |= not ok
                print(f"{'PASS' if ok else 'FAIL'}  {line} (ORT {seconds:.1f} s)")
                if args.verbose:
                    for d in details:
                        print(f"      {d}")
        return 1 if failed else 0
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


# ----------------------------------------------------------------------------
# images
# ----------------------------------------------------------------------------

def parse_spec(spec):
    """The preprocess= string as a dict (the same keys and defaults as ours)."""
    p = {"resize": 0, "crop": None, "bgr": False, "scale": 1.0,
         "mean": [0.0, 0.0, 0.0], "std": [1.0, 1.0, 1.0], "nhwc": False}
    for item in spec.split():
        key, _, value = item.partition("=")
        if key == "resize":
            p["resize"] = int(value)
        elif key == "crop":
            h, _, w = value.partition("x")
            p["crop"] = (int(h), int(w or h))
        elif key == "channels":
            p["bgr"] = value == "bgr"
        elif key == "scale":
            num, _, den = value.partition("/")
            p["scale"] = float(num) / (float(den) if den else 1.0)
        elif key in ("mean", "std"):
            p[key] = [float(v) for v in value.split(",")]
        elif key == "layout":
            p["nhwc"] = value == "nhwc"
        else:
            raise ToolError(f"preprocess: unknown key {key!r}")
    return p


def pil_preprocess(path, spec, shape, mean_order="rgb"):
    """The tensor (float64, model layout) that SPEC describes, computed with PIL."""
    from PIL import Image
    h, w = (shape[1], shape[2]) if spec["nhwc"] else (shape[2], shape[3])
    with Image.open(path) as im:
        im = im.convert("RGB")
        if spec["resize"]:
            s = spec["resize"] / min(im.size)
            size = tuple(max(1, int(math.floor(d * s + 0.5))) for d in im.size)
            if size != im.size:
                im = im.resize(size, Image.BILINEAR)
        elif not spec["crop"] and im.size != (w, h):
            im = im.resize((w, h), Image.BILINEAR)
        ch, cw = spec["crop"] or (h, w)
        left, top = (im.size[0] - cw) // 2, (im.size[1] - ch) // 2
        im = im.crop((left, top, left + cw, top + ch))
        rgb = np.asarray(im, np.float64)  # HWC
    mean, std = np.array(spec["mean"]), np.array(spec["std"])
    if spec["bgr"]:
        hwc = rgb[:, :, ::-1]
        if mean_order == "rgb":  # mean/std named R,G,B: reorder to the tensor's
            mean, std = mean[::-1], std[::-1]
    else:
        hwc = rgb
    x = (hwc * spec["scale"] - mean) / std
    x = x if spec["nhwc"] else x.transpose(2, 0, 1)
    return x[None]


def probe_model(shape, nhwc, probes, seed):
    """(model, {key: function(tensor) -> (min, max)}) as described in --help."""
    import onnx
    from onnx import TensorProto, helper
    nodes, outputs, inits, expect = [], [], [], {}
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    axes_hw = [1, 2] if nhwc else [2, 3]
    cax = 3 if nhwc else 1

    def out(name, shape_):
        outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape_))

    nodes.append(helper.make_node("Identity", ["x"], ["all"], name="all"))
    out("all", shape)
    expect["all"] = lambda t: (t.min(), t.max())
    nodes.append(helper.make_node("ReduceMean", ["x"], ["gmean"], name="gmean",
                                  keepdims=0))
    out("gmean", [])
    expect["gmean"] = lambda t: (t.mean(),) * 2
    nodes.append(helper.make_node("ReduceMean", ["x"], ["chmean"], name="chmean",
                                  axes=axes_hw, keepdims=0))
    nodes.append(helper.make_node("Split", ["chmean"], ["m0", "m1", "m2"],
                                  name="chsplit", axis=1))
    for c in range(3):
        out(f"m{c}", [1, 1])
        expect[f"chsplit:{c}"] = (lambda c: lambda t: (
            t.take(c, axis=cax).mean(),) * 2)(c)
    inits.append(helper.make_tensor("flat_shape", TensorProto.INT64, [1], [-1]))
    nodes.append(helper.make_node("Reshape", ["x", "flat_shape"], ["flat"], name="flat"))
    n = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    positions = set(int(i) for i in rng.choice(n, size=min(probes, n), replace=False))
    h, w = (shape[1], shape[2]) if nhwc else (shape[2], shape[3])
    for c in range(3):
        for y, xx in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)):
            idx = (y * w + xx) * 3 + c if nhwc else (c * h + y) * w + xx
            positions.add(idx)
    for k, idx in enumerate(sorted(positions)):
        inits.append(helper.make_tensor(f"i{k}", TensorProto.INT64, [], [idx]))
        nodes.append(helper.make_node("Gather", ["flat", f"i{k}"], [f"p{k}"],
                                      name=f"p{k}", axis=0))
        out(f"p{k}", [])
        expect[f"p{k}"] = (lambda idx: lambda t: (t.reshape(-1)[idx],) * 2)(idx)
    graph = helper.make_graph(nodes, "probe", [x], outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model, expect


def cmd_images(args):
    import onnx
    shape = [int(d) for d in args.shape.split("x")]
    spec = parse_spec(args.preprocess)
    level = spec["scale"] / min(spec["std"])  # one pixel level in tensor units
    tol, mean_tol = args.pixel_tol * level + 1e-5, args.mean_tol * level + 1e-5
    tmp = Path(tempfile.mkdtemp(prefix="onnxq-imgcheck-"))
    images = list(args.images)
    try:
        if args.png_copy:
            from PIL import Image
            for src in list(images):
                if src.suffix.lower() in (".jpg", ".jpeg"):
                    dst = Path(args.png_copy) / (src.stem + ".png")
                    with Image.open(src) as im:
                        im.convert("RGB").save(dst)
                    images.append(dst)
        model, expect = probe_model(shape, spec["nhwc"], args.probes, args.seed)
        probe = tmp / "probe.onnx"
        onnx.save(model, str(probe))
        print(f"preprocess '{args.preprocess}', input {args.shape}; "
              f"{len(expect)} probes; tolerance {args.pixel_tol:g} level(s) = {tol:.3g}, "
              f"channel means {mean_tol:.3g}")
        failed = False
        worst_all = 0.0
        for path in images:
            folder = tmp / f"img{images.index(path)}"
            folder.mkdir()
            shutil.copy(path, folder / Path(path).name)
            ours = run_calibrate(args.tool, probe, f"data={folder} method=minmax "
                                 f"preprocess='{args.preprocess}'")
            ref = pil_preprocess(path, spec, shape, args.mean_order)
            from PIL import Image
            with Image.open(path) as im:
                size = f"{im.size[0]}x{im.size[1]}"
            worst, bad, differing, npix = 0.0, [], 0, 0
            for key, f in expect.items():
                if key not in ours:
                    bad.append(f"{key}: missing from our ranges")
                    continue
                lo, hi = (float(v) for v in f(ref))
                o = ours[key]
                err = max(abs(o["min"] - lo), abs(o["max"] - hi))
                limit = mean_tol if key in ("gmean",) or key.startswith("chsplit") else tol
                if key.startswith("p"):
                    npix += 1
                    differing += err > 1e-4 * max(1.0, abs(lo))
                worst = max(worst, err)
                if err > limit:
                    bad.append(f"{key}: ours [{o['min']:.6g}, {o['max']:.6g}] "
                               f"PIL [{lo:.6g}, {hi:.6g}]")
            # The graph input's own range (onnx.range / JSON entry "x").
            if "x" in ours:
                e = max(abs(ours["x"]["min"] - ref.min()), abs(ours["x"]["max"] - ref.max()))
                worst = max(worst, e)
                if e > tol:
                    bad.append(f"input x: ours [{ours['x']['min']:.6g}, {ours['x']['max']:.6g}]"
                               f" PIL [{ref.min():.6g}, {ref.max():.6g}]")
            else:
                bad.append("input x: missing from our ranges")
            worst_all = max(worst_all, worst)
            status = "FAIL" if bad else "PASS"
            failed |= bool(bad)
            means = ", ".join(f"{float(expect[f'chsplit:{c}'](ref)[0]):.4f}" for c in range(3))
            print(f"{status}  {Path(path).name} ({size}): max |ours - PIL| {worst:.3g} "
                  f"({worst / level:.2f} levels); {differing}/{npix} probed pixels differ; "
                  f"channel means {means}")
            for line in bad[:10]:
                print(f"      {line}")
        print(f"worst max |ours - PIL| over {len(images)} images: {worst_all:.3g} "
              f"({worst_all / level:.2f} levels)")
        return 1 if failed else 0
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(
        description="Check onnx-quant's calibration against ONNX Runtime and PIL.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)

    r = sub.add_parser("ranges", help="ranges vs ONNX Runtime (minmax exact, "
                       "entropy/percentile vs ORT's calibrators)",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description=__doc__)
    r.add_argument("--tool", required=True, type=Path, help="onnx-quant-opt binary")
    r.add_argument("--model", type=Path, help="the float ONNX model")
    r.add_argument("--data", type=Path, help="samples: DIR/*.npy or DIR/INPUTNAME/*.npy")
    r.add_argument("--zoo-model", metavar="KEY",
                   help="make samples from zoo images (mnist, resnet8, squeezenet)")
    r.add_argument("--default-model", action="store_true",
                   help="the default model (<build>/models/digits_cnn.onnx) and its "
                   "held-out images")
    r.add_argument("--zoo-images", "--count", type=int, default=20, metavar="N",
                   help="samples for --zoo-model / --default-model (20)")
    r.add_argument("--zoo", type=Path, default=None,
                   help="zoo folder (default: $ONNX_QUANT_ZOO or <repo>/../shared/zoo)")
    r.add_argument("--methods", default="minmax,entropy,percentile,mse",
                   help="comma-separated subset of minmax,entropy,percentile,mse")
    r.add_argument("--spec-bins", type=float, default=2.0,
                   help="histogram methods: extra tolerance in bin widths against "
                   "the re-implementation (2)")
    r.add_argument("--ort-methods", default="entropy,percentile",
                   help="methods also compared with ONNX Runtime's calibrators "
                   "(entropy,percentile; '' for none)")
    r.add_argument("--percentile", type=float, default=99.999, help="(99.999)")
    r.add_argument("--rtol", type=float, default=RTOL, help=f"minmax ({RTOL:g})")
    r.add_argument("--atol", type=float, default=ATOL, help=f"minmax ({ATOL:g})")
    r.add_argument("--bound-rtol", type=float, default=None,
                   help="minmax: also require |ours - ORT| <= BOUND_RTOL * |ORT| for "
                        "each bound (min and max) of every tensor")
    r.add_argument("--percentile-bound", type=float, default=0.01,
                   help="bound on the median threshold difference to ORT's percentile "
                   "calibrator (0.01)")
    r.add_argument("--entropy-bound", type=float, default=None,
                   help="bound on the median threshold difference to ORT's entropy "
                   "calibrator (none: reported only, see above)")
    r.add_argument("--strict-names", action="store_true",
                   help="fail when a tensor is only on one side")
    r.add_argument("--verbose", "-v", action="store_true",
                   help="list every tensor's histogram-method difference")
    r.add_argument("--keep", action="store_true", help="keep the temporary folder")

    i = sub.add_parser("images", help="our image preprocessing vs PIL",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description=__doc__)
    i.add_argument("--tool", required=True, type=Path, help="onnx-quant-opt binary")
    i.add_argument("--shape", required=True, help="model input shape, e.g. 1x3x224x224")
    i.add_argument("--preprocess", required=True, help="the preprocess= string")
    i.add_argument("--probes", type=int, default=500, help="random pixel probes (500)")
    i.add_argument("--seed", type=int, default=0, help="probe positions seed (0)")
    i.add_argument("--pixel-tol", type=float, default=1.0,
                   help="pixel tolerance in 8-bit levels (1)")
    i.add_argument("--mean-tol", type=float, default=0.05,
                   help="channel-mean tolerance in levels (0.05)")
    i.add_argument("--mean-order", choices=["rgb", "model"], default="model",
                   help="order of the mean=/std= values with channels=bgr: 'model' "
                   "(default) the tensor's channel order, as onnx-quant applies them and "
                   "docs/calibration.md's SqueezeNet example assumes; 'rgb' R,G,B as the "
                   "option's help text and docs table say")
    i.add_argument("--png-copy", type=Path, metavar="DIR",
                   help="also check a PNG copy (written to DIR) of every JPEG")
    i.add_argument("--keep", action="store_true", help="keep the temporary folder")
    i.add_argument("images", nargs="+", type=Path, help="jpg/jpeg/png files")

    args = ap.parse_args()
    if not args.tool.is_file():
        print(f"error: tool not found: {args.tool}", file=sys.stderr)
        return 2
    try:
        return cmd_ranges(args) if args.command == "ranges" else cmd_images(args)
    except ToolError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
