"""onnx-quant-debug on our own quantized model gives report='s figures.

Usage (a python with onnx and numpy):
  debug_report_check.py --tool onnx-quant-opt --debug-tool onnx-quant-debug
      --work DIR [--model cnn|squeezenet] [--zoo DIR] [--samples 8]

1. The float model: `cnn` (qdq_import_check.py's CNN: Conv+Relu, MaxPool,
   Add, Concat, GlobalAveragePool, Gemm+Relu, MatMul, Add; seeded inputs) or
   the zoo's SqueezeNet 1.1 (--samples real images, utils/zoo_data.py).
2. `TOOL float.onnx --onnx-calibrate="data=DIR" --onnx-quantize="report=r.json
   report-samples=N" --emit=onnx -o q.onnx`: quantized in memory, measured by
   the pass on the calibration samples, exported.
3. `DEBUG float.onnx q.onnx --data DIR --samples N -o d.json`: the exported
   model re-imported and compared with the float file.
4. Every layer of the report is looked up by node among the debugger's
   activations; its activation, local and weight SQNR must agree within
   1e-6 dB (the same runs on the same samples: equal up to summation order).
Prints `PASS|FAIL  KIND  N layers, max |debug - report| D dB` for each kind,
`missing: ...` for report layers the debugger did not match; exit status 1
on a FAIL.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "utils"))
sys.path.insert(0, str(HERE))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--debug-tool", required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--model", choices=["cnn", "squeezenet"], default="cnn")
    ap.add_argument("--zoo", type=Path)
    ap.add_argument("--samples", type=int, default=8)
    args = ap.parse_args()
    work = args.work
    data = work / "data"
    data.mkdir(parents=True, exist_ok=True)
    if args.model == "cnn":
        import qdq_import_check
        fmodel = work / "float.onnx"
        qdq_import_check.make_model(fmodel, avgpool=False)
        rng = np.random.RandomState(2)
        xs = [rng.randn(1, 3, 16, 16).astype(np.float32) for _ in range(args.samples)]
    else:
        import zoo_data
        zoo = args.zoo or zoo_data.default_zoo()
        fmodel = zoo / "imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx"
        xs = [zoo_data.image_tensor(p, "imagenet", "bgr_minus_mean")
              for p in zoo_data.imagenet_files(zoo, args.samples)]
    for k, x in enumerate(xs):
        np.save(data / f"{k:03d}.npy", x)

    report, qmodel, debug = work / "r.json", work / "q.onnx", work / "d.json"
    subprocess.run([args.tool, str(fmodel), f"--onnx-calibrate=data={data} quiet=true",
                    f"--onnx-quantize=report={report} report-samples={args.samples} "
                    "quiet=true", "--emit=onnx", "-o", str(qmodel)], check=True)
    subprocess.run([args.debug_tool, str(fmodel), str(qmodel), "--data", str(data),
                    "--samples", str(args.samples), "-o", str(debug)], check=True)
    layers = json.loads(report.read_text())["layers"]
    by_node = {a["node"]: a for a in json.loads(debug.read_text())["activations"]
               if a["node"] and a["kind"] == "QDQ"}

    def value(v):
        return float("inf") if v == "inf" else v

    ok = True
    missing = [layer["node"] for layer in layers if layer["node"] not in by_node]
    for key in ("activation_sqnr", "local_sqnr", "weight_sqnr"):
        diffs = []
        for layer in layers:
            ours = by_node.get(layer["node"], {}).get(key)
            want = layer.get(key)
            if want is None and ours is None:
                continue
            if want is None or ours is None:
                diffs.append(float("inf"))
            elif value(want) == value(ours):
                diffs.append(0.0)
            else:
                diffs.append(abs(value(want) - value(ours)))
        worst = max(diffs, default=float("inf"))
        passed = worst <= 1e-6 and not missing
        ok &= passed
        print(f"{'PASS' if passed else 'FAIL'}  {key}  {len(diffs)} layers, "
              f"max |debug - report| {worst:.2g} dB")
    if missing:
        print(f"  missing: {missing}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
