#!/usr/bin/env python3
"""Write small seeded ONNX models with BatchNormalization after every producer
that `--onnx-fold-batchnorm` folds into, for numeric checks of that pass.

bn_fold.onnx (opset 17, ir_version 8), input x float32 [1,3,8,8], six outputs:
    y_conv_bias     Conv(3->4, 3x3, pad 1, with bias)      -> BN
    y_conv_nobias   Conv(3->4, 3x3, pad 1, stride 2, no B) -> BN
    y_gemm          Flatten -> Gemm(transB=1, B [6,192], C [6], alpha 0.5,
                    beta 2) -> BN                              ([1,6])
    y_matmul        Flatten -> MatMul(W [192,5] constant) -> BN  ([1,5])
    y_relu          Relu -> BN (no producer to fold into: becomes Mul + Add)
    y_chain         Conv(with bias) -> BN -> Relu -> Conv(no bias) -> BN
bn_fold_convtranspose.onnx (same opset), input x float32 [1,3,8,8]:
    y_convtranspose ConvTranspose(3->4, 3x3, stride 2, with bias) -> BN
    y_convtranspose_nobias ConvTranspose(3->2, 2x2, stride 2, no bias) -> BN
ConvTranspose is in a model of its own because it has no lowering to native
code yet (`onnx-quant-opt --emit=obj` fails with "has no lowering to native
code yet"); that model is checked in ONNX Runtime only (pass_check.py --ort
--ort-only).

Every BatchNormalization has epsilon 1e-3 and non-trivial statistics: scale
+-[0.5, 1.5] (random sign), bias N(0, 0.5), mean N(0, 0.5), var U[0.5, 2].
Weights are N(0, 0.3) (N(0, 0.1) for the 192-wide Gemm and MatMul), so outputs
are of order 1. Everything comes from numpy's default_rng(--seed) (default 0).

Run:  .venv/bin/python utils/make_bn_test_model.py OUT_DIR [--seed S]
"""

import argparse
import sys
from pathlib import Path

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper

OPSET = 17
IR_VERSION = 8
EPSILON = 1e-3
IN_SHAPE = [1, 3, 8, 8]


class Builder:
    def __init__(self, rng):
        self.rng, self.nodes, self.inits, self.outputs = rng, [], [], []

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array, np.float32), name))
        return name

    def weight(self, name, shape, std=0.3):
        return self.const(name, self.rng.normal(0.0, std, shape))

    def node(self, op, inputs, output, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def bn(self, x, channels, name):
        r = self.rng
        scale = r.uniform(0.5, 1.5, channels) * r.choice([-1.0, 1.0], channels)
        stats = [self.const(f"{name}_scale", scale),
                 self.const(f"{name}_bias", r.normal(0.0, 0.5, channels)),
                 self.const(f"{name}_mean", r.normal(0.0, 0.5, channels)),
                 self.const(f"{name}_var", r.uniform(0.5, 2.0, channels))]
        return self.node("BatchNormalization", [x, *stats], name, epsilon=EPSILON)

    def output(self, value, shape):
        self.outputs.append(helper.make_tensor_value_info(value, TensorProto.FLOAT, shape))

    def model(self, graph_name):
        graph = helper.make_graph(
            self.nodes, graph_name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, IN_SHAPE)],
            self.outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="make_bn_test_model.py")
        model.ir_version = IR_VERSION
        checker.check_model(model)
        return model


def main_model(rng):
    b = Builder(rng)
    c = b.node("Conv", ["x", b.weight("conv_bias_w", [4, 3, 3, 3]),
                        b.weight("conv_bias_b", [4])], "conv_bias",
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.bn(c, 4, "y_conv_bias"), [1, 4, 8, 8])

    c = b.node("Conv", ["x", b.weight("conv_nobias_w", [4, 3, 3, 3])], "conv_nobias",
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])
    b.output(b.bn(c, 4, "y_conv_nobias"), [1, 4, 4, 4])

    f = b.node("Flatten", ["x"], "flat")
    g = b.node("Gemm", [f, b.weight("gemm_b", [6, 192], 0.1), b.weight("gemm_c", [6])],
               "gemm", transB=1, alpha=0.5, beta=2.0)
    b.output(b.bn(g, 6, "y_gemm"), [1, 6])

    f2 = b.node("Flatten", ["x"], "flat2")
    m = b.node("MatMul", [f2, b.weight("matmul_w", [192, 5], 0.1)], "matmul")
    b.output(b.bn(m, 5, "y_matmul"), [1, 5])

    r = b.node("Relu", ["x"], "relu")
    b.output(b.bn(r, 3, "y_relu"), [1, 3, 8, 8])

    c1 = b.node("Conv", ["x", b.weight("chain1_w", [4, 3, 3, 3]), b.weight("chain1_b", [4])],
                "chain1", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    r1 = b.node("Relu", [b.bn(c1, 4, "chain1_bn")], "chain_relu")
    c2 = b.node("Conv", [r1, b.weight("chain2_w", [4, 4, 1, 1])], "chain2",
                kernel_shape=[1, 1])
    b.output(b.bn(c2, 4, "y_chain"), [1, 4, 8, 8])
    return b.model("bn_fold")


def convtranspose_model(rng):
    b = Builder(rng)
    t = b.node("ConvTranspose", ["x", b.weight("convt_w", [3, 4, 3, 3]),
                                 b.weight("convt_b", [4])], "convt",
               kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    b.output(b.bn(t, 4, "y_convtranspose"), [1, 4, 15, 15])
    t2 = b.node("ConvTranspose", ["x", b.weight("convt2_w", [3, 2, 2, 2])], "convt2",
                kernel_shape=[2, 2], strides=[2, 2])
    b.output(b.bn(t2, 2, "y_convtranspose_nobias"), [1, 2, 16, 16])
    return b.model("bn_fold_convtranspose")


def main():
    ap = argparse.ArgumentParser(
        description="Write the BatchNormalization folding test models.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--seed", type=int, default=0, help="numpy seed (0)")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    for name, model in (("bn_fold.onnx", main_model(rng)),
                        ("bn_fold_convtranspose.onnx", convtranspose_model(rng))):
        (args.out_dir / name).write_bytes(model.SerializeToString())
        print(f"wrote {args.out_dir / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
