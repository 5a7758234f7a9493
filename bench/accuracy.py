#!/usr/bin/env python3
"""Top-1/top-5 accuracy of float and static-int8 models on the zoo's labeled data.

For each zoo model (mnist-cntk, CIFAR-10 ResNet8, SqueezeNet 1.1):

  float     the float model compiled by us (--emit=obj), run by the generic
            runner (tools/onnx-quant-runner/runner.c)
  ours      --onnx-calibrate (the default method: entropy with entropy-floor
            99.999 | method=minmax | pure KL: method=entropy entropy-floor=0)
            then --onnx-quantize (activations u8, weights s8, per-channel
            true | false), compiled with --emit=obj and run by the runner:
            five variants (pure KL per-channel only)
  ORT int8  ONNX Runtime's quantize_static (QuantFormat.QDQ, activations
            QUInt8, weights QInt8, per_channel True, CalibrationMethod.MinMax;
            utils/ort_quantize.py in .venv-ortq) on the same calibration
            tensors, run in ONNX Runtime
  ORT/ours  ONNX Runtime running our exported QDQ model (default, per-channel)
  dynamic   with --dynamic: --onnx-quantize="mode=dynamic" (no calibration;
            per-tensor and per-channel), compiled and run by the runner, and
            ONNX Runtime's quantize_dynamic (s8 weights, per tensor:
            utils/ort_quantize.py --dynamic) run in ONNX Runtime
  4-bit     with --weights4: weight-only s4 weights per channel and in blocks
            of 32 along the input channels, u4 (zero points) in blocks of 32
            (--onnx-quantize="mode=weight-only weights=s4|u4 [block-size=32]",
            float activations), and int8
            activations with s4 weights per channel (the default calibration,
            weights=s4), and EWQ / FastEWQ codebooks (4 bits per channel,
            EWQ 8 bits per tensor), compiled and run by the runner; ONNX
            Runtime has no
            4-bit mode for Conv (its MatMulNBits quantizer takes MatMul and
            Gather only), so no ORT column
  fallback  the default per-channel quantization with the accuracy fallback
            (--onnx-quantize sqnr-floor=--fallback-floor, measured on
            --fallback-samples held-out samples: neither calibration nor
            evaluation ones), compiled and run by the runner

Common float input of both quantizers: the zoo model after
`--onnx-fold-batchnorm --emit=onnx` (BatchNormalization folded, opset 17); the
float row is the original zoo model compiled as is.

Data (calibration and evaluation sets are disjoint):
  mnist     t10k (10,000): a shuffle with --seed; calibration = its first
            --calib images, evaluation = the next N
  cifar10   test_jpg (10,000; JPEG-recompressed, so the float model scores
            ~75 %, not the 85 % of the lossless set): same scheme
  imagenet  calibration = first --calib of a shuffle of val_sample (1000
            images, one per class, probably train images); evaluation = first
            N of a shuffle of val1300 (real ILSVRC2012 val, 227x227, easier
            than the full val set: use deltas, not absolute figures)
  held out  (the fallback's samples) the next --fallback-samples of the
            calibration shuffle (val_sample for imagenet, after the
            evaluation images for mnist and cifar10)
Preprocessing: utils/zoo_data.py (the zoo's MANIFEST.md). Calibration tensors
are written as .npy and given to both quantizers, so both see the same floats.

Besides accuracy, per model: how often our native int8 (default, per-channel)
and ORT running our exported QDQ model pick the same top-1 class, and the
largest output difference between them in units of the output's
DequantizeLinear scale (the last one before a final Softmax/Reshape:
utils/qdq_compare.py output_step).

Run (from the repo root; holds the shared build lock, takes several minutes):

  flock /tmp/onnxq-build.lock .venv/bin/python bench/accuracy.py \\
      --tool build/bin/onnx-quant-opt --runner tools/onnx-quant-runner/runner.c

--quick: 20 calibration samples and 200/100/50 evaluation images. Defaults:
--calib 100, --eval mnist=2000,cifar10=1000,imagenet=1300 (every val1300
image; SqueezeNet takes about 21 minutes for its eight columns on two shared
cores), --seed 0.
--json writes every figure (rewritten after each model); the Markdown table
goes to stdout, and each model's figures to stderr as soon as it is done.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
import qdq_compare  # noqa: E402
import zoo_data  # noqa: E402

ORTQ_PYTHON = REPO / ".venv-ortq" / "bin" / "python"


@dataclass
class Model:
    key: str           # mnist | cifar10 | imagenet (data set)
    name: str          # short name, C entry
    path: str          # relative to the zoo
    preprocess: str    # zoo_data.image_tensor preprocessing
    top5: bool


MODELS = [
    Model("mnist", "mnist", "mnist/models/mnist-cntk-opset7.onnx", "raw", False),
    Model("cifar10", "resnet8", "cifar10/models/mlperf_tiny_resnet8_fp32.onnx", "raw",
          False),
    Model("imagenet", "squeezenet",
          "imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx", "bgr_minus_mean",
          True),
]
# --onnx-calibrate options beyond data= per calibration variant; the default
# options first (what docs/accuracy.md's targets are about).
CALIBRATIONS = {"default": "", "minmax": "method=minmax",
                "kl": "method=entropy entropy-floor=0"}
# (calibration, per-channel) variants compiled and evaluated.
OURS = [("default", True), ("default", False), ("minmax", True), ("minmax", False),
        ("kl", True)]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run(cmd, what):
    start = time.monotonic()
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {p.returncode}): "
                           f"{' '.join(map(str, cmd))}\n{p.stderr[-3000:]}")
    log(f"{what}: {time.monotonic() - start:.1f} s")
    return p


# ----------------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------------

def splits(model, zoo, n_calib, n_eval, seed):
    """(calib, eval): lists of (loader, label); loader() -> float32 NCHW."""
    rng = np.random.RandomState(seed)
    if model.key == "mnist":
        imgs, labels = zoo_data.mnist_images(zoo), zoo_data.mnist_labels(zoo)
        perm = rng.permutation(len(labels))
        items = [((lambda i=i: zoo_data.mnist_tensor(imgs[i])), int(labels[i]))
                 for i in perm]
        return items[:n_calib], items[n_calib:n_calib + n_eval]

    def loaders(pairs):
        return [((lambda p=p: zoo_data.image_tensor(p, model.key, model.preprocess)), y)
                for p, y in pairs]

    if model.key == "cifar10":
        items = zoo_data.cifar_items(zoo)
        perm = rng.permutation(len(items))
        items = loaders([items[i] for i in perm])
        return items[:n_calib], items[n_calib:n_calib + n_eval]
    calib = zoo_data.imagenet_sample_items(zoo)
    calib = [calib[i] for i in rng.permutation(len(calib))[:n_calib]]
    ev = zoo_data.imagenet_val_items(zoo)
    ev = [ev[i] for i in np.random.RandomState(seed + 1).permutation(len(ev))[:n_eval]]
    return loaders(calib), loaders(ev)


def held_out(model, zoo, n_calib, n_eval, seed, n):
    """[loader] of n samples in neither split (the fallback measures on them)."""
    rng = np.random.RandomState(seed)
    if model.key == "mnist":
        imgs = zoo_data.mnist_images(zoo)
        perm = rng.permutation(len(zoo_data.mnist_labels(zoo)))
        return [(lambda i=i: zoo_data.mnist_tensor(imgs[i]))
                for i in perm[n_calib + n_eval:n_calib + n_eval + n]]
    if model.key == "cifar10":
        items = zoo_data.cifar_items(zoo)
        paths = [items[i][0] for i in rng.permutation(len(items))]
        paths = paths[n_calib + n_eval:n_calib + n_eval + n]
    else:
        items = zoo_data.imagenet_sample_items(zoo)
        paths = [items[i][0] for i in rng.permutation(len(items))[n_calib:n_calib + n]]
    return [(lambda p=p: zoo_data.image_tensor(p, model.key, model.preprocess))
            for p in paths]


# ----------------------------------------------------------------------------
# Models
# ----------------------------------------------------------------------------

REUSE = False


def reusable(*paths):
    """With --reuse: the outputs of a step exist already (skip the step)."""
    if REUSE and all(Path(p).exists() for p in paths):
        log(f"reusing {', '.join(Path(p).name for p in paths)}")
        return True
    return False


def compile_obj(tool, runner, src, work, entry, passes, cc):
    obj = work / f"{entry}.o"
    exe = work / f"run-{entry}"
    if reusable(obj, exe):
        return exe
    run([tool, src, *passes, "--emit=obj", f"--entry={entry}", "-o", obj],
        f"compile {entry}")
    run([cc, "-std=c99", "-O2", f"-DONNXQ_MODEL={entry}", "-include",
         work / f"{entry}.h", runner, obj, "-o", exe, "-lm"], f"link {entry}")
    return exe


def ort_session(path):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    return sess, sess.get_inputs()[0].name


def evaluate_model(model, args, zoo, work):
    src = zoo / model.path
    n_eval = args.eval[model.key]
    calib, ev = splits(model, zoo, args.calib, n_eval, args.seed)
    log(f"{model.name}: {len(calib)} calibration and {len(ev)} evaluation samples")
    cdir = work / "calib"
    if not reusable(cdir / f"{len(calib) - 1:05d}.npy"):
        shutil.rmtree(cdir, ignore_errors=True)
        cdir.mkdir()
        for k, (load, _) in enumerate(calib):
            np.save(cdir / f"{k:05d}.npy", load())

    tool, runner = args.tool, args.runner
    folded = work / "float_folded.onnx"
    if not reusable(folded):
        run([tool, src, "--onnx-fold-batchnorm", "--emit=onnx", "-o", folded],
            f"{model.name} fold-batchnorm + export")
    exes = {"float": compile_obj(tool, runner, src, work, f"{model.name}_float", [],
                                 args.cc)}
    for method, options in CALIBRATIONS.items():
        if method != "default" and not any(v.startswith(method) for v in args.variants):
            continue
        ranges = work / f"ranges_{method}.json"
        if not reusable(ranges):
            run([tool, folded, f"--onnx-calibrate=data={cdir} {options} quiet=true "
                 f"save={ranges}", "--emit=mlir", "-o", work / f"cal_{method}.mlir"],
                f"{model.name} calibrate {method}")
        for pc in [pc for m, pc in OURS if m == method]:
            key = f"{method}_{'pc' if pc else 'pt'}"
            if key != "default_pc" and key not in args.variants:
                continue
            quant = [f"--onnx-annotate-ranges=file={ranges}",
                     f"--onnx-quantize=activations=u8 weights=s8 "
                     f"per-channel={str(pc).lower()}"]
            exes[key] = compile_obj(tool, runner, folded, work, f"{model.name}_{key}",
                                    quant, args.cc)
            if key == "default_pc" and not reusable(work / "ours_qdq.onnx"):
                run([tool, folded, *quant, "--emit=onnx", "-o", work / "ours_qdq.onnx"],
                    f"{model.name} export QDQ")
    fallback = None
    if args.fallback_floor > 0:
        hold = held_out(model, zoo, args.calib, n_eval, args.seed, args.fallback_samples)
        hdir = work / "held_out"
        if not reusable(hdir / f"{len(hold) - 1:05d}.npy"):
            shutil.rmtree(hdir, ignore_errors=True)
            hdir.mkdir()
            for k, load in enumerate(hold):
                np.save(hdir / f"{k:05d}.npy", load())
        report = work / "fallback.json"
        quant = [f"--onnx-annotate-ranges=file={work / 'ranges_default.json'}",
                 f"--onnx-quantize=activations=u8 weights=s8 per-channel=true "
                 f"sqnr-floor={args.fallback_floor:g} report-data={hdir} "
                 f"report-samples={len(hold)} report={report} quiet=true"]
        exes["fallback_pc"] = compile_obj(tool, runner, folded, work,
                                          f"{model.name}_fallback_pc", quant, args.cc)
        fallback = json.loads(report.read_text())["fallback"]
        log(f"{model.name}: fallback kept {[k['node'] for k in fallback['kept']]} "
            f"(output SQNR {fallback['quantized_output_sqnr']:.2f} -> "
            f"{fallback['output_sqnr']:.2f} dB on {fallback['samples']} held-out samples)")
    if not reusable(work / "ort_qdq.onnx"):
        run([ORTQ_PYTHON, REPO / "utils" / "ort_quantize.py", folded, cdir,
             work / "ort_qdq.onnx", "--activations", "u8", "--weights", "s8",
             "--per-channel", "--method", "minmax"], f"{model.name} ORT quantize_static")

    sessions = {"ort_int8": ort_session(work / "ort_qdq.onnx"),
                "ort_ours": ort_session(work / "ours_qdq.onnx")}
    if args.dynamic:
        for pc in (False, True):
            key = f"dynamic_{'pc' if pc else 'pt'}"
            exes[key] = compile_obj(
                tool, runner, folded, work, f"{model.name}_{key}",
                [f"--onnx-quantize=mode=dynamic per-channel={str(pc).lower()} quiet=true"],
                args.cc)
        if not reusable(work / "ort_dynamic.onnx"):
            run([ORTQ_PYTHON, REPO / "utils" / "ort_quantize.py", folded, "-",
                 work / "ort_dynamic.onnx", "--dynamic"], f"{model.name} ORT quantize_dynamic")
        sessions["ort_dynamic"] = ort_session(work / "ort_dynamic.onnx")
    if args.weights4:
        ranges = f"--onnx-annotate-ranges=file={work / 'ranges_default.json'}"
        for key, passes in {
                "w4_pc": ["--onnx-quantize=mode=weight-only weights=s4 quiet=true"],
                "w4_b32": ["--onnx-quantize=mode=weight-only weights=s4 block-size=32 "
                           "quiet=true"],
                "w4u_b32": ["--onnx-quantize=mode=weight-only weights=u4 block-size=32 "
                            "quiet=true"],
                "a8w4_pc": [ranges, "--onnx-quantize=activations=u8 weights=s4 "
                                    "per-channel=true quiet=true"],
                "ewq4_pc": ["--onnx-quantize=mode=weight-only weights=ewq quiet=true"],
                "fastewq4_pc": ["--onnx-quantize=mode=weight-only weights=fastewq "
                                "quiet=true"],
                "ewq8_pt": ["--onnx-quantize=mode=weight-only weights=ewq bits=8 "
                            "per-channel=false quiet=true"]}.items():
            exes[key] = compile_obj(tool, runner, folded, work, f"{model.name}_{key}",
                                    passes, args.cc)
    scale, _, via = qdq_compare.output_step(work / "ours_qdq.onnx")
    columns = list(exes) + list(sessions)
    top1 = {c: 0 for c in columns}
    top5 = {c: 0 for c in columns}
    agree, max_steps, max_abs = 0, 0.0, 0.0
    inp, outdir = work / "in.npy", work / "out"
    outdir.mkdir(exist_ok=True)
    start = time.monotonic()
    done = 0
    for k, (load, label) in enumerate(ev):
        if args.budget and time.monotonic() - start > args.budget:
            log(f"{model.name}: time budget {args.budget:g} s used up after {k} images")
            break
        x = load()
        np.save(inp, x)
        outs = {}
        for key, exe in exes.items():
            run_out = outdir / "output_0.npy"
            if run_out.exists():
                run_out.unlink()
            p = subprocess.run([exe, "--inputs", inp, "--outputs-dir", outdir],
                               capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError(f"{exe} on sample {k}: {p.stderr.strip()}")
            outs[key] = np.load(run_out).reshape(-1)
        for key, (sess, name) in sessions.items():
            outs[key] = sess.run(None, {name: x})[0].reshape(-1)
        for key, y in outs.items():
            order = np.argsort(-y, kind="stable")
            top1[key] += int(order[0] == label)
            top5[key] += int(label in order[:5])
        a, b = outs["default_pc"], outs["ort_ours"]
        agree += int(np.argmax(a) == np.argmax(b))
        diff = float(np.max(np.abs(a.astype(np.float64) - b)))
        max_abs = max(max_abs, diff)
        if scale:
            max_steps = max(max_steps, diff / scale)
        done = k + 1
        if (k + 1) % max(1, len(ev) // 5) == 0:
            log(f"{model.name}: {k + 1}/{len(ev)} evaluated "
                f"({time.monotonic() - start:.0f} s)")
    n = done
    return {"model": model.name, "path": model.path, "calib": len(calib), "eval": n,
            "top1": {c: top1[c] / n for c in columns},
            "top5": {c: top5[c] / n for c in columns} if model.top5 else None,
            "native_vs_ort_ours_top1_agree": agree / n,
            "native_vs_ort_ours_max_abs": max_abs,
            "output_dq_scale": scale, "output_dq_via": via,
            "native_vs_ort_ours_max_steps": max_steps if scale else None,
            "fallback": fallback}


# ----------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------

COLS = [("float", "float (ours)"), ("default_pc", "ours default per-ch"),
        ("default_pt", "ours default per-tensor"), ("minmax_pc", "ours minmax per-ch"),
        ("minmax_pt", "ours minmax per-tensor"), ("kl_pc", "ours pure KL per-ch"),
        ("ort_int8", "ORT quantize_static"),
        ("ort_ours", "ORT running our QDQ"), ("fallback_pc", "ours fallback per-ch"),
        ("dynamic_pt", "ours dynamic per-tensor"), ("dynamic_pc", "ours dynamic per-ch"),
        ("ort_dynamic", "ORT quantize_dynamic"), ("w4_pc", "ours weight-only s4 per-ch"),
        ("w4_b32", "ours weight-only s4 blocks of 32"),
        ("w4u_b32", "ours weight-only u4 blocks of 32"), ("a8w4_pc", "ours u8 x s4 per-ch"),
        ("ewq4_pc", "ours EWQ 4-bit per-ch"), ("fastewq4_pc", "ours FastEWQ 4-bit per-ch"),
        ("ewq8_pt", "ours EWQ 8-bit per-tensor")]


def table(results):
    lines = ["| model (eval images) | metric | " + " | ".join(t for _, t in COLS) + " |",
             "| --- | --- |" + " ---: |" * len(COLS)]
    for r in results:
        for metric in ("top1", "top5"):
            if not r[metric]:
                continue
            f = r[metric]["float"]
            cells = [f"{100 * f:.2f}"]
            for key, _ in COLS[1:]:
                if key not in r[metric]:
                    cells.append("-")
                    continue
                v = r[metric][key]
                cells.append(f"{100 * v:.2f} ({100 * (v - f):+.2f})")
            lines.append(f"| {r['model']} ({r['eval']}) | top-{metric[-1]} % | "
                         + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| model | native int8 vs ORT on our QDQ: same top-1 | max abs output "
                 "diff | output step (DQ scale) | max diff in steps |")
    lines.append("| --- | ---: | ---: | ---: | ---: |")
    for r in results:
        sc = r["output_dq_scale"]
        lines.append(f"| {r['model']} | {100 * r['native_vs_ort_ours_top1_agree']:.2f} % | "
                     f"{r['native_vs_ort_ours_max_abs']:.3g} | "
                     f"{'%.3g' % sc if sc else 'n/a'}"
                     f"{' (before ' + '/'.join(r['output_dq_via']) + ')' if r['output_dq_via'] else ''} | "
                     f"{'%.2f' % r['native_vs_ort_ours_max_steps'] if sc else 'n/a'} |")
    return "\n".join(lines)


def parse_eval(text):
    out = {}
    for part in text.split(","):
        k, v = part.split("=")
        out[k.strip()] = int(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--tool", type=Path, default=REPO / "build/bin/onnx-quant-opt")
    ap.add_argument("--runner", type=Path,
                    default=REPO / "tools/onnx-quant-runner/runner.c")
    ap.add_argument("--zoo", type=Path, default=None,
                    help="zoo folder (default: $ONNX_QUANT_ZOO or <repo>/../shared/zoo)")
    ap.add_argument("--models", default="mnist,resnet8,squeezenet",
                    help="comma-separated subset of mnist,resnet8,squeezenet")
    ap.add_argument("--calib", type=int, default=100, help="calibration samples (100)")
    ap.add_argument("--eval", type=parse_eval,
                    default="mnist=2000,cifar10=1000,imagenet=1300",
                    help="evaluation images per data set "
                         "(mnist=2000,cifar10=1000,imagenet=1300)")
    ap.add_argument("--seed", type=int, default=0, help="shuffle seed (0)")
    ap.add_argument("--quick", action="store_true",
                    help="20 calibration samples, mnist=200,cifar10=100,imagenet=50")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--json", type=Path, help="write every figure as JSON")
    ap.add_argument("--keep", type=Path, metavar="DIR",
                    help="keep the work files (models, objects, ranges) in DIR")
    ap.add_argument("--reuse", action="store_true",
                    help="with --keep: skip steps whose outputs are already in DIR "
                         "(same options and tool assumed; not checked)")
    ap.add_argument("--budget", type=float, default=0, metavar="SECONDS",
                    help="stop evaluating a model after this long (the table gives "
                         "the number of images actually evaluated; 0: no limit)")
    ap.add_argument("--variants",
                    default="default_pc,default_pt,minmax_pc,minmax_pt,kl_pc",
                    help="our int8 columns to build (default_pc always is: the "
                         "ORT-on-our-QDQ comparison needs it)")
    ap.add_argument("--dynamic", action="store_true",
                    help="add the dynamic-quantization columns (ours mode=dynamic "
                         "per-tensor and per-channel, ORT quantize_dynamic)")
    ap.add_argument("--weights4", action="store_true",
                    help="add the 4-bit weight columns (weight-only s4 per channel and "
                         "in blocks of 32, u8 activations with s4 weights)")
    ap.add_argument("--fallback-floor", type=float, default=25, metavar="DB",
                    help="the fallback column's sqnr-floor= (25; 0: no column)")
    ap.add_argument("--fallback-samples", type=int, default=300,
                    help="held-out samples the fallback measures on (300)")
    args = ap.parse_args()
    args.variants = args.variants.split(",")
    if isinstance(args.eval, str):
        args.eval = parse_eval(args.eval)
    if args.quick:
        args.calib = 20
        args.eval = {"mnist": 200, "cifar10": 100, "imagenet": 50}
    zoo = (args.zoo or zoo_data.default_zoo()).resolve()
    if not zoo.is_dir():
        print(f"error: zoo not found at {zoo}", file=sys.stderr)
        return 2
    if not ORTQ_PYTHON.exists():
        print(f"error: {ORTQ_PYTHON} missing (ONNX Runtime's quantization tools)",
              file=sys.stderr)
        return 2
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    global REUSE
    REUSE = args.reuse
    wanted = args.models.split(",")
    results = []
    for model in MODELS:
        if model.name not in wanted:
            continue
        if args.keep:
            work = args.keep.resolve() / model.name
            if not args.reuse:
                shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True, exist_ok=True)
            results.append(evaluate_model(model, args, zoo, work))
        else:
            with tempfile.TemporaryDirectory(prefix="onnxq-acc-") as tmp:
                results.append(evaluate_model(model, args, zoo, Path(tmp)))
        log(f"{model.name}: {json.dumps(results[-1])}")
        if args.json:
            args.json.write_text(json.dumps({"results": results}, indent=1) + "\n")
    head = (f"calibration {args.calib} samples, seed {args.seed}; "
            f"tool {os.path.relpath(args.tool, REPO)}")
    print(head)
    print()
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps({"args": head, "results": results}, indent=1)
                             + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
