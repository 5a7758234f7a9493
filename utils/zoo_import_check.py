#!/usr/bin/env python3
"""Import every model of the shared model zoo with onnx-quant-opt and re-parse it.

Every `*.onnx` under the zoo folder is imported with `TOOL model.onnx -o TMP/x.mlir`
and the MLIR re-parsed with `TOOL TMP/x.mlir`; one line is printed per model
(PASS/FAIL, time, MLIR size or the first `error:` line). Zoo files are only read,
never copied; the MLIR goes to a temporary directory that is removed.

Zoo folder: --zoo, else $ONNX_QUANT_ZOO, else `<repo>/../shared/zoo`. When it does
not exist the script prints `SKIP: zoo not found at ...` and exits 0 (a machine
without the zoo is not a failure). Exit status 1 when any model fails, 2 on bad
usage.

Run:  .venv/bin/python utils/zoo_import_check.py --tool build/bin/onnx-quant-opt \\
          [--zoo DIR] [--timeout 300]
"""

import argparse
import os
import sys
from pathlib import Path

from tool_check import import_and_reparse

REPO = Path(__file__).resolve().parent.parent


def default_zoo():
    env = os.environ.get("ONNX_QUANT_ZOO")
    return Path(env) if env else REPO.parent / "shared" / "zoo"


def main():
    ap = argparse.ArgumentParser(
        description="Import every *.onnx of the model zoo with onnx-quant-opt.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--tool", required=True, type=Path, help="onnx-quant-opt binary")
    ap.add_argument("--zoo", type=Path, default=None,
                    help="zoo folder (default: $ONNX_QUANT_ZOO or <repo>/../shared/zoo)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per step (300)")
    args = ap.parse_args()

    zoo = (args.zoo or default_zoo()).resolve()
    if not zoo.is_dir():
        print(f"SKIP: zoo not found at {zoo} (set --zoo or ONNX_QUANT_ZOO)")
        return 0
    if not args.tool.is_file():
        print(f"error: tool not found: {args.tool}", file=sys.stderr)
        return 2
    models = sorted(zoo.rglob("*.onnx"))
    if not models:
        print(f"SKIP: no *.onnx models under {zoo}")
        return 0

    failed = 0
    for model in models:
        rel = model.relative_to(zoo)
        r = import_and_reparse(args.tool, model, args.timeout)
        if r.ok:
            print(f"PASS  {rel}  ({r.seconds:.1f} s, {r.mlir_bytes / 1e6:.1f} MB MLIR)",
                  flush=True)
        else:
            failed += 1
            print(f"FAIL  {rel}  {r.stage}: {r.reason}", flush=True)
    print(f"{len(models) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
