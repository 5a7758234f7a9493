"""16-bit activations (`--onnx-quantize="activations=u16|s16"`) against ONNX
Runtime (the .venv-ortq python):

  qdq16_check.py --tool TOOL --runner runner.c --work DIR
      [--activations u16|s16] [--weights s8|s16] [--calib 8] [--samples 8]

On a CNN (qdq_import_check.py's: Conv, Relu, MaxPool, Add, Concat,
GlobalAveragePool, Gemm, MatMul), calibrated with method=minmax on --calib
seeded normal inputs by us and by ONNX Runtime's quantize_static (QDQ,
activations QUInt16/QInt16, weights QInt8 or QInt16 per channel, MinMax:
what ORT calls A16W8 and A16W16):
  - params: the scales and zero points of the activations' 16-bit
    QuantizeLinear ops, as sorted lists: zero points equal ORT's, scales
    within 1e-6 relative (the calibration runs the float model natively:
    a range's last bits can differ);
  - weights: the weights' quantized values and scales (sorted by shape)
    equal ORT's (both widen a weight scale that would overflow the int32
    bias);
  - ort-ours: ONNX Runtime running our exported model (com.microsoft 16-bit
    Q/DQ in opset 17) against our native object, on --samples other inputs:
    max difference in output steps (the output DequantizeLinear's scale);
  - ort-ort: ONNX Runtime running its own model against our native object,
    the same;
  - sqnr: the native 16-bit output's SQNR against the float model, and the
    8-bit one's (u8/s8), on the calibration inputs (whose ranges clip
    nothing: the rounding alone; on other inputs the clipping of ranges
    from 8 samples dominates both); with 16-bit weights too it must be 30
    dB better at least (with 8-bit weights their error dominates: printed,
    not checked).
Prints PASS/FAIL lines; exit 1 on a FAIL. Steps: PASS within --max-steps
(default 4; float arithmetic between the Q/DQ pairs rounds in another order,
and a 16-bit step is 1/65535 of a range, so the order shows).
"""
import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "utils"))
from tensors import sqnr  # noqa: E402


def run(cmd):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{p.stderr}")
    return p




def activation_params(model):
    """Sorted (scale, zero point) of the 16-bit QuantizeLinear ops of
    activations (not of constants)."""
    from onnx import numpy_helper
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    params = []
    for n in model.graph.node:
        if n.op_type == "QuantizeLinear" and n.input[0] not in inits and \
                len(n.input) > 2 and inits[n.input[2]].dtype in (np.uint16, np.int16):
            params.append((float(np.float32(inits[n.input[1]])), int(inits[n.input[2]])))
    return sorted(params)


def weight_params(model):
    """(quantized weights, scales) of the DequantizeLinear ops of 8/16-bit
    initializers with more than one dimension, sorted by shape and values."""
    from onnx import numpy_helper
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    weights = []
    for n in model.graph.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in inits and \
                inits[n.input[0]].ndim > 1:
            weights.append((inits[n.input[0]], np.asarray(inits[n.input[1]], np.float32)))
    return sorted(weights, key=lambda w: (w[0].shape, w[0].tobytes()))


def output_step(model):
    """The scale of the DequantizeLinear that makes the output, through
    Reshape/Flatten/Softmax-free tails: our CNN ends in Q/DQ."""
    from onnx import numpy_helper
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}
    node = producer[model.graph.output[0].name]
    while node.op_type != "DequantizeLinear":
        node = producer[node.input[0]]
    return float(inits[node.input[1]])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--activations", choices=["u16", "s16"], default="u16")
    ap.add_argument("--weights", choices=["s8", "s16"], default="s8")
    ap.add_argument("--calib", type=int, default=8)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--max-steps", type=float, default=4)
    args = ap.parse_args()
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod,
                                          QuantFormat, QuantType, quantize_static)
    import qdq_import_check

    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    model = work / "cnn.onnx"
    qdq_import_check.make_model(str(model), avgpool=False)
    rng = np.random.default_rng(0)
    shape = [d.dim_value for d in onnx.load(str(model)).graph.input[0].type.tensor_type.shape.dim]
    cal = work / "calibration"
    cal.mkdir(exist_ok=True)
    calib = [rng.standard_normal(shape).astype(np.float32) for _ in range(args.calib)]
    for i, x in enumerate(calib):
        np.save(cal / f"{i:03d}.npy", x)
    xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(args.samples)]

    # Ours: the exported 16-bit model, and native objects (16 and 8 bits).
    calibrate = f"--onnx-calibrate=data={cal} method=minmax quiet=true"
    ours_onnx = work / "ours16.onnx"
    quantize16 = (f"--onnx-quantize=activations={args.activations} weights={args.weights} "
                  "quiet=true")
    run([args.tool, model, calibrate, quantize16, "--emit=onnx", "-o", ours_onnx])
    exes = {}
    for bits, quantize in (("16", quantize16), ("8", "--onnx-quantize=quiet=true")):
        entry = f"cnn{bits}"
        run([args.tool, model, calibrate, quantize,
             "--emit=obj", f"--entry={entry}", "-o", work / f"{entry}.o"])
        run(["cc", "-std=c99", "-O2", f"-DONNXQ_MODEL={entry}", "-include",
             work / f"{entry}.h", args.runner, work / f"{entry}.o", "-o",
             work / f"run-{entry}", "-lm"])
        exes[bits] = work / f"run-{entry}"

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.data = iter(calib)

        def get_next(self):
            x = next(self.data, None)
            return None if x is None else {"x": x}

    theirs_onnx = work / "ort16.onnx"
    quantize_static(str(model), str(theirs_onnx), Reader(), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt16 if args.activations == "u16"
                    else QuantType.QInt16,
                    weight_type=QuantType.QInt16 if args.weights == "s16"
                    else QuantType.QInt8, per_channel=True,
                    calibrate_method=CalibrationMethod.MinMax)
    ours, theirs = onnx.load(str(ours_onnx)), onnx.load(str(theirs_onnx))

    failed = False

    def report(ok, what, detail):
        nonlocal failed
        failed |= not ok
        print(f"{'PASS' if ok else 'FAIL'}  {what}  {detail}")

    a, b = activation_params(ours), activation_params(theirs)
    close = len(a) == len(b) and all(
        za == zb and abs(sa - sb) <= 1e-6 * sb for (sa, za), (sb, zb) in zip(a, b))
    worst = max((abs(sa - sb) / sb for (sa, _), (sb, _) in zip(a, b)), default=0)
    report(close and len(a) > 0, "params",
           f"{len(a)} activation QuantizeLinear ({len(b)} in ORT's): zero points "
           f"{'equal' if all(x[1] == y[1] for x, y in zip(a, b)) else 'differ'}, "
           f"scales within {worst:.2g} relative")
    wa, wb = weight_params(ours), weight_params(theirs)
    same = len(wa) == len(wb) and all(
        qa.dtype == qb.dtype and np.array_equal(qa, qb) and np.array_equal(sa, sb)
        for (qa, sa), (qb, sb) in zip(wa, wb))
    report(same and len(wa) > 0, "weights",
           f"{len(wa)} quantized weights ({len(wb)} in ORT's), "
           f"{wa[0][0].dtype if wa else '-'}: values and scales "
           f"{'equal' if same else 'differ'}")

    session = lambda m: ort.InferenceSession(m.SerializeToString(),
                                             providers=["CPUExecutionProvider"])
    s_ours, s_theirs = session(ours), session(theirs)
    s_float = session(onnx.load(str(model)))
    step = output_step(ours)
    inp, outdir = work / "in.npy", work / "out"
    outdir.mkdir(exist_ok=True)
    worst = {"ort-ours": 0.0, "ort-ort": 0.0}
    ys = {"float": [], "16": [], "8": []}
    for x in calib:
        np.save(inp, x)
        for bits, exe in exes.items():
            run([exe, "--inputs", inp, "--outputs-dir", outdir])
            ys[bits].append(np.load(outdir / "output_0.npy").ravel())
        ys["float"].append(s_float.run(None, {"x": x})[0].ravel())
    for x in xs:
        np.save(inp, x)
        native = {}
        for bits, exe in exes.items():
            run([exe, "--inputs", inp, "--outputs-dir", outdir])
            native[bits] = np.load(outdir / "output_0.npy")
        worst["ort-ours"] = max(worst["ort-ours"], float(
            np.max(np.abs(s_ours.run(None, {"x": x})[0] - native["16"]))) / step)
        worst["ort-ort"] = max(worst["ort-ort"], float(
            np.max(np.abs(s_theirs.run(None, {"x": x})[0] - native["16"]))) / step)
    for what, steps in worst.items():
        model_name = "our exported model" if what == "ort-ours" else "its own model"
        report(steps <= args.max_steps, what,
               f"ONNX Runtime on {model_name} vs our native object, {args.samples} inputs: "
               f"max {steps:.2f} output steps (step {step:.3g})")
    ref = np.concatenate(ys["float"])
    s16, s8 = sqnr(ref, np.concatenate(ys["16"])), sqnr(ref, np.concatenate(ys["8"]))
    detail = (f"against float on the {args.calib} calibration inputs: 16-bit {s16:.1f} dB, "
              f"8-bit {s8:.1f} dB")
    if args.weights == "s16":
        report(s16 >= s8 + 30, "sqnr", detail)
    else:
        print(f"INFO  sqnr  {detail} (8-bit weights bound both)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
