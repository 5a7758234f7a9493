"""Writes a random-weight model of quantized convolutions (QLinearConv, u8
activations, s8 per-filter weights) shaped for AMX tiles: argv[1]. Deep
enough for tiles (32 input channels or more per group), with remainders: a
1x1 64 -> 48 (a tile of 32 filters, one of 16; 400 positions, the last 16
on a tile moved back over the one before), a 3x3 pads 1 64 -> 40 on rows
flattened over the padded width (32 filters on tiles, 8 on vpdpbusd), 96
channels (24 words, padded to 32) 3x3 -> 32, grouped (2 groups of 48
channels, 12 words padded to 16) -> 64, and a chain whose 1x1 output only
the next 3x3 reads (its requantization runs after the tiles, on vectors).
Windows over planes of the input (WindowPlanes.cpp): a 3x3 stride 2 over
four phase planes (16 words each: the steps of taps past the window are
left out), a 1x1 stride 2 (one plane), a 7x7 stride 2 stem over 3 channels
of an odd 23x23 input (2 row phases x 7 folded column taps, padded one row
more for the phases) and a 3x3 over 16 channels (its 3 column taps folded
into 12 words)."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(1)


def main(path):
    nodes, outputs = [], []
    inits = [numpy_helper.from_array(np.array(0.02, np.float32), "x_scale"),
             numpy_helper.from_array(np.array(117, np.uint8), "x_zero"),
             numpy_helper.from_array(np.array(0.5, np.float32), "y_scale"),
             numpy_helper.from_array(np.array(121, np.uint8), "y_zero")]

    def qconv(name, x, x_quant, shape, out_shape, output=True, **attrs):
        filters = shape[0]
        inits.extend([
            numpy_helper.from_array(rng.integers(-127, 128, shape).astype(np.int8), f"w_{name}"),
            numpy_helper.from_array(rng.uniform(0.002, 0.02, filters).astype(np.float32),
                                    f"ws_{name}"),
            numpy_helper.from_array(np.zeros(filters, np.int8), f"wz_{name}"),
            numpy_helper.from_array(rng.integers(-2000, 2000, filters).astype(np.int32),
                                    f"b_{name}")])
        nodes.append(helper.make_node(
            "QLinearConv", [x, *x_quant, f"w_{name}", f"ws_{name}", f"wz_{name}", "y_scale",
                            "y_zero", f"b_{name}"], [name], kernel_shape=shape[2:], **attrs))
        if output:
            outputs.append(helper.make_tensor_value_info(name, TensorProto.UINT8,
                                                         [1, filters, *out_shape]))

    xq, yq = ("x_scale", "x_zero"), ("y_scale", "y_zero")
    qconv("pw", "x", xq, [48, 64, 1, 1], [20, 20])
    qconv("k3", "x", xq, [40, 64, 3, 3], [20, 20], pads=[1, 1, 1, 1])
    qconv("c96", "v", xq, [32, 96, 3, 3], [12, 12], pads=[1, 1, 1, 1])
    qconv("grouped", "v", xq, [64, 48, 3, 3], [12, 12], pads=[1, 1, 1, 1], group=2)
    qconv("s2", "x", xq, [32, 64, 3, 3], [10, 10], pads=[1, 1, 1, 1], strides=[2, 2])
    qconv("chain_pw", "x", xq, [32, 64, 1, 1], [20, 20], output=False)
    qconv("chain", "chain_pw", yq, [32, 32, 3, 3], [20, 20], pads=[1, 1, 1, 1])
    qconv("s2_1x1", "x", xq, [32, 64, 1, 1], [10, 10], strides=[2, 2])
    qconv("stem", "i", xq, [32, 3, 7, 7], [12, 12], pads=[3, 3, 3, 3], strides=[2, 2])
    qconv("folded", "u", xq, [32, 16, 3, 3], [14, 14], pads=[1, 1, 1, 1])
    inputs = [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 64, 20, 20]),
              helper.make_tensor_value_info("v", TensorProto.UINT8, [1, 96, 12, 12]),
              helper.make_tensor_value_info("i", TensorProto.UINT8, [1, 3, 23, 23]),
              helper.make_tensor_value_info("u", TensorProto.UINT8, [1, 16, 14, 14])]
    model = helper.make_model(helper.make_graph(nodes, "amx_convs", inputs, outputs, inits),
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


if __name__ == "__main__":
    main(sys.argv[1])
