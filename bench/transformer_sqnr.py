#!/usr/bin/env python3
"""SQNR against float of each quantization mode on a transformer encoder.

A benchmark of accuracy, not a test. The model is
utils/make_transformer_model.py's encoder (deterministic weights; --blocks,
--dim, --ff, --seq), its input standard normal. For --samples seeded inputs
(not the calibration ones) each variant's output (the 10 logits) is compared
with the float model's, run by ONNX Runtime:

  ours static       --onnx-calibrate (default method, --calib other seeded
                    inputs) then --onnx-quantize (u8/s8, per channel),
                    compiled (--emit=obj) and run by the runner; and the
                    16-bit forms A16W8 and A16W16 (method=minmax)
  ours dynamic      --onnx-quantize="mode=dynamic per-channel=false|true",
                    compiled and run by the runner
  ORT static        quantize_static (QDQ, U8S8, per channel, minmax) on the
                    same calibration inputs, run in ONNX Runtime; and A16W8,
                    A16W16 (QUInt16 activations, QInt8/QInt16 weights)
  ORT dynamic       quantize_dynamic (s8 weights, per_channel False|True)
  ours 4-bit        --onnx-quantize="mode=weight-only weights=s4" per channel
                    (every MatMul/Gemm), s4 and u4 (zero points) in blocks of 32
                    (the MatMuls only, as ORT's), and u8 activations with s4
                    weights (static)
  ORT 4-bit         MatMulNBitsQuantizer (4 bits, blocks of 32, MatMul only;
                    symmetric, and with zero points), run in ONNX Runtime

SQNR = 10 log10(sum y^2 / sum (y - y_q)^2) over all samples' logits, and the
share of samples whose argmax agrees with the float model's.

Run:  .venv/bin/python bench/transformer_sqnr.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c [--samples 64] [--calib 32]
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "utils"))
from tensors import sqnr  # noqa: E402
ORTQ_PYTHON = REPO / ".venv-ortq/bin/python"


def run(cmd):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {p.stderr[-2000:]}")
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--tool", type=Path, default=REPO / "build/bin/onnx-quant-opt")
    ap.add_argument("--runner", type=Path, default=REPO / "tools/onnx-quant-runner/runner.c")
    ap.add_argument("--blocks", type=int, default=2)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--ff", type=int, default=128)
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--samples", type=int, default=64)
    ap.add_argument("--calib", type=int, default=32)
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    import make_transformer_model
    import onnxruntime as ort

    shape = (1, args.seq, args.dim)
    shape_flag = "--input-shape=x:" + "x".join(map(str, shape))
    with tempfile.TemporaryDirectory(prefix="onnxq-tr-sqnr-") as tmp:
        work = Path(tmp)
        model = work / "encoder.onnx"
        make_transformer_model.make_model(str(model), args.blocks, 0, args.dim, args.ff)
        rng = np.random.default_rng(1)
        cal = work / "calibration"
        cal.mkdir()
        for i in range(args.calib):
            np.save(cal / f"{i:03d}.npy", rng.standard_normal(shape).astype(np.float32))
        xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(args.samples)]
        # ORT's quantizers need static shapes to match ours: a fixed-shape copy.
        fixed = work / "fixed.onnx"
        run([args.tool, model, shape_flag, "--emit=onnx", "-o", fixed])

        ours = {
            "ours static (per-ch)": [f"--onnx-calibrate=data={cal} quiet=true",
                                     "--onnx-quantize=quiet=true"],
            "ours static A16W8 (minmax)": [f"--onnx-calibrate=data={cal} method=minmax quiet=true",
                                           "--onnx-quantize=activations=u16 quiet=true"],
            "ours static A16W16 (minmax)": [f"--onnx-calibrate=data={cal} method=minmax quiet=true",
                                            "--onnx-quantize=activations=u16 weights=s16 quiet=true"],
            "ours dynamic per-tensor": ["--onnx-quantize=mode=dynamic per-channel=false quiet=true"],
            "ours dynamic per-ch": ["--onnx-quantize=mode=dynamic quiet=true"],
            "ours weight-only s4 per-ch": ["--onnx-quantize=mode=weight-only weights=s4 quiet=true"],
            "ours weight-only s4 blocks of 32 (MatMul)": [
                "--onnx-quantize=mode=weight-only weights=s4 block-size=32 op-types=MatMul "
                "quiet=true"],
            "ours weight-only u4 blocks of 32 (MatMul)": [
                "--onnx-quantize=mode=weight-only weights=u4 block-size=32 op-types=MatMul "
                "quiet=true"],
            "ours static u8 x s4 (per-ch)": [f"--onnx-calibrate=data={cal} quiet=true",
                                             "--onnx-quantize=weights=s4 quiet=true"],
        }
        exes = {}
        for i, (name, passes) in enumerate(ours.items()):
            obj, exe = work / f"v{i}.o", work / f"run{i}"
            run([args.tool, fixed, *passes, "--emit=obj", f"--entry=v{i}", "-o", obj])
            run([args.cc, "-std=c99", "-O2", f"-DONNXQ_MODEL=v{i}", "-include",
                 work / f"v{i}.h", args.runner, obj, "-o", exe, "-lm"])
            exes[name] = exe
        theirs = {}
        for name, extra in [("ORT static (per-ch)", [str(cal), "--per-channel"]),
                            ("ORT static A16W8", [str(cal), "--per-channel",
                                                  "--activations", "u16"]),
                            ("ORT static A16W16", [str(cal), "--per-channel",
                                                   "--activations", "u16", "--weights", "s16"]),
                            ("ORT dynamic per-tensor", ["-", "--dynamic"]),
                            ("ORT dynamic per-ch", ["-", "--dynamic", "--per-channel"]),
                            ("ORT MatMulNBits 4-bit blocks of 32, symmetric",
                             ["-", "--matmul-4bits", "32", "--format", "qoperator",
                              "--symmetric"]),
                            ("ORT MatMulNBits 4-bit blocks of 32, zero points",
                             ["-", "--matmul-4bits", "32", "--format", "qoperator"])]:
            out = work / f"ort{len(theirs)}.onnx"
            run([ORTQ_PYTHON, REPO / "utils/ort_quantize.py", fixed, extra[0], out, *extra[1:]])
            theirs[name] = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
        reference = ort.InferenceSession(str(fixed), providers=["CPUExecutionProvider"])

        ys = {name: [] for name in [*exes, *theirs]}
        ref = []
        inp, outdir = work / "in.npy", work / "out"
        outdir.mkdir()
        for x in xs:
            ref.append(reference.run(None, {"x": x})[0].reshape(-1))
            np.save(inp, x)
            for name, exe in exes.items():
                run([exe, "--inputs", inp, "--outputs-dir", outdir])
                ys[name].append(np.load(outdir / "output_0.npy").reshape(-1))
            for name, session in theirs.items():
                ys[name].append(session.run(None, {"x": x})[0].reshape(-1))

    print(f"transformer encoder: {args.blocks} blocks, dim {args.dim}, ff {args.ff}, "
          f"{args.seq} tokens; {args.samples} inputs, {args.calib} calibration inputs\n")
    print("| variant | SQNR vs float (dB) | top-1 agreement with float |")
    print("| --- | ---: | ---: |")
    for name, y in ys.items():
        agree = np.mean([np.argmax(a) == np.argmax(b) for a, b in zip(ref, y)])
        print(f"| {name} | {sqnr(np.concatenate(ref), np.concatenate(y)):.2f} | "
              f"{100 * agree:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
