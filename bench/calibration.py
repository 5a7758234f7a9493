#!/usr/bin/env python3
"""Calibration cost: onnx-quant-opt --onnx-calibrate vs running the same samples.

For each zoo CNN (ResNet8 on CIFAR-10 test JPEGs, SqueezeNet 1.1 fp32 on
ImageNet val1300 JPEGs), each sample count N (--counts, default 100,500) and each
method (--methods, default minmax,entropy):

  ours   TOOL model.onnx --onnx-calibrate="data=DIR method=M preprocess=SPEC
         quiet=true" --emit=mlir -o /dev/null on a folder of N JPEG symlinks
         (spread over the image list), wall time and peak RSS of that process
         (os.wait4 ru_maxrss); the JIT-compile part and samples/s come from its
         summary line on stderr. Includes JIT compilation, JPEG decoding,
         resizing, running the instrumented model and the statistics.
next to the same N samples (preprocessed once with PIL as the zoo's MANIFEST.md
says, saved as .npy; not timed) run by:
  obj    the model compiled with --emit=obj (compile time reported once) and
         linked with tools/onnx-quant-runner/runner.c: one runner process per
         sample (`run --inputs sK.npy`), total wall time; and N x the runner's
         `--repeat 20` median of one inference (no process start or file I/O);
  ORT    onnxruntime.InferenceSession (CPU, 1 thread each for intra/inter op)
         .run on the N arrays in one process, total wall time (session
         creation excluded, reported apart).

Output: the machine, ORT version, then a Markdown table. Numbers depend on the
machine and its load (2 shared cores here): run it under
`flock /tmp/onnxq-build.lock` and compare rows of one run only.

Run:  .venv/bin/python bench/calibration.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c [--zoo DIR] [--counts 100,500] \\
          [--methods minmax,entropy] [--models resnet8,squeezenet]
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

IMAGENET_MEAN_BGR = np.array([104.0, 117.0, 123.0], np.float32)  # MANIFEST.md

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


def calibrate(tool, model_path, data, method, spec):
    cmd = [str(tool), str(model_path),
           f"--onnx-calibrate=data={data} method={method} preprocess='{spec}'",
           "--emit=mlir", "-o", os.devnull]
    rc, secs, rss, err = znc.run_measured(cmd, 3600, 0)
    if rc != 0:
        raise RuntimeError(f"calibration failed: {znc.diagnostic_line(err)}")
    m = re.search(r"JIT compile ([\d.]+) s, ([\d.]+) samples/s", err)
    jit, rate = (float(m.group(1)), float(m.group(2))) if m else (float("nan"),) * 2
    return secs, rss, jit, rate


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
    args = ap.parse_args()

    import onnxruntime as ort
    zoo = (args.zoo or znc.default_zoo()).resolve()
    models = {m.entry: m for m in znc.ZOO_MODELS}
    counts = [int(c) for c in args.counts.split(",")]
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; ONNX Runtime {ort.__version__}; "
          f"onnx-quant-opt {args.tool}")
    print()
    print("| model | N | method | calibrate s | of which JIT s | samples/s | peak RSS MB "
          "| obj: N runs s (process per sample) | obj: N x median inference s "
          "| ORT: N runs s |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    notes = []
    with tempfile.TemporaryDirectory(prefix="onnxq-bench-cal-") as tmp:
        tmp = Path(tmp)
        for key in args.models.split(","):
            model = models[key]
            path = zoo / model.path
            work = tmp / key
            work.mkdir()
            # Compile the float object once and link the runner.
            obj, header, exe = work / f"{key}.o", work / f"{key}.h", work / "run"
            rc, csecs, crss, err = znc.run_measured(
                [str(args.tool), str(path), "--emit=obj", "-o", str(obj),
                 f"--entry={key}"], 1800, 0)
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
                # The same samples as .npy (PIL preprocessing, not timed).
                npys = work / f"npy{n}"
                npys.mkdir()
                arrays = []
                for k, f in enumerate(files):
                    hwc = znc.load_rgb(f, resize_crop=model.images == "imagenet")
                    if model.preprocess == "bgr_minus_mean":
                        hwc = hwc[:, :, ::-1] - IMAGENET_MEAN_BGR
                    x = np.ascontiguousarray(hwc.transpose(2, 0, 1)[None], np.float32)
                    np.save(npys / f"s{k:05d}.npy", x)
                    arrays.append(x)
                # obj: one process per sample.
                start = time.monotonic()
                for k in range(n):
                    subprocess.run([str(exe), "--inputs", str(npys / f"s{k:05d}.npy")],
                                   check=True, stdout=subprocess.DEVNULL)
                obj_secs = time.monotonic() - start
                p = subprocess.run([str(exe), "--inputs", str(npys / "s00000.npy"),
                                    "--repeat", "20"], capture_output=True, text=True)
                m = re.search(r"([\d.]+) ms", p.stdout)
                per_ms = float(m.group(1)) if m else float("nan")
                # ORT.
                start = time.monotonic()
                for x in arrays:
                    sess.run(None, {name: x})
                ort_secs = time.monotonic() - start
                for method in args.methods.split(","):
                    secs, rss, jit, rate = calibrate(args.tool, path, data, method, SPECS[key])
                    print(f"| {key} | {n} | {method} | {secs:.2f} | {jit:.2f} | {rate:.0f} | "
                          f"{rss:.0f} | {obj_secs:.2f} | {n * per_ms / 1000:.2f} | "
                          f"{ort_secs:.2f} |", flush=True)
    print()
    for note in notes:
        print(f"- {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
