"""NAME_run_parallel on a real CNN: compiles bench/cnn_models.py's
MobileNetV3-small (float; int8 calibrated on 4 random samples; 4-bit
weights, weight-only and with int8 activations, whose objects compute the
unpacked weights on the first call), counts the loops split over threads in
each object (their task entries), runs
concurrent_runs.c on each (bit-identical outputs for every thread count and
for concurrent application threads, with NAME_run_parallel and NAME_run;
also under AddressSanitizer, and ThreadSanitizer with --tsan), and runs the float model with the runner on 2 threads against
ONNX Runtime (rtol 1e-4, atol 1e-5).

Usage: threads_check.py --tool TOOL --runner runner.c --harness concurrent_runs.c
                        --include DIR --bench DIR --work DIR [--tsan]
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], check=True, capture_output=True,
                          text=True, **kw)


def main():
    p = argparse.ArgumentParser()
    for flag in ("--tool", "--runner", "--harness", "--include", "--bench", "--work"):
        p.add_argument(flag, required=True)
    p.add_argument("--tsan", action="store_true")
    args = p.parse_args()
    sys.path.insert(0, args.bench)
    import cnn_models

    work = Path(args.work).resolve()
    model = work / "mobilenet_v3_small.onnx"
    onnx.save(cnn_models.build("mobilenet_v3_small"), str(model))
    rng = np.random.default_rng(0)
    cal = work / "cal"
    cal.mkdir()
    for i in range(4):
        np.save(cal / f"{i}.npy", rng.standard_normal((1, 3, 224, 224)).astype(np.float32))
    static = ["--onnx-fold-batchnorm", f"--onnx-calibrate=data={cal} quiet=true"]
    variants = {
        "f32": [],
        "i8": [*static, "--onnx-quantize=quiet=true"],
        # 4-bit weights: packed in the object, computed by the first call.
        "w4": ["--onnx-quantize=mode=weight-only weights=s4 quiet=true"],
        "a8w4": [*static, "--onnx-quantize=weights=s4 quiet=true"],
    }
    failed = 0
    for entry, passes in variants.items():
        obj = work / f"{entry}.o"
        run([args.tool, model, *passes, "--emit=obj", "-o", obj, f"--entry={entry}"])
        symbols = run(["nm", obj]).stdout
        entries = re.findall(r"_part(?:_[0-9]+)?_entry$", symbols, re.MULTILINE)
        print(f"{entry}: {len(entries)} loops split; constants computed once per "
              f"process: {'yes' if 'onnxq_constants_state' in symbols else 'no'}")
        builds = [("", ["cc", "-O2"]),
                  (" (AddressSanitizer)", ["cc", "-O1", "-g", "-fsanitize=address",
                                           "-fno-omit-frame-pointer"])]
        if args.tsan:
            builds.append((" (ThreadSanitizer)", ["gcc", "-O1", "-fsanitize=thread"]))
        for label, cc in builds:
            suffix = {"": "", " (AddressSanitizer)": "-asan"}.get(label, "-tsan")
            exe = work / f"{entry}-concurrent{suffix}"
            run([*cc, "-pthread", f"-DONNXQ_MODEL={entry}", "-include",
                 work / f"{entry}.h", f"-I{args.include}", args.harness, obj, "-o", exe,
                 "-lm"])
            r = subprocess.run([str(exe)], capture_output=True, text=True)
            for line in r.stdout.splitlines():
                print(f"{entry}{label}: {line}")
            if (r.returncode != 0 or "WARNING: ThreadSanitizer" in r.stderr
                    or "ERROR: AddressSanitizer" in r.stderr):
                print(f"{entry}{label}: FAIL  exit {r.returncode}\n{r.stderr[-2000:]}")
                failed += 1

    # The float model on 2 threads against ONNX Runtime.
    import onnxruntime as ort
    x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    np.save(work / "x.npy", x)
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    np.save(work / "ort.npy", sess.run(None, {sess.get_inputs()[0].name: x})[0])
    exe = work / "run-f32"
    run(["cc", "-std=c99", "-O2", "-DONNXQ_MODEL=f32", "-include", work / "f32.h",
         args.runner, work / "f32.o", "-o", exe, "-lm"])
    r = subprocess.run([str(exe), "--inputs", str(work / "x.npy"), "--expect",
                        str(work / "ort.npy"), "--threads", "2"],
                       capture_output=True, text=True)
    status = "PASS" if r.returncode == 0 else "FAIL"
    print(f"f32: {status}  2 threads vs ONNX Runtime: "
          f"{r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-300:]}")
    failed += r.returncode != 0
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
