"""Writes a random-weight model of quantized convolutions with one input
channel per group (QLinearConv, u8 activations, s8 per-filter weights) to
argv[1]: the convolutions whose window rows the kernel stage packs in
registers for vpdpbusd (4 taps of a row at a time, the taps 1 byte apart)
and one it must not. Each reads the graph input (12 channels, 15x40: rows of
2.5 vectors, strided rows of 1.25) and is a graph output:
  dw3      depthwise 3x3 pads 1 (rows flattened over the padded width)
  dw3s2    depthwise 3x3 pads 1 stride 2
  dw2s2    depthwise 2x2 stride 2 (2 taps per row)
  dw1x4    depthwise 1x4, asymmetric pads (4 taps: a whole int32)
  mult2    depthwise 3x3 stride 2, 2 filters per group
  pairs    3x3, 2 input channels per group (the channel loop stays a loop)
  dw5      depthwise 5x5 (5 taps a row: 4, then 1)
  dilated  depthwise 3x3 dilation 2 (taps 2 bytes apart: the widening kernel)"""
import sys

import numpy as np
from onnx import TensorProto, helper

from make_flat_row_convs import qconv, save

CHANNELS, HEIGHT, WIDTH = 12, 15, 40

# (name, filters, kernel, attributes)
CONVS = [
    ("dw3", 12, [3, 3], dict(pads=[1, 1, 1, 1], group=12)),
    ("dw3s2", 12, [3, 3], dict(pads=[1, 1, 1, 1], strides=[2, 2], group=12)),
    ("dw2s2", 12, [2, 2], dict(strides=[2, 2], group=12)),
    ("dw1x4", 12, [1, 4], dict(pads=[0, 1, 0, 2], group=12)),
    ("mult2", 24, [3, 3], dict(pads=[1, 1, 1, 1], strides=[2, 2], group=12)),
    ("pairs", 6, [3, 3], dict(pads=[1, 1, 1, 1], group=6)),
    ("dw5", 12, [5, 5], dict(pads=[2, 2, 2, 2], group=12)),
    ("dilated", 12, [3, 3], dict(pads=[2, 2, 2, 2], dilations=[2, 2], group=12)),
]


def out_size(kernel, attrs):
    pads = attrs.get("pads", [0] * 4)
    strides = attrs.get("strides", [1, 1])
    dilations = attrs.get("dilations", [1, 1])
    return [(size + pads[i] + pads[i + 2] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
            for i, size in enumerate([HEIGHT, WIDTH])]


def main(path):
    nodes, outputs = [], []
    inits = [helper.make_tensor("x_scale", TensorProto.FLOAT, [], [0.02]),
             helper.make_tensor("x_zero", TensorProto.UINT8, [], [117]),
             helper.make_tensor("y_scale", TensorProto.FLOAT, [], [0.25]),
             helper.make_tensor("y_zero", TensorProto.UINT8, [], [121])]
    for name, filters, kernel, attrs in CONVS:
        per_group = CHANNELS // attrs["group"]
        node, conv_inits = qconv(name, "x", ("x_scale", "x_zero"),
                                 [filters, per_group, *kernel], **attrs)
        nodes.append(node)
        inits += conv_inits
        outputs.append(helper.make_tensor_value_info(
            name, TensorProto.UINT8, [1, filters, *out_size(kernel, attrs)]))
    save("byte_window_convs", nodes,
         [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, CHANNELS, HEIGHT, WIDTH])],
         outputs, inits, path)


if __name__ == "__main__":
    main(sys.argv[1])
