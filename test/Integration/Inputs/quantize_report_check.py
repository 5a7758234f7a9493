"""--onnx-quantize="report=" on the default model, checked independently.

Usage: quantize_report_check.py --tool TOOL --utils UTILS --work DIR
           [--calib 32] [--samples 8]

1. The default model (<build>/models/digits_cnn.onnx, made in WORK with
   utils/make_default_model.py when missing); calibration samples are the
   first --calib held-out images, report samples the next --samples (.npy).
2. TOOL model --onnx-fold-batchnorm --onnx-calibrate="data=C" --onnx-quantize=
   "report=r.json report-data=R" (and report=r.txt), plus --emit=onnx of the
   folded float graph and of the quantized graph.
3. Checks, one PASS|FAIL line each:
   - layers: every Conv/Gemm/MatMul of the model is a reported layer with a
     finite weight and activation SQNR, and nothing else is listed float;
   - sorted: the layers come worst (lowest activation SQNR) first;
   - weights: each weight SQNR equals numpy's symmetric per-channel int8
     quantization of the folded float weights (round half to even), within
     0.01 dB;
   - activations: each activation SQNR equals the one computed from ONNX
     Runtime running the folded float model and our exported QDQ model on the
     same samples (the layer's output after its DequantizeLinear against the
     float tensor it stands for: the Relu's output when the Relu was folded),
     within 0.1 dB (ORT and our code may round an element differently);
   - local: each local SQNR equals the one computed from ORT on our QDQ
     model alone (the tensor before the layer's output QuantizeLinear,
     through the folded Relu, against its DequantizeLinear), within 0.1 dB;
   - summary: the one-line summary is on stderr, and the table lists the
     same layers.
Exit 1 on a FAIL.
"""
import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np


def sqnr(x, xq):
    x = np.concatenate([a.ravel() for a in x]).astype(np.float64)
    xq = np.concatenate([a.ravel() for a in xq]).astype(np.float64)
    noise = np.linalg.norm(x - xq)
    return math.inf if noise == 0 else 20 * math.log10(np.linalg.norm(x) / noise)


def run(args, *argv):
    p = subprocess.run([str(args.tool), *map(str, argv)], capture_output=True, text=True)
    if p.returncode != 0:
        print(f"FAIL  {' '.join(map(str, argv))}: {p.stderr.strip()}")
        sys.exit(1)
    return p.stderr


def with_outputs(model, names):
    """The model with `names` as extra graph outputs (shapes left to ORT)."""
    import onnx
    m = onnx.load(str(model))
    have = {o.name for o in m.graph.output}
    for n in names:
        if n not in have:
            m.graph.output.append(onnx.ValueInfoProto(name=n))
    return m.SerializeToString()


def ort_run(model_bytes, names, samples):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"])
    feed = sess.get_inputs()[0].name
    return [sess.run(names, {feed: x}) for x in samples]


def report_line(ok, what):
    print(f"{'PASS' if ok else 'FAIL'}  {what}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--utils", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--calib", type=int, default=32)
    ap.add_argument("--samples", type=int, default=8)
    args = ap.parse_args()
    import onnx
    from onnx import numpy_helper

    sys.path.insert(0, str(args.utils))
    import qdq_compare

    work = args.work
    model, images = qdq_compare.default_model(args.tool, args.utils, work)
    images = images.astype(np.float32)
    calib, rep = work / "calib", work / "report-data"
    calib.mkdir(parents=True)
    rep.mkdir()
    for k in range(args.calib):
        np.save(calib / f"{k:03d}.npy", images[k:k + 1])
    samples = [images[k:k + 1] for k in range(args.calib, args.calib + args.samples)]
    for k, x in enumerate(samples):
        np.save(rep / f"{k:03d}.npy", x)

    passes = [model, "--onnx-fold-batchnorm", f"--onnx-calibrate=method=minmax data={calib} quiet=true"]
    stderr = run(args, *passes, f"--onnx-quantize=report={work / 'r.json'} report-data={rep}",
                 "-o", work / "q.mlir")
    run(args, *passes, f"--onnx-quantize=report={work / 'r.txt'} report-data={rep} quiet=true",
        "--emit=onnx", "-o", work / "q.onnx")
    run(args, model, "--onnx-fold-batchnorm", "--emit=onnx", "-o", work / "float.onnx")
    report = json.loads((work / "r.json").read_text())
    layers = {l["node"]: l for l in report["layers"]}
    print((work / "r.txt").read_text())

    ok = True
    fmodel = onnx.load(str(work / "float.onnx"))
    wanted = [n for n in fmodel.graph.node if n.op_type in ("Conv", "Gemm", "MatMul")]
    finite = [n.name for n in wanted if n.name in layers
              and isinstance(layers[n.name]["weight_sqnr"], float)
              and isinstance(layers[n.name]["activation_sqnr"], float)
              and math.isfinite(layers[n.name]["weight_sqnr"])
              and math.isfinite(layers[n.name]["activation_sqnr"])]
    ok &= report_line(len(finite) == len(wanted) and not report["float_ops"]
                      and report["activations"]["samples"] == args.samples,
                      f"layers: {len(finite)}/{len(wanted)} Conv/Gemm/MatMul reported with "
                      f"finite weight and activation SQNR ({', '.join(finite)}); "
                      f"{len(report['float_ops'])} float ops; "
                      f"{report['activations']['samples']} samples")
    acts = [l["activation_sqnr"] for l in report["layers"]]
    ok &= report_line(acts == sorted(acts), "sorted: worst activation SQNR first")

    # Weights: numpy's symmetric per-channel int8 of the folded float weights.
    inits = {t.name: numpy_helper.to_array(t) for t in fmodel.graph.initializer}
    for n in fmodel.graph.node:
        if n.op_type == "Constant":
            inits[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    worst = 0.0
    for n in wanted:
        w = inits[n.input[1]].astype(np.float32)
        axis = 0 if n.op_type == "Conv" else (
            0 if any(a.name == "transB" and a.i for a in n.attribute) else 1)
        wm = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        scale = (np.abs(wm).max(axis=1) / np.float32(127)).astype(np.float32)
        scale[scale == 0] = 1
        q = np.clip(np.rint(wm / scale[:, None]), -127, 127)
        dq = (q * scale[:, None]).astype(np.float32)
        worst = max(worst, abs(sqnr([wm], [dq]) - layers[n.name]["weight_sqnr"]))
    ok &= report_line(worst < 0.01, f"weights: per-channel int8 SQNR as numpy's within "
                      f"0.01 dB (max difference {worst:.2g} dB)")

    # Activations: ORT on the float model and on our QDQ model.
    qmodel = onnx.load(str(work / "q.onnx"))
    consumers = {}
    for node in qmodel.graph.node:
        for i in node.input:
            consumers.setdefault(i, []).append(node)
    qlayers = [n for n in qmodel.graph.node if n.op_type in ("Conv", "Gemm", "MatMul")]
    ftensors, qtensors, pretensors = [], [], []
    for fnode, qnode in zip(wanted, qlayers):
        out = fnode.output[0]
        relu = [c for c in fmodel.graph.node if out in c.input]
        if layers[fnode.name].get("folded") and relu:
            out = relu[0].output[0]
        q = [c for c in consumers[qnode.output[0]] if c.op_type == "QuantizeLinear"][0]
        dq = [c for c in consumers[q.output[0]] if c.op_type == "DequantizeLinear"][0]
        ftensors.append(out)
        qtensors.append(dq.output[0])
        pretensors.append(qnode.output[0])
    fvals = ort_run(with_outputs(work / "float.onnx", ftensors), ftensors, samples)
    qvals = ort_run(with_outputs(work / "q.onnx", qtensors + pretensors),
                    qtensors + pretensors, samples)
    worst = 0.0
    for k, fnode in enumerate(wanted):
        ours = layers[fnode.name]["activation_sqnr"]
        theirs = sqnr([v[k] for v in fvals], [v[k] for v in qvals])
        print(f"      {fnode.name}: ours {ours:.3f} dB, from ORT {theirs:.3f} dB")
        worst = max(worst, abs(ours - theirs))
    worst_local = 0.0
    for k, fnode in enumerate(wanted):
        pre = [v[len(wanted) + k] for v in qvals]
        if layers[fnode.name].get("folded"):
            pre = [np.maximum(p, 0) for p in pre]
        ours = layers[fnode.name]["local_sqnr"]
        theirs = sqnr(pre, [v[k] for v in qvals])
        print(f"      {fnode.name} local: ours {ours:.3f} dB, from ORT {theirs:.3f} dB")
        worst_local = max(worst_local, abs(ours - theirs))
    ok &= report_line(worst < 0.1, f"activations: SQNR as computed from ONNX Runtime (float "
                      f"model vs our QDQ model, {args.samples} samples) within 0.1 dB "
                      f"(max difference {worst:.2g} dB)")

    ok &= report_line(worst_local < 0.1, f"local: SQNR as computed from ONNX Runtime (our "
                      f"QDQ model) within 0.1 dB (max difference {worst_local:.2g} dB)")

    table = (work / "r.txt").read_text()
    ok &= report_line("onnx-quantize: " in stderr and "report in" in stderr
                      and all(n.name in table for n in wanted),
                      f"summary: {stderr.strip()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
