#!/usr/bin/env python3
"""--onnx-calibrate reads the same samples identically from every format, and
its num-samples/seed subsets are deterministic.

Usage: calibration_formats.py --tool TOOL --zoo ZOO --work DIR

Model: the zoo's MNIST CNN (input Input3, 1x1x28x28). Samples: the first 12
MNIST test images (raw 0..255), each scaled by (k + 1) / 12 for sample k, so
that the graph input's range [0, max] tells which samples a subset holds
(max = 255 * (largest k + 1) / 12 when every image has a 255 pixel; checked).

Checks, one line each (PASS/FAIL):
  formats   the samples as DIR/*.npy (1x1x28x28), as DIR/*.npy without the
            batch dimension (1x28x28), and as DIR/test_data_set_K/input_0.pb
            (onnx.numpy_helper TensorProtos) give identical JSON tables, for
            method=minmax and method=entropy (every tensor's min, max, method,
            samples equal, bit for bit);
  subset    num-samples=5 seed=7 twice: identical tables, "samples": 5, and
            the input's max is one of the 12 possible maxima; seeds 0..4 pick
            at least two different subsets (different input max);
            num-samples=5 gives different ranges than all 12 for some seed;
  too-many  num-samples=50 > 12: a warning naming both counts, all 12 used.
"""

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np


def calibrate(tool, model, data, options):
    out = Path(data).parent / "ranges.json"
    if out.exists():
        out.unlink()
    p = subprocess.run([tool, str(model), f"--onnx-calibrate=data={data} {options} "
                        f"save={out} quiet=true", "--emit=mlir", "-o", "/dev/null"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"error: calibration of {data} failed: {p.stderr.strip()}")
    return json.loads(out.read_text())["tensors"], p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--zoo", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    args = ap.parse_args()
    from onnx import numpy_helper

    model = args.zoo / "mnist/models/mnist-cntk-opset7.onnx"
    with gzip.open(args.zoo / "mnist/data/t10k-images-idx3-ubyte.gz", "rb") as f:
        f.read(16)
        images = np.frombuffer(f.read(12 * 784), np.uint8).reshape(12, 1, 1, 28, 28)
    samples = [(img.astype(np.float32) * np.float32((k + 1) / 12)) for k, img in
               enumerate(images)]
    maxima = sorted(float(x.max()) for x in samples)
    assert len(set(maxima)) == 12, "sample maxima must tell the samples apart"

    dirs = {}
    for kind in ("npy", "npy-nobatch", "pb"):
        d = args.work / kind / "data"
        d.mkdir(parents=True)
        dirs[kind] = d
        for k, x in enumerate(samples):
            if kind == "npy":
                np.save(d / f"s{k:02d}.npy", x)
            elif kind == "npy-nobatch":
                np.save(d / f"s{k:02d}.npy", x[0])
            else:
                (d / f"test_data_set_{k:02d}").mkdir()
                t = numpy_helper.from_array(x, name="Input3")
                (d / f"test_data_set_{k:02d}" / "input_0.pb").write_bytes(t.SerializeToString())

    ok = True
    for method in ("minmax", "entropy"):
        tables = {kind: calibrate(args.tool, model, d, f"method={method}")[0]
                  for kind, d in dirs.items()}
        same = all(tables[k] == tables["npy"] for k in tables)
        n = {e["samples"] for t in tables.values() for e in t.values()}
        good = same and n == {12}
        ok &= good
        diff = "" if same else "; differ: " + ", ".join(
            k for k in tables if tables[k] != tables["npy"])
        print(f"{'PASS' if good else 'FAIL'}  formats {method}: npy, npy without batch "
              f"dimension and test_data_set_*/input_0.pb give identical tables "
              f"({len(tables['npy'])} tensors, samples {sorted(n)}){diff}")

    npy = dirs["npy"]
    full, _ = calibrate(args.tool, model, npy, "method=minmax")
    a, _ = calibrate(args.tool, model, npy, "method=minmax num-samples=5 seed=7")
    b, _ = calibrate(args.tool, model, npy, "method=minmax num-samples=5 seed=7")
    counts = {e["samples"] for e in a.values()}
    good = a == b and counts == {5} and any(
        abs(a["Input3"]["max"] - m) <= 1e-6 * m for m in maxima)
    ok &= good
    print(f"{'PASS' if good else 'FAIL'}  subset: num-samples=5 seed=7 twice gives identical "
          f"tables, samples {sorted(counts)}, input max {a['Input3']['max']:g}")
    seen = {}
    for seed in range(5):
        t, _ = calibrate(args.tool, model, npy, f"method=minmax num-samples=5 seed={seed}")
        seen[seed] = t["Input3"]["max"]
    subsets_differ = len(set(seen.values())) >= 2
    differ_from_full = any(
        calibrate(args.tool, model, npy, f"method=minmax num-samples=5 seed={s}")[0] != full
        for s in range(2))
    good = subsets_differ and differ_from_full
    ok &= good
    print(f"{'PASS' if good else 'FAIL'}  subset: seeds 0-4 give {len(set(seen.values()))} "
          f"different input maxima; a 5-sample subset differs from all 12: {differ_from_full}")

    t, err = calibrate(args.tool, model, npy, "method=minmax num-samples=50")
    warned = "num-samples=50" in err and "holds 12" in err
    good = warned and t == full
    ok &= good
    print(f"{'PASS' if good else 'FAIL'}  too-many: num-samples=50 warns "
          f"({'yes' if warned else 'no: ' + err.strip()[:200]}) and uses all 12")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
