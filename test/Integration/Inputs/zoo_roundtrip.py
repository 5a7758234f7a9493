"""Export every zoo model with `onnx-quant-opt --emit=onnx` and compare it with
the original in ONNX Runtime, bitwise (utils/ort_compare.py --exact).

Usage: zoo_roundtrip.py --tool ONNX_QUANT_OPT --zoo ZOO --utils UTILS_DIR --tmp DIR
Prints one line per model, `PASS  <path>` or `FAIL  <path>  <stage>: <reason>`,
then `<n> passed, <m> failed`. Exit status 1 when a model fails.
"""
import argparse
import subprocess
import sys
from pathlib import Path


def last_line(text):
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--zoo", required=True, type=Path)
    ap.add_argument("--utils", required=True, type=Path)
    ap.add_argument("--tmp", required=True, type=Path)
    args = ap.parse_args()
    args.tmp.mkdir(parents=True, exist_ok=True)
    models = sorted(args.zoo.rglob("*.onnx"))
    failed = 0
    for i, model in enumerate(models):
        rel = model.relative_to(args.zoo)
        exported = args.tmp / f"model{i}.onnx"
        exported.unlink(missing_ok=True)
        proc = subprocess.run([args.tool, str(model), "--emit=onnx", "-o", str(exported)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            errors = [ln for ln in proc.stderr.splitlines() if "error:" in ln]
            print(f"FAIL  {rel}  export: {errors[0] if errors else last_line(proc.stderr)}")
            failed += 1
            continue
        proc = subprocess.run([sys.executable, str(args.utils / "ort_compare.py"),
                               str(model), str(exported), "--exact"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"FAIL  {rel}  compare: {last_line(proc.stdout + proc.stderr)}")
            failed += 1
            continue
        print(f"PASS  {rel}  ({last_line(proc.stdout.splitlines()[0])})")
    print(f"{len(models) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
