"""A model with 4-bit (or other weight-only) weights against ONNX Runtime (the
.venv-ortq python):

  weights4_check.py FLOAT.onnx QUANT.onnx --work DIR [--shape 1x16x64]
      [--samples N] [--sqnr-floor DB] [--no-checker] [--same-weights ORT.onnx]

QUANT.onnx is FLOAT.onnx quantized (ours: --onnx-quantize ... --emit=onnx;
or ORT's MatMulNBitsQuantizer). Checks, printing PASS/FAIL lines:
  - model: onnx.checker (full_check, with shape inference) accepts QUANT.onnx
    (--no-checker: ORT's MatMulNBitsQuantizer raises an opset 17 model to 21
    and keeps its ReduceMean's opset 17 axes attribute, which the checker
    refuses and ORT runs); prints its ai.onnx opset and its DequantizeLinear
    count by weight type and blocking;
  - weights (--same-weights): every DequantizeLinear of constant weights
    has the same integers and zero points (0 when absent), and its scales
    are equal as float32, as the one
    at the same place in ORT.onnx (an ORT quantizer's model of FLOAT.onnx);
  - sqnr: ONNX Runtime runs both on N seeded normal inputs; the SQNR of
    QUANT's outputs against FLOAT's (20 log10 |y| / |y - y_q|) must reach
    the floor (0: printed, not checked).
Writes DIR/input_0.npy and DIR/output_0.npy (ORT on QUANT.onnx, first input)
for the native runner. Exits 1 on a FAIL.
"""
import argparse
import collections
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "utils"))
from tensors import sqnr  # noqa: E402

TYPES = {3: "int8", 2: "uint8", 22: "int4", 21: "uint4", 6: "int32"}


def describe(model):
    inits = {i.name: i for i in model.graph.initializer}
    kinds = collections.Counter()
    for n in model.graph.node:
        if n.op_type != "DequantizeLinear" or n.input[0] not in inits:
            continue
        block = next((a.i for a in n.attribute if a.name == "block_size"), 0)
        kind = TYPES.get(inits[n.input[0]].data_type, "other")
        kinds[kind + (f" blocks of {block}" if block else "")] += 1
    for n in model.graph.node:  # a codebook's indices: Cast of a 4/8-bit constant
        if n.op_type == "Cast" and n.input[0] in inits:
            kinds["codebook " + TYPES.get(inits[n.input[0]].data_type, "other")] += 1
    other = collections.Counter(n.op_type for n in model.graph.node
                                if n.domain == "com.microsoft")
    return ", ".join(f"{k}: {v}" for k, v in sorted((kinds + other).items())) or "none"


def weight_dequantizers(model):
    """(integers, scales) of each DequantizeLinear of a constant, in the
    graph order of the ops that read them (ORT puts its DequantizeLinears
    elsewhere than ours)."""
    from onnx import numpy_helper
    inits = {i.name: i for i in model.graph.initializer}
    place = {}
    for i, n in enumerate(model.graph.node):
        for name in n.input:
            place.setdefault(name, i)
    dqs = [n for n in model.graph.node
           if n.op_type == "DequantizeLinear" and n.input[0] in inits]
    dqs.sort(key=lambda n: place.get(n.output[0], -1))
    def zero_point(n):
        scale = numpy_helper.to_array(inits[n.input[1]])
        if len(n.input) > 2 and n.input[2]:
            return numpy_helper.to_array(inits[n.input[2]]).astype(np.int64)
        return np.zeros(scale.shape, np.int64)
    return [(numpy_helper.to_array(inits[n.input[0]]).astype(np.int64),
             numpy_helper.to_array(inits[n.input[1]]), zero_point(n)) for n in dqs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("float_model")
    ap.add_argument("quant_model")
    ap.add_argument("--work", required=True)
    ap.add_argument("--shape", help="input shape (default: the model's, symbolic dims 1)")
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--sqnr-floor", type=float, default=0.0)
    ap.add_argument("--no-checker", action="store_true")
    ap.add_argument("--same-weights", metavar="ORT.onnx")
    args = ap.parse_args()

    import onnx
    import onnxruntime as ort

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    quant = onnx.load(args.quant_model)
    ok = True
    try:
        if not args.no_checker:
            onnx.checker.check_model(quant, full_check=True)
        opset = max(o.version for o in quant.opset_import if o.domain in ("", "ai.onnx"))
        checked = "not checked" if args.no_checker else "onnx.checker"
        print(f"PASS  model  {checked}: opset {opset}, weights {describe(quant)}")
    except Exception as e:  # noqa: BLE001
        print(f"FAIL  model  onnx.checker: {str(e).splitlines()[0]}")
        ok = False

    if args.same_weights:
        ours = weight_dequantizers(quant)
        theirs = weight_dequantizers(onnx.load(args.same_weights))
        shapes = all(x.shape == y.shape for a, b in zip(ours, theirs)
                     for x, y in zip(a, b))
        differ = sum(int(np.sum(x != y)) for a, b in zip(ours, theirs)
                     for x, y in zip(a, b) if x.shape == y.shape)
        good = len(ours) == len(theirs) and shapes and differ == 0
        ok &= good
        print(f"{'PASS' if good else 'FAIL'}  weights  {len(ours)} dequantized "
              f"weights, {len(theirs)} in ORT's; integers, scales and zero points differ "
              f"in {differ}")

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    f = ort.InferenceSession(args.float_model, opts, providers=["CPUExecutionProvider"])
    q = ort.InferenceSession(args.quant_model, opts, providers=["CPUExecutionProvider"])
    inp = f.get_inputs()[0]
    shape = ([int(d) for d in args.shape.split("x")] if args.shape else
             [d if isinstance(d, int) else 1 for d in inp.shape])
    rng = np.random.default_rng(0)
    ys, yqs = [], []
    for i in range(args.samples):
        x = rng.standard_normal(shape).astype(np.float32)
        y = f.run(None, {inp.name: x})[0]
        yq = q.run(None, {q.get_inputs()[0].name: x})[0]
        if i == 0:
            np.save(work / "input_0.npy", x)
            np.save(work / "output_0.npy", yq)
        ys.append(y)
        yqs.append(yq)
    db = sqnr(np.concatenate([y.ravel() for y in ys]),
              np.concatenate([y.ravel() for y in yqs]))
    floor = f" (floor {args.sqnr_floor:g} dB)" if args.sqnr_floor else ""
    good = db >= args.sqnr_floor
    print(f"{'PASS' if good else 'FAIL'}  sqnr  ORT on {args.samples} inputs "
          f"{shape}: {db:.1f} dB against float{floor}")
    return 0 if ok and good else 1


if __name__ == "__main__":
    sys.exit(main())
