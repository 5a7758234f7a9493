#!/usr/bin/env python3
"""Calibration cost: onnx-quant-opt --onnx-calibrate vs running the same samples.

For each zoo CNN (ResNet8 on CIFAR-10 test JPEGs, SqueezeNet 1.1 fp32 on
ImageNet val1300 JPEGs), each sample count N (--counts, default 100,500) and each
method (--methods, default minmax,entropy):

  ours   TOOL model.onnx --onnx-calibrate="data=DIR method=M preprocess=SPEC"
         --emit=mlir -o /dev/null on a folder of N JPEG symlinks (spread over
         the image list), wall time and peak RSS of that process (GNU time's
         %M, see run_measured); the JIT-compile part and samples/s come from
         its summary line on stderr. Includes JIT compilation, JPEG decoding,
         resizing, running the instrumented model and the statistics.
next to the same N samples run by:
  decode the zoo's preprocessing in PIL (decode, resize, crop, channel order,
         mean), timed per image; the samples are saved as .npy (not timed);
  obj    the model compiled with --emit=obj (compile time and peak RSS
         measured) and linked with tools/onnx-quant-runner/runner.c: N x the
         runner's `--repeat R` median of one inference (no process start or
         file I/O), and, as a second figure, one runner process per sample
         (`run --inputs sK.npy`, total wall time);
  ORT    onnxruntime.InferenceSession (CPU, 1 thread each for intra/inter op)
         .run on the N arrays in one process, total wall time (session
         creation excluded, reported apart).
Every timed step (calibration, the --emit=obj compile, decoding, the runner's
median) runs --trials times (3) and the fastest run is reported: other jobs
on the machine only add time, so the minimum is the least disturbed figure.
Ratios against what the compiled float model needs for the same samples,
B = N x median inference + decode:
  total            calibrate / B (the issue's target: <= 1.5);
  without compile  (calibrate - JIT compile) / B: everything but the one-time
                   JIT compile (model import, reading and decoding, runs,
                   statistics, range selection, writing the output);
  with compile     calibrate / (obj compile + B): both sides compile the model.
Peak memory: the ratio of the largest to the smallest N's peak RSS, per model
and method (the target: within 10 %).

Output: the machine, ORT version, then a Markdown table. Numbers depend on the
machine and its load (2 shared cores here): run it under
`flock /tmp/onnxq-build.lock` and compare rows of one run only.

Run:  flock /tmp/onnxq-build.lock .venv/bin/python bench/calibration.py \\
          --tool build/bin/onnx-quant-opt --runner tools/onnx-quant-runner/runner.c \\
          [--zoo DIR] [--counts 100,500] [--methods minmax,entropy] \\
          [--models resnet8,squeezenet] [--repeat 50] [--trials 3]
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
import zoo_native_check as znc  # noqa: E402

# Our preprocess= strings for the zoo's preprocessing (MANIFEST.md).
SPECS = {
    "resnet8": "scale=1",  # 32x32 RGB, raw 0..255, NCHW
    "squeezenet": "resize=256 crop=224 channels=bgr mean=104,117,123",
}


def cpu_name():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def image_files(model, zoo, n):
    if model.images == "imagenet":
        return znc.imagenet_files(zoo, n)
    return znc.cifar_files(zoo, n)


def run_measured(cmd, timeout):
    """(returncode, seconds, peak RSS MB, stderr) of cmd, run under GNU time.
    Not znc.run_measured's os.wait4 of our own child: Linux carries the
    spawning process's peak RSS into the child's ru_maxrss (it survives
    exec after vfork), so a child of this script, which holds ONNX Runtime
    and hundreds of decoded images, would report at least this script's
    peak. /usr/bin/time forks the command from a small process and reports
    the command's own peak."""
    marker = "ONNXQ_BENCH_MAXRSS_KB "
    rc, secs, _, err = znc.run_measured(
        ["/usr/bin/time", "-f", marker + "%M", *map(str, cmd)], timeout, 0)
    lines = err.splitlines()
    rss = [float(l[len(marker):]) / 1024 for l in lines if l.startswith(marker)]
    return rc, secs, rss[-1] if rss else float("nan"), \
        "\n".join(l for l in lines if not l.startswith(marker))


def calibrate(tool, model_path, data, method, spec):
    cmd = [str(tool), str(model_path),
           f"--onnx-calibrate=data={data} method={method} preprocess='{spec}'",
           "--emit=mlir", "-o", os.devnull]
    rc, secs, rss, err = run_measured(cmd, 3600)
    if rc != 0:
        raise RuntimeError(f"calibration failed: {znc.diagnostic_line(err)}")
    m = re.search(r"JIT compile ([\d.]+) s, ([\d.]+) samples/s", err)
    jit, rate = (float(m.group(1)), float(m.group(2))) if m else (float("nan"),) * 2
    return secs, rss, jit, rate


def compile_object(tool, model_path, obj, entry):
    """(seconds, returncode, peak RSS MB, stderr) of --emit=obj."""
    rc, secs, rss, err = run_measured(
        [str(tool), str(model_path), "--emit=obj", "-o", str(obj),
         f"--entry={entry}"], 1800)
    return secs, rc, rss, err


def fastest(trials, measure):
    """The fastest of `trials` runs of measure() (its first field is seconds):
    other jobs on the machine only ever add time, so the minimum is the
    figure least disturbed by them, on both sides of every ratio."""
    return min((measure() for _ in range(trials)), key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser(description="Calibration time and memory vs "
                                 "running the samples natively and in ORT.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--tool", required=True, type=Path)
    ap.add_argument("--runner", required=True, type=Path)
    ap.add_argument("--zoo", type=Path, default=None)
    ap.add_argument("--counts", default="100,500")
    ap.add_argument("--methods", default="minmax,entropy")
    ap.add_argument("--models", default="resnet8,squeezenet")
    ap.add_argument("--repeat", type=int, default=50,
                    help="runner --repeat for the median inference (50)")
    ap.add_argument("--trials", type=int, default=3,
                    help="runs of every timed step; the fastest is reported (3)")
    args = ap.parse_args()

    import onnxruntime as ort
    zoo = (args.zoo or znc.default_zoo()).resolve()
    models = {m.entry: m for m in znc.ZOO_MODELS}
    counts = [int(c) for c in args.counts.split(",")]
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; ONNX Runtime {ort.__version__}; "
          f"onnx-quant-opt {args.tool}")
    print()
    print("| model | N | method | calibrate s | of which JIT s | samples/s | peak RSS MB "
          "| decode s (PIL) | obj: N x median inference s | ratio total "
          "| ratio without compile | ratio with compile "
          "| obj: N runs s (process per sample) | ORT: N runs s |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: | ---: |")
    notes = []
    rss = {}
    with tempfile.TemporaryDirectory(prefix="onnxq-bench-cal-") as tmp:
        tmp = Path(tmp)
        for key in args.models.split(","):
            model = models[key]
            path = zoo / model.path
            work = tmp / key
            work.mkdir()
            # Compile the float object once and link the runner.
            obj, header, exe = work / f"{key}.o", work / f"{key}.h", work / "run"
            csecs, rc, crss, err = fastest(
                args.trials, lambda: compile_object(args.tool, path, obj, key))
            if rc != 0:
                print(f"| {key} | compile failed: {znc.diagnostic_line(err)} |")
                continue
            subprocess.run(["cc", "-std=c99", "-O2", "-D_POSIX_C_SOURCE=199309L",
                            f"-DONNXQ_MODEL={key}", "-include", str(header),
                            str(args.runner), str(obj), "-o", str(exe), "-lm"], check=True)
            notes.append(f"{key}: --emit=obj compile {csecs:.1f} s, peak RSS {crss:.0f} MB; "
                         f"preprocess='{SPECS[key]}'")
            sess_start = time.monotonic()
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = opts.inter_op_num_threads = 1
            sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            notes.append(f"{key}: ORT session creation {time.monotonic() - sess_start:.2f} s")
            name = sess.get_inputs()[0].name
            for n in counts:
                files = image_files(model, zoo, n)
                data = work / f"img{n}"
                data.mkdir()
                for k, f in enumerate(files):
                    (data / f"{k:05d}{f.suffix.lower()}").symlink_to(f)
                # Calibration (time and peak RSS under GNU time).
                results = {}
                for method in args.methods.split(","):
                    results[method] = fastest(args.trials, lambda: calibrate(
                        args.tool, path, data, method, SPECS[key]))
                    rss.setdefault((key, method), []).append((n, results[method][1]))
                # The same samples as .npy: PIL decoding and preprocessing
                # timed, saving not.
                npys = work / f"npy{n}"
                npys.mkdir()
                arrays = [znc.image_tensor(f, model.images, model.preprocess)
                          for f in files]
                for k, x in enumerate(arrays):
                    np.save(npys / f"s{k:05d}.npy", x)

                def decode():
                    start = time.monotonic()
                    for f in files:
                        znc.image_tensor(f, model.images, model.preprocess)
                    return (time.monotonic() - start,)
                decode_secs, = fastest(args.trials, decode)
                # obj: one process per sample.
                start = time.monotonic()
                for k in range(n):
                    subprocess.run([str(exe), "--inputs", str(npys / f"s{k:05d}.npy")],
                                   check=True, stdout=subprocess.DEVNULL)
                obj_secs = time.monotonic() - start

                def median_inference():
                    p = subprocess.run([str(exe), "--inputs", str(npys / "s00000.npy"),
                                        "--repeat", str(args.repeat)],
                                       capture_output=True, text=True)
                    m = re.search(r"median ([\d.]+) ms", p.stdout)
                    return (float(m.group(1)) if m else float("nan"),)
                per_ms, = fastest(args.trials, median_inference)
                runs = n * per_ms / 1000
                # ORT.
                start = time.monotonic()
                for x in arrays:
                    sess.run(None, {name: x})
                ort_secs = time.monotonic() - start
                del arrays
                for method, (secs, peak, jit, rate) in results.items():
                    base = runs + decode_secs
                    print(f"| {key} | {n} | {method} | {secs:.2f} | {jit:.2f} | {rate:.1f} | "
                          f"{peak:.0f} | {decode_secs:.2f} | {runs:.2f} | {secs / base:.2f} | "
                          f"{(secs - jit) / base:.2f} | {secs / (csecs + base):.2f} | "
                          f"{obj_secs:.2f} | {ort_secs:.2f} |", flush=True)
    print()
    for (key, method), points in rss.items():
        if len(points) > 1:
            (n0, r0), (n1, r1) = min(points), max(points)
            notes.append(f"{key} {method}: peak RSS {r1:.0f} MB for {n1} samples vs "
                         f"{r0:.0f} MB for {n0}: x{r1 / r0:.3f}")
    for note in notes:
        print(f"- {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
