"""QDQ models written by ONNX Runtime's quantize_static, compiled by us.

Usage (the .venv-ortq python: onnx >= 1.14 and onnxruntime.quantization):
  qdq_import_check.py --tool TOOL --runner runner.c --utils UTILS --work DIR
      [--variants cnn/u8s8-pt,cnn/u8s8-pc,...] [--xfail VARIANT,...]
      [--calib 16] [--samples 32] [--zoo DIR]

MODEL is `cnn` or `cnn-avgpool` (generated, 1.) or a zoo model (`mnist`,
`resnet8`, `squeezenet`: the float model of ../shared/zoo or --zoo after our
`--onnx-fold-batchnorm --emit=onnx`, as bench/accuracy.py gives it to
quantize_static; calibration and comparison samples are distinct real images
of its data set, preprocessed by utils/zoo_data.py).

1. A small float CNN is generated (opset 13, ir_version 8, seeded weights):
     x[1,3,16,16] -> Conv(3->8, 3x3, bias) -> Relu -> MaxPool 2x2 -> a
     a -> Conv(8->8, 3x3, no bias) -> Relu -> b;  Add(a, b) -> c
     Concat(c, b) -> Conv(16->16, 1x1, bias)
     [cnn-avgpool only: -> AveragePool 2x2]
     -> GlobalAveragePool -> Flatten -> Gemm(16->32) -> Relu
     -> MatMul(32->10) -> Add(bias) -> y[1,10]
   Inputs are seeded N(0,1) tensors: --calib for calibration and --samples
   other ones for the comparison.
2. Per variant, utils/ort_quantize.py (quantize_static, QuantFormat.QDQ,
   MinMax) writes q.onnx with activations u8|s8, weights s8, per-tensor (pt)
   or per-channel (pc); saved with ir_version 8.
3. TOOL q.onnx --emit=obj, linked with the runner, runs the comparison
   samples; ONNX Runtime runs q.onnx on them.
4. Agreement within one step of the output's DequantizeLinear scale
   (utils/qdq_compare.py output_step) on >= 99 % of the elements, against
   ORT with its default optimizations (asserted) and, reported only, against
   ORT with ORT_DISABLE_ALL (literal QDQ: DequantizeLinear, float op,
   QuantizeLinear).
Prints per variant
  `PASS|FAIL  VARIANT  N elements: within one step (scale S, ...) P %,
   exactly equal E %, max M steps, top-1 agrees A/S`
or `FAIL  VARIANT  compile failed: <error line>` (VARIANT = MODEL/ACTSWEIGHTS-pt|pc,
MODEL cnn or cnn-avgpool: the same CNN with an AveragePool 2x2 after the
third Conv); a variant named in --xfail
prints XFAIL instead of FAIL (and XPASS instead of PASS, which is a failure:
remove it from --xfail). Then `N passed, N failed, N xfail, N xpass`.
Exit status 1 on a FAIL or an XPASS.
"""
import argparse
import collections
import subprocess
import sys
from pathlib import Path

import numpy as np


def make_model(path, avgpool, seed=0):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.RandomState(seed)

    def w(name, *shape, scale=None):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        s = scale if scale is not None else np.sqrt(2.0 / fan_in)
        return numpy_helper.from_array((rng.randn(*shape) * s).astype(np.float32), name)

    inits = [w("w1", 8, 3, 3, 3), w("b1", 8, scale=0.1), w("w2", 8, 8, 3, 3),
             w("w3", 16, 16, 1, 1), w("b3", 16, scale=0.1),
             w("wg", 32, 16), w("bg", 32, scale=0.1),
             numpy_helper.from_array((rng.randn(32, 10) * 0.25).astype(np.float32), "wm"),
             w("bm", 10, scale=0.1)]
    n = helper.make_node
    nodes = [
        n("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        n("Relu", ["c1"], ["r1"], name="relu1"),
        n("MaxPool", ["r1"], ["a"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        n("Conv", ["a", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        n("Relu", ["c2"], ["b"], name="relu2"),
        n("Add", ["a", "b"], ["c"], name="add1"),
        n("Concat", ["c", "b"], ["cat"], name="concat", axis=1),
        n("Conv", ["cat", "w3", "b3"], ["c3"], name="conv3"),
        *([n("AveragePool", ["c3"], ["p3"], name="avgpool", kernel_shape=[2, 2],
             strides=[2, 2])] if avgpool else []),
        n("GlobalAveragePool", ["p3" if avgpool else "c3"], ["g"], name="gap"),
        n("Flatten", ["g"], ["f"], name="flatten"),
        n("Gemm", ["f", "wg", "bg"], ["h"], name="fc1", transB=1),
        n("Relu", ["h"], ["hr"], name="relu3"),
        n("MatMul", ["hr", "wm"], ["mm"], name="fc2"),
        n("Add", ["mm", "bm"], ["y"], name="fc2_bias"),
    ]
    graph = helper.make_graph(
        nodes, "qdq_import_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="qdq_import_check.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


# Zoo models: path in the zoo, data set, preprocessing (utils/zoo_data.py).
ZOO_MODELS = {
    "mnist": ("mnist/models/mnist-cntk-opset7.onnx", "mnist", "raw"),
    "resnet8": ("cifar10/models/mlperf_tiny_resnet8_fp32.onnx", "cifar10", "raw"),
    "squeezenet": ("imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx",
                   "imagenet", "bgr_minus_mean"),
}


def zoo_tensors(zoo_data, zoo, data, preprocess, n):
    """n real inputs of a zoo data set, spread over it."""
    if data == "mnist":
        return [zoo_data.mnist_tensor(img) for img in zoo_data.mnist_images(zoo, n)]
    files = (zoo_data.cifar_files if data == "cifar10" else zoo_data.imagenet_files)(zoo, n)
    return [zoo_data.image_tensor(p, data, preprocess) for p in files]


def prepare(mname, args, generated):
    """(float model, calibration dir, comparison samples) of MODEL."""
    work = args.work / mname
    work.mkdir(parents=True, exist_ok=True)
    fmodel, cdir = work / "float.onnx", work / "calib"
    if mname in ZOO_MODELS:
        import zoo_data
        path, data, preprocess = ZOO_MODELS[mname]
        subprocess.run([args.tool, args.zoo / path, "--onnx-fold-batchnorm", "--emit=onnx",
                        "-o", fmodel], check=True)
        xs = zoo_tensors(zoo_data, args.zoo, data, preprocess, args.calib + args.samples)
    else:
        make_model(fmodel, avgpool=mname == "cnn-avgpool")
        xs = generated
    cdir.mkdir(exist_ok=True)
    for k, x in enumerate(xs[:args.calib]):
        np.save(cdir / f"{k:03d}.npy", x)
    return fmodel, cdir, xs[args.calib:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--utils", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--variants", default=",".join(
        f"{m}/{v}" for m in ("cnn", "cnn-avgpool")
        for v in ("u8s8-pt", "u8s8-pc", "s8s8-pt", "s8s8-pc")))
    ap.add_argument("--xfail", default="")
    ap.add_argument("--calib", type=int, default=16)
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--zoo", type=Path, help="the zoo (default ../shared/zoo)")
    args = ap.parse_args()
    sys.path.insert(0, str(args.utils))
    import qdq_compare as qc

    import zoo_data
    args.zoo = args.zoo or zoo_data.default_zoo()
    args.work.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(1)
    generated = [rng.randn(1, 3, 16, 16).astype(np.float32)
                 for _ in range(args.calib + args.samples)]

    xfail = set(filter(None, args.xfail.split(",")))
    counts = collections.Counter()
    models = {}
    for variant in args.variants.split(","):
        mname, acts, per = variant.split("/")[0], *variant.split("/")[1].split("-")
        if mname not in models:
            models[mname] = prepare(mname, args, generated)
        fmodel, cdir, samples = models[mname]
        work = args.work / variant
        work.mkdir(parents=True, exist_ok=True)
        qmodel = work / "q.onnx"
        cmd = [sys.executable, str(args.utils / "ort_quantize.py"), str(fmodel), str(cdir),
               str(qmodel), "--activations", acts[:2], "--weights", acts[2:]]
        if per == "pc":
            cmd.append("--per-channel")
        subprocess.run(cmd, check=True, capture_output=True)
        ok, text = False, ""
        try:
            exe = qc.build_runner(args.tool, qmodel, [], work, "q", args.runner)
        except RuntimeError as e:
            text = str(e)
        else:
            ours = [qc.run_native(exe, x, work) for x in samples]
            ref = qc.ort_run(qmodel, samples)
            step, dq, via = qc.output_step(qmodel)
            if step is None:
                text = f"output not produced by a DequantizeLinear (path {via})"
            else:
                a = qc.agreement(ours, ref, step)
                top1 = sum(int(np.argmax(o) == np.argmax(r)) for o, r in zip(ours, ref))
                ok = a["within"] >= 0.99
                how = f"DequantizeLinear {dq}" + (f" via {'/'.join(via)}" if via else "")
                lit = qc.agreement(ours, qc.ort_run(qmodel, samples, optimize=False), step)
                text = (f"{a['n']} elements: within one step (scale {step:.4g}, {how}) "
                        f"{100 * a['within']:.2f} %, exactly equal {100 * a['exact']:.2f} %, "
                        f"max {a['max_steps']:.3g} steps, top-1 agrees {top1}/{len(samples)}; "
                        f"vs ORT without graph optimizations: within {100 * lit['within']:.2f} %, "
                        f"exactly equal {100 * lit['exact']:.2f} %, max {lit['max_steps']:.3g} steps")
        status = ("XPASS" if ok else "XFAIL") if variant in xfail else \
                 ("PASS" if ok else "FAIL")
        counts[status] += 1
        print(f"{status}  {variant}  {text}", flush=True)
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['XFAIL']} xfail, "
          f"{counts['XPASS']} xpass")
    return 1 if counts["FAIL"] or counts["XPASS"] else 0


if __name__ == "__main__":
    sys.exit(main())
