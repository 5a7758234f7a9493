"""Run utils/pass_check.py on every float zoo model that contains an op.

Usage: zoo_pass_check.py --zoo ZOO --utils UTILS_DIR --with-op OP [--images N]
           -- PASS_CHECK_ARGS...   (--tool, --runner, --passes, tolerances, ...)
Scans ZOO for *.onnx; a model is taken when one of its nodes is OP and it is a
float32 model (float32 inputs, no QuantizeLinear/DequantizeLinear/QLinear*/
*Integer ops); a model with OP that is not float32 is listed as SKIP. Models
that zoo_native_check.py knows run on N (default 10) real preprocessed images
(--zoo-images N); another model runs on 3 seeded random input sets, and its
line says so (add its preprocessing to ZOO_MODELS for real images).
Prints per model `PASS  <path>  (<inputs>)` or `FAIL  <path>` followed by
pass_check's output, indented, then
`<n> model(s) with onnx.OP: <p> passed, <f> failed, <s> skipped`.
Exit status 1 when a model fails.
"""
import argparse
import subprocess
import sys
from pathlib import Path

import onnx
from onnx import TensorProto

QUANT_OPS = ("QuantizeLinear", "DequantizeLinear", "ConvInteger", "MatMulInteger")


def main():
    argv = sys.argv[1:]
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser()
    ap.add_argument("--zoo", required=True, type=Path)
    ap.add_argument("--utils", required=True, type=Path)
    ap.add_argument("--with-op", required=True)
    ap.add_argument("--images", type=int, default=10)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.utils))
    import zoo_native_check
    known = {m.path for m in zoo_native_check.ZOO_MODELS}

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for model in sorted(args.zoo.rglob("*.onnx")):
        rel = model.relative_to(args.zoo).as_posix()
        m = onnx.load(str(model), load_external_data=False)
        ops = {n.op_type for n in m.graph.node}
        if args.with_op not in ops:
            continue
        inits = {t.name for t in m.graph.initializer}
        types = {i.type.tensor_type.elem_type for i in m.graph.input if i.name not in inits}
        if types != {TensorProto.FLOAT} or any(
                op in QUANT_OPS or op.startswith("QLinear") for op in ops):
            print(f"SKIP  {rel}  (not a float32 model)")
            counts["SKIP"] += 1
            continue
        inputs = (["--zoo-images", str(args.images), "--zoo", str(args.zoo)] if rel in known
                  else ["--random", "3"])
        what = (f"{args.images} zoo images" if rel in known else
                "3 random input sets: no preprocessing known in zoo_native_check.py")
        proc = subprocess.run([sys.executable, str(args.utils / "pass_check.py"), str(model),
                               *inputs, *rest], capture_output=True, text=True)
        status = "PASS" if proc.returncode == 0 else "FAIL"
        counts[status] += 1
        print(f"{status}  {rel}  ({what})")
        for line in (proc.stdout + proc.stderr).splitlines():
            print(f"    {line}")
    n = counts["PASS"] + counts["FAIL"] + counts["SKIP"]
    print(f"{n} model(s) with onnx.{args.with_op}: {counts['PASS']} passed, "
          f"{counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
