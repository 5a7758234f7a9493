"""Our mode=dynamic against ONNX Runtime's quantize_dynamic (the .venv-ortq
python):

  dynamic_ort_check.py FLOAT.onnx OURS.onnx --work DIR [--per-channel]
      [--weights s8|u8] [--shape 1x16x64] [--samples N]

OURS.onnx is FLOAT.onnx after `--onnx-quantize="mode=dynamic ..."
--emit=onnx`. quantize_dynamic writes DIR/ort.onnx from FLOAT.onnx with the
same settings, then:
  - structure: the same count of each op type in both (but ORT's Reshapes
    of a Conv bias, which ours has reshaped offline);
  - integers: each ConvInteger / MatMulInteger (in graph order) has the same
    quantized weights and weight zero points, and its weight scales are
    equal as float32 (ORT's per-tensor scale against ours);
  - outputs: ONNX Runtime runs both models on N seeded normal inputs;
    max |ours - ORT| must be 0 (the same ops on the same values);
  - SQNR of ORT's dynamic outputs against the float model's, printed (not
    checked) for the accuracy table.
It writes DIR/input_0.npy and DIR/output_0.npy (ORT's dynamic model on the
first input) for the native runner. Prints PASS/FAIL lines; exits 1 on a FAIL.
"""
import argparse
import collections
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "utils"))
from tensors import sqnr  # noqa: E402


def integer_ops(model):
    from onnx import numpy_helper
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    producers = {o: n for n in model.graph.node for o in n.output}
    ops = []
    for n in model.graph.node:
        if n.op_type not in ("ConvInteger", "MatMulInteger"):
            continue
        # The weight scale: the other input of the Mul that takes s_x.
        consumer = [m for m in model.graph.node if n.output[0] in m.input][0]
        rescale = [m for m in model.graph.node if consumer.output[0] in m.input][0]
        scales_mul = producers[[i for i in rescale.input if i != consumer.output[0]][0]]
        w_scale = [inits[i] for i in scales_mul.input if i in inits][0]
        ops.append((n.name or n.op_type, n.op_type, inits[n.input[1]],
                    inits[n.input[3]] if len(n.input) > 3 else None, w_scale))
    return ops




def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("float_model")
    ap.add_argument("ours")
    ap.add_argument("--work", required=True)
    ap.add_argument("--per-channel", action="store_true")
    ap.add_argument("--weights", choices=["s8", "u8"], default="s8")
    ap.add_argument("--shape", help="input shape, e.g. 1x16x64 (default: the model's, symbolic dims 1)")
    ap.add_argument("--samples", type=int, default=8)
    args = ap.parse_args()
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    theirs_path = work / "ort.onnx"
    quantize_dynamic(args.float_model, str(theirs_path), per_channel=args.per_channel,
                     weight_type=QuantType.QUInt8 if args.weights == "u8" else QuantType.QInt8)
    theirs, ours = onnx.load(str(theirs_path)), onnx.load(args.ours)
    failed = False

    def report(ok, what, detail):
        nonlocal failed
        failed |= not ok
        print(f"{'PASS' if ok else 'FAIL'}  {what}  {detail}")

    def count(m):
        # ORT reshapes a Conv's bias when the model runs; ours is reshaped
        # offline: Reshapes of initializers are not counted.
        inits = {i.name for i in m.graph.initializer}
        return collections.Counter(n.op_type for n in m.graph.node
                                   if not (n.op_type == "Reshape" and n.input[0] in inits))
    report(count(theirs) == count(ours), "structure",
           " ".join(f"{k}:{v}" for k, v in sorted(count(ours).items())))
    a, b = integer_ops(theirs), integer_ops(ours)
    mismatched = [
        name for (name, ta, wa, za, sa), (_, tb, wb, zb, sb) in zip(a, b)
        if ta != tb or wa.dtype != wb.dtype or not np.array_equal(wa, wb)
        or not np.array_equal(np.ravel(za), np.ravel(zb))
        or not np.array_equal(np.ravel(sa).astype(np.float32), np.ravel(sb).astype(np.float32))]
    report(len(a) == len(b) and not mismatched, "integers",
           f"{len(b)} integer ops, {len(a)} in ORT's; weights, zero points and "
           f"scales differ in {len(mismatched)} {mismatched[:3]}")

    session = lambda m: ort.InferenceSession(m.SerializeToString() if not isinstance(m, str) else m,
                                             providers=["CPUExecutionProvider"])
    s_float, s_theirs, s_ours = session(args.float_model), session(theirs), session(ours)
    info = s_float.get_inputs()[0]
    shape = ([int(d) for d in args.shape.split("x")] if args.shape else
             [d if isinstance(d, int) else 1 for d in info.shape])
    rng = np.random.default_rng(0)
    worst, sqnrs = 0.0, []
    for i in range(args.samples):
        x = rng.standard_normal(shape).astype(np.float32)
        y_theirs = s_theirs.run(None, {info.name: x})[0]
        y_ours = s_ours.run(None, {info.name: x})[0]
        worst = max(worst, float(np.max(np.abs(y_theirs - y_ours))))
        sqnrs.append(sqnr(s_float.run(None, {info.name: x})[0], y_theirs))
        if i == 0:
            np.save(work / "input_0.npy", x)
            np.save(work / "output_0.npy", y_theirs)
    report(worst == 0.0, "outputs",
           f"ONNX Runtime on both, {args.samples} inputs {shape}: max |ours - ORT| {worst:.3g}")
    print(f"INFO  sqnr  dynamic vs float, mean of {args.samples}: {np.mean(sqnrs):.2f} dB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
