"""Models of opsets 18-22 compiled by us and run against ONNX Runtime.

Usage: newer_opsets.py --tool TOOL --runner runner.c --utils UTILS --work DIR
                       [--zoo ZOO]  (the zoo's models only)

Run with the ONNX Runtime quantization venv's python (onnx 1.17: it writes
and converts opsets up to 22). Two kinds of model:
  - `opset21_forms`: one graph using each form that changed after opset 17
    (ReduceMean/ReduceMax `axes` as an input, Pad `axes`, Resize `axes`,
    Split `num_outputs` with an uneven last part, AveragePool `dilations`,
    Cast `saturate`, QuantizeLinear `output_dtype` without a zero point);
  - `opset18_normalizations`: GroupNormalization-18 (per-group scale),
    InstanceNormalization, Mish, Tile and GatherElements;
  - with --zoo, instead: every zoo model converted to opset 21 by
    onnx.version_converter, as a user would bring an up-to-date model.
Per model one line `PASS|FAIL  NAME  output SHAPE, worst |diff| D (rel R)`,
compared with rtol 1e-4, atol 1e-5 on two seeded random inputs; then
`N passed, N failed`. Exit 1 on a failure.
"""
import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, version_converter

RTOL, ATOL = 1e-4, 1e-5
ZOO_MODELS = [  # (path under the zoo, input shape)
    ("mnist/models/mnist-cntk-opset7.onnx", (1, 1, 28, 28)),
    ("cifar10/models/mlperf_tiny_resnet8_fp32.onnx", (1, 3, 32, 32)),
    ("imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx", (1, 3, 224, 224)),
    ("imagenet/models/mobilenetv2-12-int8.onnx", (1, 3, 224, 224)),
]


def const(name, values, dtype=np.int64):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.array(values, dtype=dtype)))


def opset21_forms():
    nodes = [
        const("qscale", 0.02, np.float32),
        helper.make_node("QuantizeLinear", ["x", "qscale"], ["xq"],
                         output_dtype=TensorProto.INT8, saturate=1),
        helper.make_node("DequantizeLinear", ["xq", "qscale"], ["xd"]),
        const("hw", [2, 3]),
        helper.make_node("ReduceMean", ["xd", "hw"], ["mean"], keepdims=1),
        helper.make_node("Sub", ["xd", "mean"], ["centered"]),
        const("pads", [1, 2, 1, 0]),
        helper.make_node("Pad", ["centered", "pads", "", "hw"], ["padded"]),
        helper.make_node("AveragePool", ["padded"], ["pooled"], kernel_shape=[3, 3],
                         dilations=[1, 1]),
        const("scales", [2.0, 1.5], np.float32),
        helper.make_node("Resize", ["pooled", "", "scales"], ["up"], axes=[2, 3],
                         mode="nearest"),
        helper.make_node("Split", ["up"], ["s0", "s1", "s2"], axis=2, num_outputs=3),
        const("h", [2]),
        helper.make_node("ReduceMax", ["s0", "h"], ["m0"]),
        helper.make_node("ReduceMax", ["s1", "h"], ["m1"]),
        helper.make_node("ReduceMax", ["s2", "h"], ["m2"]),
        helper.make_node("Concat", ["m0", "m1", "m2"], ["cat"], axis=2),
        helper.make_node("Cast", ["cat"], ["y"], to=TensorProto.FLOAT, saturate=1),
    ]
    graph = helper.make_graph(
        nodes, "opset21_forms",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 3, 12])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    onnx.checker.check_model(model, full_check=True)
    return model, (1, 4, 8, 8)


def opset18_normalizations():
    """GroupNormalization-18 (scale and bias per group, spread per channel at
    import), InstanceNormalization and Mish, then Tile and GatherElements
    along the last axis."""
    rng = np.random.default_rng(7)
    def init(name, shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
    nodes = [
        helper.make_node("GroupNormalization", ["x", "gs", "gb"], ["g"], num_groups=2,
                         epsilon=1e-3),
        helper.make_node("Mish", ["g"], ["m"]),
        helper.make_node("InstanceNormalization", ["m", "is", "ib"], ["n"]),
        const("reps", [1, 1, 1, 2]),
        helper.make_node("Tile", ["n", "reps"], ["t"]),
        const("idx", np.arange(12).reshape(1, 1, 1, 12) % 5),
        helper.make_node("Expand", ["idx", "shape"], ["idx4"]),
        helper.make_node("GatherElements", ["t", "idx4"], ["y"], axis=3),
    ]
    inits = [init("gs", [2]), init("gb", [2]), init("is", [4]), init("ib", [4]),
             numpy_helper.from_array(np.array([1, 4, 5, 12], np.int64), "shape")]
    graph = helper.make_graph(
        nodes, "opset18_normalizations",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 5, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 5, 12])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(model, full_check=True)
    return model, (1, 4, 5, 6)


def converted(zoo, path, shape):
    model = onnx.load(str(zoo / path))
    return version_converter.convert_version(model, 21), shape


def main():
    p = argparse.ArgumentParser()
    for flag in ("--tool", "--runner", "--utils", "--work"):
        p.add_argument(flag, required=True)
    p.add_argument("--zoo", type=Path)
    args = p.parse_args()
    sys.path.insert(0, args.utils)
    import qdq_compare

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    models = [("opset21_forms", opset21_forms),
              ("opset18_normalizations", opset18_normalizations)]
    if args.zoo:
        models = [(Path(path).stem + "-opset21",
                   lambda path=path, shape=shape: converted(args.zoo, path, shape))
                  for path, shape in ZOO_MODELS]
    rng = np.random.default_rng(0)
    failed = 0
    for name, make in models:
        model, shape = make()
        path = work / f"{name}.onnx"
        onnx.save(model, path)
        try:
            ok, out_shape, worst_abs, worst_rel = qdq_compare.check_float_model(
                args.tool, path, [], shape, work, name.replace("-", "_").replace(".", "_"),
                args.runner, rng, RTOL, ATOL)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            print(f"FAIL  {name}  {e}")
            failed += 1
            continue
        print(f"{'PASS' if ok else 'FAIL'}  {name}  opset "
              f"{model.opset_import[0].version}  output {out_shape}, "
              f"worst |diff| {worst_abs:.2g} (rel {worst_rel:.2g})")
        failed += not ok
    print(f"{len(models) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
