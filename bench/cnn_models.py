#!/usr/bin/env python3
"""Torchvision-style CNNs written as ONNX graphs, for the benchmarks.

The layer structure of torchvision's ResNet-18, MobileNetV2, MobileNetV3-small
and EfficientNet-B0 (channels, kernels, strides, groups, squeeze-and-
excitation blocks), with the ops PyTorch's ONNX exporter writes for them at
opset 14: Conv, BatchNormalization (kept, as an exported model has it), Relu,
Clip(0, 6) for ReLU6, HardSwish, HardSigmoid(1/6, 1/2), Sigmoid * x for SiLU,
Mul, Add, GlobalAveragePool, Flatten, Gemm. Weights and BatchNorm statistics
are random (seeded): right for speed, meaningless for accuracy. Torch is not a
dependency (Debian's is too old and PyPI's is large): the graphs are built
with onnx.helper.

Usage: python bench/cnn_models.py OUT_DIR [--models resnet18,mobilenet_v2,...]
writes OUT_DIR/<model>.onnx (input "input" float[1,3,224,224], output
"logits" float[1,1000]). MODELS lists the names.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 14


class Graph:
    """A growing ONNX graph with the layers torchvision models are made of."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.count = 0

    def name(self, kind):
        self.count += 1
        return f"{kind}_{self.count}"

    def const(self, kind, array):
        name = self.name(kind)
        self.inits.append(numpy_helper.from_array(array.astype(np.float32), name))
        return name

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, groups=1, bias=False):
        fan_in = cin // groups * k * k
        w = self.rng.normal(0, np.sqrt(2.0 / fan_in), (cout, cin // groups, k, k))
        inputs = [x, self.const("w", w)]
        if bias:
            inputs.append(self.const("b", self.rng.normal(0, 0.01, cout)))
        return self.node("Conv", inputs, kernel_shape=[k, k], strides=[stride, stride],
                         pads=[k // 2] * 4, group=groups)

    def bn(self, x, c):
        r = self.rng
        params = [r.uniform(0.5, 1.0, c), r.normal(0, 0.05, c), r.normal(0, 0.05, c),
                  r.uniform(0.8, 1.2, c)]
        return self.node("BatchNormalization",
                         [x] + [self.const(n, p) for n, p in
                                zip(["gamma", "beta", "mean", "var"], params)],
                         epsilon=1e-5)

    def act(self, x, kind):
        if kind == "relu":
            return self.node("Relu", [x])
        if kind == "relu6":
            lo = self.const("min", np.array(0.0))
            hi = self.const("max", np.array(6.0))
            return self.node("Clip", [x, lo, hi])
        if kind == "hardswish":
            return self.node("HardSwish", [x])
        if kind == "hardsigmoid":
            return self.node("HardSigmoid", [x], alpha=1.0 / 6, beta=0.5)
        if kind == "silu":
            return self.node("Mul", [x, self.node("Sigmoid", [x])])
        if kind == "sigmoid":
            return self.node("Sigmoid", [x])
        assert kind is None, kind
        return x

    def conv_bn(self, x, cin, cout, k, stride=1, groups=1, act="relu"):
        return self.act(self.bn(self.conv(x, cin, cout, k, stride, groups), cout), act)

    def squeeze_excite(self, x, c, squeeze, act, gate):
        s = self.node("GlobalAveragePool", [x])
        s = self.act(self.conv(s, c, squeeze, 1, bias=True), act)
        s = self.act(self.conv(s, squeeze, c, 1, bias=True), gate)
        return self.node("Mul", [x, s])

    def classifier(self, x, c, hidden=None, hidden_act=None):
        x = self.node("Flatten", [self.node("GlobalAveragePool", [x])], axis=1)
        if hidden:
            x = self.gemm(x, c, hidden)
            x = self.act(x, hidden_act)
            c = hidden
        return self.gemm(x, c, 1000)

    def gemm(self, x, cin, cout):
        w = self.rng.normal(0, np.sqrt(1.0 / cin), (cout, cin))
        b = self.rng.normal(0, 0.01, cout)
        return self.node("Gemm", [x, self.const("fc_w", w), self.const("fc_b", b)],
                         transB=1)

    def model(self, name, out):
        self.nodes[-1].output[0] = "logits"
        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])],
            self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="onnx-quant bench/cnn_models.py")
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model


def make_divisible(v, divisor=8):
    new = max(divisor, int(v + divisor / 2) // divisor * divisor)
    return new + divisor if new < 0.9 * v else new


def resnet18(g):
    x = g.conv_bn("input", 3, 64, 7, stride=2)
    x = g.node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for cout, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
        for block in range(2):
            s = stride if block == 0 else 1
            y = g.conv_bn(x, cin, cout, 3, s)
            y = g.conv_bn(y, cout, cout, 3, 1, act=None)
            skip = x if s == 1 and cin == cout else g.conv_bn(x, cin, cout, 1, s, act=None)
            x = g.act(g.node("Add", [y, skip]), "relu")
            cin = cout
    return g.classifier(x, 512)


def mobilenet_v2(g):
    x = g.conv_bn("input", 3, 32, 3, stride=2, act="relu6")
    cin = 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                       (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            y = x if t == 1 else g.conv_bn(x, cin, hidden, 1, act="relu6")
            y = g.conv_bn(y, hidden, hidden, 3, stride, groups=hidden, act="relu6")
            y = g.conv_bn(y, hidden, c, 1, act=None)
            x = g.node("Add", [x, y]) if stride == 1 and cin == c else y
            cin = c
    x = g.conv_bn(x, cin, 1280, 1, act="relu6")
    return g.classifier(x, 1280)


def mobilenet_v3_small(g):
    x = g.conv_bn("input", 3, 16, 3, stride=2, act="hardswish")
    cin = 16
    for k, exp, c, se, act, s in [
            (3, 16, 16, True, "relu", 2), (3, 72, 24, False, "relu", 2),
            (3, 88, 24, False, "relu", 1), (5, 96, 40, True, "hardswish", 2),
            (5, 240, 40, True, "hardswish", 1), (5, 240, 40, True, "hardswish", 1),
            (5, 120, 48, True, "hardswish", 1), (5, 144, 48, True, "hardswish", 1),
            (5, 288, 96, True, "hardswish", 2), (5, 576, 96, True, "hardswish", 1),
            (5, 576, 96, True, "hardswish", 1)]:
        y = x if exp == cin else g.conv_bn(x, cin, exp, 1, act=act)
        y = g.conv_bn(y, exp, exp, k, s, groups=exp, act=act)
        if se:
            y = g.squeeze_excite(y, exp, make_divisible(exp // 4), "relu", "hardsigmoid")
        y = g.conv_bn(y, exp, c, 1, act=None)
        x = g.node("Add", [x, y]) if s == 1 and cin == c else y
        cin = c
    x = g.conv_bn(x, cin, 576, 1, act="hardswish")
    return g.classifier(x, 576, hidden=1024, hidden_act="hardswish")


def efficientnet_b0(g):
    x = g.conv_bn("input", 3, 32, 3, stride=2, act="silu")
    cin = 32
    for e, k, s, c, n in [(1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2),
                          (6, 3, 2, 80, 3), (6, 5, 1, 112, 3), (6, 5, 2, 192, 4),
                          (6, 3, 1, 320, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * e
            y = x if e == 1 else g.conv_bn(x, cin, hidden, 1, act="silu")
            y = g.conv_bn(y, hidden, hidden, k, stride, groups=hidden, act="silu")
            y = g.squeeze_excite(y, hidden, max(1, cin // 4), "silu", "sigmoid")
            y = g.conv_bn(y, hidden, c, 1, act=None)
            x = g.node("Add", [x, y]) if stride == 1 and cin == c else y
            cin = c
    x = g.conv_bn(x, cin, 1280, 1, act="silu")
    return g.classifier(x, 1280)


MODELS = {
    "resnet18": resnet18,
    "mobilenet_v2": mobilenet_v2,
    "mobilenet_v3_small": mobilenet_v3_small,
    "efficientnet_b0": efficientnet_b0,
}


def build(name, seed=0):
    g = Graph(seed)
    MODELS[name](g)
    return g.model(name, "logits")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--models", default=",".join(MODELS),
                    help="comma-separated, of: " + ", ".join(MODELS))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.models.split(","):
        if name not in MODELS:
            print(f"error: unknown model '{name}' (known: {', '.join(MODELS)})",
                  file=sys.stderr)
            return 2
        path = args.out / f"{name}.onnx"
        onnx.save(build(name), str(path))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
