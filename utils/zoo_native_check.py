#!/usr/bin/env python3
"""Compile the zoo's float models to native code and check them on real images.

For each model of ZOO_MODELS found in the zoo (preprocessing from the zoo's
MANIFEST.md):

  1. compile: TOOL model.onnx --emit=obj -o W/NAME.o --entry=NAME, measuring the
     compiler's wall time and peak RSS (os.wait4 on the child; timeout 600 s);
  2. link the generic runner: cc -std=c99 -O2 -DONNXQ_MODEL=NAME -include
     W/NAME.h RUNNER W/NAME.o -o W/run -lm;
  3. preprocess --images real images (N, default 3) from the zoo's image folders,
     compute the ONNX Runtime outputs (CPU, 1 thread) as the reference, and run
     W/run --inputs in.npy --expect ref.npy --rtol 1e-3 --atol ATOL per image.

ATOL is 1e-5 for the float32 models (outputs: softmax probabilities for
SqueezeNet and ResNet8, logits of magnitude up to a few hundred for MNIST; the
worst relative differences measured were below 2e-5). The fp16 SqueezeNet is
compared at rtol 4e-3 / atol 1e-4: its float16 outputs carry 11 significant
bits (one ulp is up to 9.8e-4 relative), so rtol 1e-3 would be one ulp; 4e-3
leaves room for a few roundings. ONNX Runtime's float16 outputs are within
3.4e-4 (relative, probabilities > 0.01) of the float32 model's on the same
inputs.

Per model one line: PASS/FAIL/SKIP, compile seconds, peak RSS, worst absolute
and relative difference over the images, top-1 agreement; then a closing line
`N passed, N failed, N skipped`. The already-quantized (QOperator)
mobilenetv2-12-int8 is checked as it is, without flags: its dynamic batch and
Shape -> Gather -> Concat -> Reshape chain resolve at import.

Cross mode: --mtriple aarch64-linux-gnu --qemu compiles with
`--mtriple=aarch64-linux-gnu --mattr=+neon,+dotprod`, links the runner with
aarch64-linux-gnu-gcc -static and runs it under
`qemu-aarch64 -L /usr/aarch64-linux-gnu` (Debian: apt-get install
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user).

Zoo folder: --zoo, else $ONNX_QUANT_ZOO, else `<repo>/../shared/zoo`; when it does
not exist the script prints `SKIP: ...` and exits 0. Images are decoded with
Pillow (utils/requirements.txt). Exit status 1 when a model fails, 2 on bad
usage or a missing tool.

Run:  .venv/bin/python utils/zoo_native_check.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c [--zoo DIR] [--images 3] \\
          [--mtriple aarch64-linux-gnu --qemu] [--keep DIR]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tool_check import diagnostic_line, with_memory_limit
from zoo_data import (cifar_files, default_zoo, image_tensor,  # noqa: F401
                      imagenet_files, load_rgb, mnist_images, spread)

REPO = Path(__file__).resolve().parent.parent
COMPILE_TIMEOUT = 600.0
RUN_TIMEOUT = 300.0
QEMU_SYSROOT = "/usr/aarch64-linux-gnu"
CROSS_ATTR = "+neon,+dotprod"


@dataclass
class ZooModel:
    path: str          # relative to the zoo
    entry: str         # C symbol prefix
    images: str        # "imagenet" | "cifar10" | "mnist"
    preprocess: str    # key of PREPROCESS
    rtol: float = 1e-3
    atol: float = 1e-5
    dtype: type = np.float32
    skip_if_no_compile: str = ""   # why a compile failure is a SKIP, not a FAIL


ZOO_MODELS = [
    ZooModel("mnist/models/mnist-cntk-opset7.onnx", "mnist", "mnist", "raw"),
    ZooModel("cifar10/models/mlperf_tiny_resnet8_fp32.onnx", "resnet8", "cifar10", "raw"),
    ZooModel("imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx", "squeezenet",
             "imagenet", "bgr_minus_mean"),
    ZooModel("imagenet/models/squeezenet1.1-caffe2-fp16.onnx", "squeezenet_fp16",
             "imagenet", "bgr_minus_mean", rtol=4e-3, atol=1e-4, dtype=np.float16,
             skip_if_no_compile="float16 model (the fp32 copy above is the one checked)"),
    ZooModel("imagenet/models/mobilenetv2-12-int8.onnx", "mobilenetv2_int8", "imagenet",
             "torchvision"),
]


# ----------------------------------------------------------------------------
# Images
# ----------------------------------------------------------------------------

def preprocess(model, zoo, n):
    """List of (label, NCHW array) for model's inputs."""
    if model.images == "mnist":
        return [(f"mnist[{i}]", img.astype(np.float32)[None, None])
                for i, img in enumerate(mnist_images(zoo, n))]
    files = imagenet_files(zoo, n) if model.images == "imagenet" else cifar_files(zoo, n)
    out = [(path.name, image_tensor(path, model.images, model.preprocess)) for path in files]
    return [(name, x.astype(model.dtype)) for name, x in out]


# ----------------------------------------------------------------------------
# Processes
# ----------------------------------------------------------------------------

def run_measured(cmd, timeout, mem_mb=0):
    """Run cmd; return (returncode or None on timeout, seconds, peak RSS in MB,
    stderr text). The RSS is the child's own (os.wait4), not the maximum over
    every child this process ever had."""
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(with_memory_limit(cmd, mem_mb), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                err.seek(0)
                return None, timeout, usage.ru_maxrss / 1024, ""
            time.sleep(0.02)
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return proc.returncode, seconds, usage.ru_maxrss / 1024, text


def ort_reference(model_path, inputs):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    return [sess.run(None, {name: x}) for x in inputs]


# ----------------------------------------------------------------------------
# One model
# ----------------------------------------------------------------------------

@dataclass
class Outcome:
    status: str            # PASS | FAIL | SKIP
    text: str


def toolchain(args):
    """(compiler flags, C compiler command, run prefix)."""
    if not args.mtriple:
        return [], [args.cc, "-std=c99", "-O2"], []
    cc = args.cross_cc or f"{args.mtriple}-gcc"
    prefix = ["qemu-aarch64", "-L", QEMU_SYSROOT] if args.qemu else []
    return ([f"--mtriple={args.mtriple}", f"--mattr={args.mattr}"],
            [cc, "-std=c99", "-O2", "-static"], prefix)


def check_model(model, zoo, args, work):
    path = zoo / model.path
    flags, cc, prefix = toolchain(args)
    obj, header, exe = work / f"{model.entry}.o", work / f"{model.entry}.h", work / "run"

    rc, secs, rss, err = run_measured(
        [str(args.tool), str(path), "--emit=obj", "-o", str(obj),
         f"--entry={model.entry}", *flags], COMPILE_TIMEOUT, args.mem_limit)
    stats = f"compile {secs:.1f} s, peak RSS {rss:.0f} MB"
    if rc != 0 or not obj.exists():
        why = ("timeout" if rc is None else
               diagnostic_line(err).replace(str(path), path.name) or f"exit status {rc}")
        if rc is not None and rc < 0:
            why = f"crashed (signal {-rc}): {why}"
        if model.skip_if_no_compile:
            return Outcome("SKIP", f"{model.skip_if_no_compile}; does not compile: {why}")
        return Outcome("FAIL", f"{stats}; compile failed: {why}")

    p = subprocess.run([*cc, f"-DONNXQ_MODEL={model.entry}", "-include", str(header),
                        str(args.runner), str(obj), "-o", str(exe), "-lm"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return Outcome("FAIL", f"{stats}; runner link failed: {diagnostic_line(p.stderr)}")

    samples = preprocess(model, zoo, args.images)
    refs = ort_reference(path, [x for _, x in samples])
    worst_abs = worst_rel = 0.0
    top1, mismatched, first_mismatch = 0, [], ""
    for k, ((label, x), ref) in enumerate(zip(samples, refs)):
        inp, exp, outdir = work / f"in{k}.npy", work / f"ref{k}.npy", work / f"out{k}"
        outdir.mkdir(exist_ok=True)
        np.save(inp, x)
        np.save(exp, ref[0])
        try:
            p = subprocess.run([*prefix, str(exe), "--inputs", str(inp), "--expect",
                                str(exp), "--outputs-dir", str(outdir),
                                "--rtol", f"{model.rtol:g}", "--atol", f"{model.atol:g}"],
                               capture_output=True, text=True, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return Outcome("FAIL", f"{stats}; image {label}: timeout after {RUN_TIMEOUT:g} s")
        if p.returncode not in (0, 1):  # error or crash: no comparison
            why = diagnostic_line(p.stderr) or f"exit status {p.returncode}"
            return Outcome("FAIL", f"{stats}; image {label}: {why}")
        m = re.search(r"max_abs_diff (\S+) max_rel_diff (\S+)", p.stdout)
        if m:
            worst_abs = max(worst_abs, float(m.group(1)))
            worst_rel = max(worst_rel, float(m.group(2)))
        got = outdir / "output_0.npy"
        if got.exists():
            top1 += int(np.argmax(np.load(got)) == np.argmax(ref[0]))
        if p.returncode == 1:
            mismatched.append(label)
            first_mismatch = first_mismatch or next(
                (ln.strip() for ln in p.stdout.splitlines() if "FAIL" in ln), "")
    summary = (f"{stats}; worst |diff| {worst_abs:.2g} (rel {worst_rel:.2g}, rtol "
               f"{model.rtol:g} atol {model.atol:g}); top-1 agrees {top1}/{len(samples)}")
    if mismatched:
        return Outcome("FAIL", f"{summary}; {len(mismatched)}/{len(samples)} images "
                       f"mismatch, first {mismatched[0]}: {first_mismatch}")
    return Outcome("PASS", summary)


def check_tools(args):
    """Return an error message for a missing tool, or ''."""
    for f, what in ((args.tool, "tool"), (args.runner, "runner")):
        if not f.is_file():
            return f"{what} not found: {f}"
    _, cc, prefix = toolchain(args)
    if shutil.which(cc[0]) is None:
        return (f"C compiler not found: {cc[0]}"
                + (" (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
                   if args.mtriple else ""))
    if prefix and (shutil.which(prefix[0]) is None or not Path(QEMU_SYSROOT).is_dir()):
        return "qemu-aarch64 or /usr/aarch64-linux-gnu missing (apt-get install qemu-user " \
               "libc6-dev-arm64-cross)"
    if args.mtriple and not args.qemu and args.mtriple.split("-")[0] != os.uname().machine:
        return f"cannot run {args.mtriple} code here; add --qemu"
    try:
        import PIL  # noqa: F401
    except ImportError:
        return "Pillow is missing: .venv/bin/pip install -r utils/requirements.txt"
    return ""


def add_tool_arguments(ap):
    """--tool, --runner and --zoo: what the native zoo checks and benches need."""
    ap.add_argument("--tool", required=True, type=Path, help="onnx-quant-opt binary")
    ap.add_argument("--runner", required=True, type=Path, help="runner.c")
    ap.add_argument("--zoo", type=Path, default=None,
                    help="zoo folder (default: $ONNX_QUANT_ZOO or <repo>/../shared/zoo)")


def main():
    ap = argparse.ArgumentParser(
        description="Compile the zoo's float models natively and compare with ORT.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--images", type=int, default=3, help="images per model (3)")
    ap.add_argument("--mtriple", default="", help="cross-compile, e.g. aarch64-linux-gnu")
    ap.add_argument("--mattr", default=CROSS_ATTR, help=f"with --mtriple ({CROSS_ATTR})")
    ap.add_argument("--qemu", action="store_true", help="run cross-built runners in qemu")
    ap.add_argument("--cc", default="cc", help="host C compiler (cc)")
    ap.add_argument("--cross-cc", default="", help="cross C compiler (<mtriple>-gcc)")
    ap.add_argument("--keep", type=Path, default=None, metavar="DIR",
                    help="keep objects, runners and .npy files in DIR/<entry>")
    ap.add_argument("--mem-limit", type=int, default=4096, metavar="MB",
                    help="address-space cap of the compiler (4096; 0: none)")
    ap.add_argument("--exclude", metavar="REGEX",
                    help="skip models whose zoo path matches (reported as SKIP)")
    args = ap.parse_args()

    zoo = (args.zoo or default_zoo()).resolve()
    if not zoo.is_dir():
        print(f"SKIP: zoo not found at {zoo} (set --zoo or ONNX_QUANT_ZOO)")
        return 0
    problem = check_tools(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    target = f"{args.mtriple} ({args.mattr}" + (", qemu)" if args.qemu else ")") \
        if args.mtriple else "host"
    print(f"target {target}; {args.images} image(s) per model; reference ONNX Runtime")

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    known = {m.path for m in ZOO_MODELS}
    for extra in sorted(p.relative_to(zoo).as_posix() for p in zoo.rglob("*.onnx")):
        if extra not in known:
            print(f"SKIP  {extra}  (no preprocessing known; add it to ZOO_MODELS)")
            counts["SKIP"] += 1
    for model in ZOO_MODELS:
        if not (zoo / model.path).is_file():
            continue
        if args.exclude and re.search(args.exclude, model.path):
            print(f"SKIP  {model.path}  (excluded by --exclude {args.exclude})")
            counts["SKIP"] += 1
            continue
        if args.keep:
            work = args.keep.resolve() / model.entry
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            out = check_model(model, zoo, args, work)
        else:
            with tempfile.TemporaryDirectory(prefix="onnxq-zoo-") as tmp:
                out = check_model(model, zoo, args, Path(tmp))
        counts[out.status] += 1
        print(f"{out.status}  {model.path}  {out.text}", flush=True)
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
