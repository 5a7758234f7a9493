"""Models shaped the way exporters write them, compiled by us and run against
ONNX Runtime.

Usage: exporter_models.py --tool TOOL --runner runner.c --utils UTILS --work DIR

Each model computes a shape at run time from its input's shape (the idioms
PyTorch and Paddle exporters emit) and has dynamic input dimensions, written
as `dim_param` or as `dim_value: -1`; the compile fixes them with
--input-shape and nothing else (no --onnx-infer-shapes, no --onnx-simplify).
Per model one line `PASS|FAIL  NAME  worst |diff| D (rel R)`, compared with
rtol 1e-4, atol 1e-5 on two seeded random inputs; then `N passed, N failed`.
Exit 1 on a failure.
"""
import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RTOL, ATOL = 1e-4, 1e-5


def const(name, values, dtype=np.int64):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.array(values, dtype=dtype)))


def weights(rng, name, shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * 0.3).astype(np.float32), name)


def make_model(name, opset, nodes, inputs, outputs, inits):
    graph = helper.make_graph(nodes, name, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="exporter-style")
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model


def input_info(name, dims):
    """dims: int, a dim_param string, or -1 written as dim_value: -1."""
    info = helper.make_tensor_value_info(name, TensorProto.FLOAT, None)
    shape = info.type.tensor_type.shape
    for d in dims:
        dim = shape.dim.add()
        if isinstance(d, str):
            dim.dim_param = d
        else:
            dim.dim_value = d
    return info


def output_info(name, rank):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, [None] * rank)


def pytorch_flatten(rng):
    """torch.flatten(x, 1) after a conv, exported with a dynamic batch:
    Shape -> Gather -> Unsqueeze -> Concat -> Reshape, then Gemm."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Shape", ["r"], ["s"]),
        const("zero", 0),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        const("axes", [0]),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        const("minus1", [-1]),
        helper.make_node("Concat", ["n1", "minus1"], ["target"], axis=0),
        helper.make_node("Reshape", ["r", "target"], ["flat"]),
        helper.make_node("Gemm", ["flat", "fc", "fcb"], ["y"], transB=1),
    ]
    inits = [weights(rng, "w", [4, 3, 3, 3]), weights(rng, "b", [4]),
             weights(rng, "fc", [10, 4 * 8 * 8]), weights(rng, "fcb", [10])]
    model = make_model("pytorch_flatten", 13, nodes, [input_info("x", ["batch", 3, 8, 8])],
                       [output_info("y", 2)], inits)
    return model, "x:2x3x8x8", (2, 3, 8, 8)


def paddle_softmax(rng):
    """A Paddle-style opset-11 head: every input dimension -1, a Reshape whose
    target comes from Shape -> Slice -> Concat, then Softmax-11 (which
    flattens by its input's static shape)."""
    nodes = [
        helper.make_node("AveragePool", ["x"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Shape", ["p"], ["s"]),
        const("start", [0]), const("end", [2]),
        helper.make_node("Slice", ["s", "start", "end"], ["nc"]),
        const("minus1", [-1]),
        helper.make_node("Concat", ["nc", "minus1"], ["target"], axis=0),
        helper.make_node("Reshape", ["p", "target"], ["flat"]),
        helper.make_node("Softmax", ["flat"], ["y"], axis=2),
    ]
    model = make_model("paddle_softmax", 11, nodes, [input_info("x", [-1, -1, -1, -1])],
                       [output_info("y", 3)], [])
    return model, "x:1x3x16x12", (1, 3, 16, 12)


def upsample_by_shape(rng):
    """Upsampling to twice the input's size, computed from its shape
    (Shape -> Slice -> Mul -> Concat -> Resize sizes), as detector necks do."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        const("zero", [0]), const("two_idx", [2]), const("four", [4]),
        helper.make_node("Slice", ["s", "zero", "two_idx"], ["nc"]),
        helper.make_node("Slice", ["s", "two_idx", "four"], ["hw"]),
        const("two", [2]),
        helper.make_node("Mul", ["hw", "two"], ["hw2"]),
        helper.make_node("Concat", ["nc", "hw2"], ["sizes"], axis=0),
        helper.make_node("Resize", ["x", "", "", "sizes"], ["up"], mode="nearest"),
        helper.make_node("Conv", ["up", "w"], ["y"], pads=[1, 1, 1, 1]),
    ]
    model = make_model("upsample_by_shape", 13, nodes,
                       [input_info("x", ["n", 4, "h", "w"])], [output_info("y", 4)],
                       [weights(rng, "w", [2, 4, 3, 3])])
    return model, "x:1x4x6x5", (1, 4, 6, 5)


def spatial_tokens(rng):
    """A transformer-style patch flatten: (N, C, H, W) -> (N, H*W, C) with
    H*W computed as Gather(shape, 2) * Gather(shape, 3)."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        const("i0", 0), const("i1", 1), const("i2", 2), const("i3", 3),
        helper.make_node("Gather", ["s", "i0"], ["n"]),
        helper.make_node("Gather", ["s", "i1"], ["c"]),
        helper.make_node("Gather", ["s", "i2"], ["h"]),
        helper.make_node("Gather", ["s", "i3"], ["w"]),
        helper.make_node("Mul", ["h", "w"], ["hw"]),
        const("axes", [0]),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        helper.make_node("Unsqueeze", ["c", "axes"], ["c1"]),
        helper.make_node("Unsqueeze", ["hw", "axes"], ["hw1"]),
        helper.make_node("Concat", ["n1", "c1", "hw1"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["flat"]),
        helper.make_node("Transpose", ["flat"], ["tokens"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["tokens", "proj"], ["y"]),
    ]
    model = make_model("spatial_tokens", 13, nodes, [input_info("x", ["batch", 6, "h", "w"])],
                       [output_info("y", 3)], [weights(rng, "proj", [6, 5])])
    return model, "x:2x6x4x3", (2, 6, 4, 3)


def anchor_grid(rng):
    """A YOLO-style detection head decoding boxes on a grid it computes from
    the feature map's shape: Range over Gather(shape, 2/3) (80 and 96
    elements, too many for the importer to fold), Expand of the rows and
    columns to (H, W), ConstantOfShape for a stride map, Size for a
    normalization, and a float Range of offsets."""
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["f"]),
        helper.make_node("Shape", ["f"], ["s"]),
        const("i2", 2), const("i3", 3), const("zero", 0), const("one", 1),
        helper.make_node("Gather", ["s", "i2"], ["h"]),
        helper.make_node("Gather", ["s", "i3"], ["w_"]),
        helper.make_node("Range", ["zero", "h", "one"], ["ys"]),
        helper.make_node("Range", ["zero", "w_", "one"], ["xs"]),
        helper.make_node("Cast", ["ys"], ["ysf"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["xs"], ["xsf"], to=TensorProto.FLOAT),
        const("ax1", [1]), const("ax0", [0]),
        helper.make_node("Unsqueeze", ["ysf", "ax1"], ["col"]),
        helper.make_node("Unsqueeze", ["xsf", "ax0"], ["row"]),
        helper.make_node("Unsqueeze", ["h", "ax0"], ["h1"]),
        helper.make_node("Unsqueeze", ["w_", "ax0"], ["w1"]),
        helper.make_node("Concat", ["h1", "w1"], ["hw"], axis=0),
        helper.make_node("Expand", ["col", "hw"], ["grid_y"]),
        helper.make_node("Expand", ["row", "hw"], ["grid_x"]),
        helper.make_node("ConstantOfShape", ["s"], ["stride"],
                         value=numpy_helper.from_array(np.array([8.0], np.float32))),
        helper.make_node("Add", ["f", "grid_y"], ["a"]),
        helper.make_node("Mul", ["a", "stride"], ["b"]),
        helper.make_node("Sub", ["b", "grid_x"], ["c"]),
        helper.make_node("Size", ["f"], ["n"]),
        helper.make_node("Cast", ["n"], ["nf"], to=TensorProto.FLOAT),
        helper.make_node("Div", ["c", "nf"], ["d"]),
        helper.make_node("Constant", [], ["lo"], value=numpy_helper.from_array(np.array(0.5, np.float32))),
        helper.make_node("Constant", [], ["hi"], value=numpy_helper.from_array(np.array(48.25, np.float32))),
        helper.make_node("Constant", [], ["step"], value=numpy_helper.from_array(np.array(0.5, np.float32))),
        helper.make_node("Range", ["lo", "hi", "step"], ["offsets"]),
        helper.make_node("Add", ["d", "offsets"], ["y"]),
    ]
    model = make_model("anchor_grid", 13, nodes, [input_info("x", ["batch", 3, "h", "w"])],
                       [output_info("y", 4)], [weights(rng, "w", [2, 3, 1, 1])])
    return model, "x:1x3x80x96", (1, 3, 80, 96)


def bicubic_upsample(rng):
    """PyTorch's bicubic upsampling as its exporter writes it: Resize with
    constant scales, mode cubic, coefficient -0.75 and align_corners (as
    interpolate(..., align_corners=True)) or pytorch_half_pixel; and a
    downsampling with coefficient -0.5 and exclude_outside, as TensorFlow's."""
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    half = numpy_helper.from_array(np.array([1, 1, 0.5, 0.5], np.float32), "half")
    nodes = [
        helper.make_node("Resize", ["x", "", "scales"], ["a"], mode="cubic",
                         coordinate_transformation_mode="align_corners"),
        helper.make_node("Resize", ["x", "", "scales"], ["b"], mode="cubic",
                         coordinate_transformation_mode="pytorch_half_pixel"),
        helper.make_node("Resize", ["a", "", "half"], ["c"], mode="cubic",
                         cubic_coeff_a=-0.5, exclude_outside=1),
        helper.make_node("Add", ["b", "a"], ["ab"]),
        helper.make_node("Resize", ["ab", "", "half"], ["d"], mode="cubic"),
        helper.make_node("Add", ["c", "d"], ["y"]),
    ]
    model = make_model("bicubic_upsample", 13, nodes, [input_info("x", ["n", 3, "h", "w"])],
                       [output_info("y", 4)], [scales, half])
    return model, "x:1x3x7x9", (1, 3, 7, 9)


def einsum_attention(rng):
    """Attention as einsum-style exporters write it (PyTorch's torch.einsum):
    scores "bhqd,bhkd->bhqk" scaled and softmaxed, then "bhqk,bhkd->bhqd";
    the keys are the queries times a weight (Einsum "bhsd,de->bhse")."""
    nodes = [
        helper.make_node("Einsum", ["x", "wk"], ["k"], equation="bhsd,de->bhse"),
        helper.make_node("Einsum", ["x", "k"], ["s"], equation="bhqd,bhkd->bhqk"),
        helper.make_node("Mul", ["s", "scale"], ["ss"]),
        helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
        helper.make_node("Einsum", ["p", "x"], ["y"], equation="bhqk,bhkd->bhqd"),
    ]
    inits = [weights(rng, "wk", [8, 8]),
             numpy_helper.from_array(np.array(8 ** -0.5, np.float32), "scale")]
    model = make_model("einsum_attention", 13, nodes,
                       [input_info("x", ["batch", 4, "seq", 8])], [output_info("y", 4)],
                       inits)
    return model, "x:1x4x6x8", (1, 4, 6, 8)


def topk_boxes(rng):
    """An NMS-free detector's post-processing (YOLO-style heads exported from
    PyTorch): per-box class score ReduceMax, TopK of the 100 best of 2100
    boxes, Gather of their boxes by the TopK indices, scaled by the scores;
    so a wrong index or order shows in the output."""
    nodes = [
        const("b0", [0]), const("b4", [4]), const("c6", [6]), const("ax1", [1]),
        helper.make_node("Slice", ["x", "b0", "b4", "ax1"], ["boxes"]),
        helper.make_node("Slice", ["x", "b4", "c6", "ax1"], ["classes"]),
        helper.make_node("ReduceMax", ["classes"], ["scores"], axes=[1], keepdims=0),
        const("k", [100]),
        helper.make_node("TopK", ["scores", "k"], ["best", "index"], axis=-1),
        helper.make_node("Transpose", ["boxes"], ["per_box"], perm=[0, 2, 1]),
        const("flat", [-1]),
        helper.make_node("Reshape", ["index", "flat"], ["index1"]),
        helper.make_node("Gather", ["per_box", "index1"], ["chosen"], axis=1),
        const("last", [-1]),
        helper.make_node("Unsqueeze", ["best", "last"], ["best1"]),
        helper.make_node("Mul", ["chosen", "best1"], ["y"]),
    ]
    model = make_model("topk_boxes", 13, nodes, [input_info("x", ["batch", 6, "anchors"])],
                       [output_info("y", 3)], [])
    return model, "x:1x6x2100", (1, 6, 2100)


def index_put(rng):
    """PyTorch's indexed assignment and scatter_add as its exporter writes
    them (opset 16): `y[0, [1, 3]] = sigmoid(x[:, [2, 4]])` is a ScatterND of
    (batch, row) tuples, `y.scatter_add_(1, idx, src)` a ScatterElements with
    reduction add (the indices repeat)."""
    idx = np.array([[[0, 4, 4, 1, 0, 2], [3, 3, 0, 4, 1, 1], [2, 0, 4, 4, 3, 0]]], np.int64)
    nodes = [
        helper.make_node("Relu", ["x"], ["a"]),
        const("rows", [2, 4]),
        helper.make_node("Gather", ["x", "rows"], ["picked"], axis=1),
        helper.make_node("Sigmoid", ["picked"], ["s"]),
        const("two_rows", [2, 6]),
        helper.make_node("Reshape", ["s", "two_rows"], ["updates"]),
        const("tuples", [[0, 1], [0, 3]]),
        helper.make_node("ScatterND", ["a", "tuples", "updates"], ["b"]),
        const("r0", [0]), const("r3", [3]), const("ax1", [1]),
        helper.make_node("Slice", ["x", "r0", "r3", "ax1"], ["src"]),
        helper.make_node("Constant", [], ["idx"], value=numpy_helper.from_array(idx)),
        helper.make_node("ScatterElements", ["b", "idx", "src"], ["y"], axis=1,
                         reduction="add"),
    ]
    model = make_model("index_put", 16, nodes, [input_info("x", ["batch", 5, 6])],
                       [output_info("y", 3)], [])
    return model, "x:1x5x6", (1, 5, 6)


MODELS = [pytorch_flatten, paddle_softmax, upsample_by_shape, spatial_tokens,
          anchor_grid, bicubic_upsample, einsum_attention, topk_boxes, index_put]


def main():
    p = argparse.ArgumentParser()
    for flag in ("--tool", "--runner", "--utils", "--work"):
        p.add_argument(flag, required=True)
    args = p.parse_args()
    sys.path.insert(0, args.utils)
    import qdq_compare

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    failed = 0
    for make in MODELS:
        model, shape_flag, shape = make(rng)
        name = make.__name__
        path = work / f"{name}.onnx"
        onnx.save(model, path)
        try:
            ok, out_shape, worst_abs, worst_rel = qdq_compare.check_float_model(
                args.tool, path, [f"--input-shape={shape_flag}"], shape, work, name,
                args.runner, rng, RTOL, ATOL)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            print(f"FAIL  {name}  {e}")
            failed += 1
            continue
        print(f"{'PASS' if ok else 'FAIL'}  {name}  output {out_shape}, "
              f"worst |diff| {worst_abs:.2g} (rel {worst_rel:.2g})")
        failed += not ok
    print(f"{len(MODELS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
