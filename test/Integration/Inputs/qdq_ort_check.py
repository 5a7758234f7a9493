"""Our QDQ model in ONNX Runtime vs our native object of the same quantization.

Usage: qdq_ort_check.py --tool TOOL --runner runner.c --utils UTILS --zoo ZOO
           --work DIR [--calib 8] [--samples 32]
           [--models digits,mnist,resnet8,squeezenet]

Per model:
  1. calibration samples (--calib) and disjoint comparison samples (--samples)
     as .npy: digits = the default model's held-out images (first C for
     calibration, the next S for comparison); the zoo's mnist (t10k), resnet8
     (CIFAR-10 test_jpg) and squeezenet (ImageNet val1300): real inputs spread
     over the data set, alternately for calibration and comparison (zoo
     preprocessing, utils/zoo_data.py);
  2. TOOL model --onnx-fold-batchnorm --onnx-calibrate="method=minmax save=R"
     --onnx-quantize --emit=onnx -o q.onnx           (activations u8, s8
     per-channel weights: the defaults);
  3. TOOL model --onnx-fold-batchnorm --onnx-annotate-ranges="file=R"
     --onnx-quantize --emit=obj, linked with the runner (same ranges);
  4. onnx.checker.check_model(q.onnx) with this python's onnx (Debian's 1.12);
  5. ONNX Runtime on q.onnx vs the native object on the comparison samples.
The step is the scale of the output's DequantizeLinear (utils/qdq_compare.py
output_step; through a final Softmax for resnet8 and squeezenet). Prints per model
`checker OK  NAME` and
`PASS|FAIL  NAME  N elements: within one step (scale S, DequantizeLinear D
[via ...]) P %, exactly equal E %, max M steps, top-1 agrees A/S`;
PASS needs >= 99 % within one step. Exit 1 on a FAIL.

The default model is <build>/models/digits_cnn.onnx (written by
scripts/setup.sh with utils/make_default_model.py; <build> = the tool's
../..); when it is missing it is made in WORK with make_default_model.py.
"""
import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np


def digits(args, work):
    import qdq_compare
    model, images = qdq_compare.default_model(args.tool, args.utils, work)
    images = images.astype(np.float32)
    xs = [images[i:i + 1] for i in range(args.calib + args.samples)]
    return model, xs[:args.calib], xs[args.calib:]


def zoo(path, spread_items, tensor):
    """A zoo model with interleaved (so disjoint) calibration and comparison
    inputs spread over its data set."""
    def load(args, work):
        n = 2 * (args.calib + args.samples)
        xs = [tensor(item) for item in spread_items(args.zoo, n)]
        return args.zoo / path, xs[0::2][:args.calib], xs[1::2][:args.samples]
    return load


def mnist_items(zoo_dir, n):
    import zoo_data
    return list(zoo_data.mnist_images(zoo_dir, n))


def image_items(data, items):
    import zoo_data
    return lambda zoo_dir, n: [p for p, _ in zoo_data.spread(items(zoo_dir), n)]


def image(data, preprocess):
    import zoo_data
    return lambda p: zoo_data.image_tensor(p, data, preprocess)


def se_shuffle(args, work):
    """A MobileNetV3/Paddle-style squeeze-and-excitation block (global
    pooling, 1x1 convolutions on its 1x1 map, HardSigmoid, Mul) then a
    ShuffleNetV2 channel shuffle (Reshape to 5-D, Transpose, Reshape back)
    and a 1x1 convolution; random weights, standard normal inputs."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(1)

    def w(name, shape):
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.3)
                                       .astype(np.float32), name)

    def ints(name, values):
        return numpy_helper.from_array(np.array(values, np.int64), name)
    nodes = [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("GlobalAveragePool", ["r0"], ["g"]),
        helper.make_node("Conv", ["g", "w1", "b1"], ["c1"]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"]),
        helper.make_node("HardSigmoid", ["c2"], ["s"], alpha=0.2, beta=0.5),
        helper.make_node("Mul", ["r0", "s"], ["m"]),
        helper.make_node("Reshape", ["m", "shape5"], ["m5"]),
        helper.make_node("Transpose", ["m5"], ["t5"], perm=[0, 2, 1, 3, 4]),
        helper.make_node("Reshape", ["t5", "shape4"], ["shuffled"]),
        helper.make_node("Conv", ["shuffled", "w3", "b3"], ["y"]),
    ]
    inits = [w("w0", [16, 3, 3, 3]), w("b0", [16]), w("w1", [4, 16, 1, 1]), w("b1", [4]),
             w("w2", [16, 4, 1, 1]), w("b2", [16]), ints("shape5", [1, 2, 8, 12, 12]),
             ints("shape4", [1, 16, 12, 12]), w("w3", [8, 16, 1, 1]), w("b3", [8])]
    graph = helper.make_graph(
        nodes, "se_shuffle",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 12, 12])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 12, 12])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 7
    path = work / "se_shuffle.onnx"
    onnx.save(model, str(path))
    xs = [rng.standard_normal((1, 3, 12, 12)).astype(np.float32)
          for _ in range(args.calib + args.samples)]
    return path, xs[:args.calib], xs[args.calib:]


def models():
    import zoo_data
    return {
        "se_shuffle": se_shuffle,
        "digits": digits,
        "mnist": zoo("mnist/models/mnist-cntk-opset7.onnx", mnist_items,
                     zoo_data.mnist_tensor),
        "resnet8": zoo("cifar10/models/mlperf_tiny_resnet8_fp32.onnx",
                       image_items("cifar10", zoo_data.cifar_items),
                       image("cifar10", "raw")),
        "squeezenet": zoo("imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx",
                          image_items("imagenet", zoo_data.imagenet_val_items),
                          image("imagenet", "bgr_minus_mean")),
    }


def check(name, model, calib, samples, args, work):
    import onnx
    import qdq_compare as qc
    cdir = work / "calib"
    cdir.mkdir(parents=True)
    for k, x in enumerate(calib):
        np.save(cdir / f"{k:03d}.npy", x)
    ranges, qmodel = work / "ranges.json", work / "q.onnx"
    quant = "--onnx-quantize=activations=u8 weights=s8 per-channel=true"
    p = subprocess.run([str(args.tool), str(model), "--onnx-fold-batchnorm",
                        f"--onnx-calibrate=data={cdir} method=minmax quiet=true "
                        f"save={ranges}", quant, "--emit=onnx", "-o", str(qmodel)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f"FAIL  {name}  quantize/export failed: {p.stderr.strip()}")
        return False
    onnx.checker.check_model(onnx.load(str(qmodel)))
    print(f"checker OK  {name}  (onnx {onnx.__version__})")
    exe = qc.build_runner(args.tool, model, ["--onnx-fold-batchnorm",
                                             f"--onnx-annotate-ranges=file={ranges}",
                                             quant], work, name, args.runner)
    ours = [qc.run_native(exe, x, work) for x in samples]
    ref = qc.ort_run(qmodel, samples)
    step, dq, via = qc.output_step(qmodel)
    if step is None:
        print(f"FAIL  {name}  output not produced by a DequantizeLinear (path {via})")
        return False
    a = qc.agreement(ours, ref, step)
    top1 = sum(int(np.argmax(o) == np.argmax(r)) for o, r in zip(ours, ref))
    ok = a["within"] >= 0.99
    how = f"DequantizeLinear {dq}" + (f" via {'/'.join(via)}" if via else "")
    print(f"{'PASS' if ok else 'FAIL'}  {name}  {a['n']} elements: within one step "
          f"(scale {step:.4g}, {how}) {100 * a['within']:.2f} %, exactly equal "
          f"{100 * a['exact']:.2f} %, max {a['max_steps']:.3g} steps, "
          f"top-1 agrees {top1}/{len(samples)}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--utils", required=True, type=Path)
    ap.add_argument("--zoo", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--calib", type=int, default=8)
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--models", default="digits,resnet8")
    args = ap.parse_args()
    sys.path.insert(0, str(args.utils))
    ok = True
    for name in args.models.split(","):
        work = args.work / name
        work.mkdir(parents=True)
        model, calib, samples = models()[name](args, work)
        ok &= check(name, model, calib, samples, args, work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
