"""Writes two random-weight models of convolutions whose output rows are short
for the target's vectors, the shapes convert-onnx-to-linalg computes with
rows flattened into one loop (over the padded width, or for stride 2 over
the rows each tap row reads, gathered): argv[1] in
float (Conv), argv[2] quantized (QLinearConv, u8 activations, s8 per-filter
weights). Each convolution reads the graph input and is a graph output:
3x3 pads 1 on a 9x9 map (13 filters: 8 + 5 rows), 3x3 dilation 2, 5x5 pads 2,
asymmetric pads, no padding (a 7x7 output), depthwise, stride 2 (3x3 on an
odd and an even padded width, 1x1, depthwise), a single output position
(plain, grouped, depthwise), and in float activations on flat results
(depthwise -> ReLU6 -> 1x1, 3x3 -> Relu -> 3x3, depthwise -> Relu) and a 3-D
convolution (its last two dims flattened, the first kept). Last, a 1x1
convolution whose output only the next one reads ("chain": its bias and
requantization run in the kernel's registers; 81 outputs per filter, so the
last vector of a row holds one lane)."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)

# (name, filters, kernel, attributes); every one takes the 8-channel 9x9 input.
CONVS = [
    ("pad1", 13, [3, 3], dict(pads=[1, 1, 1, 1])),
    ("dilated", 8, [3, 3], dict(pads=[2, 2, 2, 2], dilations=[2, 2])),
    ("k5", 5, [5, 5], dict(pads=[2, 2, 2, 2])),
    ("asym", 6, [3, 3], dict(pads=[0, 1, 2, 1])),
    ("valid", 9, [3, 3], dict()),
    ("depthwise", 8, [3, 3], dict(pads=[1, 1, 1, 1], group=8)),
    # Stride 2. Padded width 11 (odd): flat over the padded input, 11 wide.
    ("s2", 7, [3, 3], dict(pads=[1, 1, 1, 1], strides=[2, 2])),
    # Padded width 10: flat over the rows each tap row reads, gathered.
    ("s2gathered", 11, [3, 3], dict(pads=[1, 1, 0, 0], strides=[2, 2])),
    ("s2pointwise", 9, [1, 1], dict(pads=[0, 0, 1, 1], strides=[2, 2])),
    ("s2depthwise", 8, [3, 3], dict(pads=[1, 1, 0, 0], strides=[2, 2], group=8)),
    # One output position (a 9x9 window on the 9x9 input): matrix-vector
    # products, vectors along the filters; depthwise keeps the usual form.
    ("single", 13, [9, 9], dict()),
    ("single_grouped", 10, [9, 9], dict(group=2)),
    ("single_depthwise", 8, [9, 9], dict(group=8)),
]
CHANNELS, SIZE = 8, 9


def out_size(kernel, attrs):
    pads = attrs.get("pads", [0] * 4)
    dilations = attrs.get("dilations", [1, 1])
    strides = attrs.get("strides", [1, 1])
    return [(SIZE + pads[i] + pads[i + 2] - (kernel[i] - 1) * dilations[i] - 1) // strides[i] + 1
            for i in range(2)]


def save(name, nodes, inputs, outputs, inits, path):
    """Writes the opset-13 model of graph `name` to `path`."""
    model = helper.make_model(helper.make_graph(nodes, name, inputs, outputs, inits),
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def float_model(path):
    nodes, inits, outputs = [], [], []
    for name, filters, kernel, attrs in CONVS:
        per_group = CHANNELS // attrs.get("group", 1)
        w = rng.standard_normal([filters, per_group, *kernel]).astype(np.float32)
        b = rng.standard_normal([filters]).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w_{name}"), numpy_helper.from_array(b, f"b_{name}")]
        nodes.append(helper.make_node("Conv", ["x", f"w_{name}", f"b_{name}"], [name],
                                      kernel_shape=kernel, **attrs))
        outputs.append(helper.make_tensor_value_info(
            name, TensorProto.FLOAT, [1, filters, *out_size(kernel, attrs)]))
    # Activations on flat results (onnxq-fuse-elementwise moves them onto the
    # convolution; the kernel stores the rows without their pitch columns):
    # depthwise -> ReLU6 -> 1x1 (a compact result), 3x3 -> Relu -> 3x3 (into
    # the next one's padded input), depthwise -> Relu as a graph output.
    def weight(name, shape):
        inits.append(numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name))
        return name
    inits += [numpy_helper.from_array(np.array(0, np.float32), "zero"),
              numpy_helper.from_array(np.array(6, np.float32), "six")]
    nodes += [
        helper.make_node("Conv", ["x", weight("w_dw6", [CHANNELS, 1, 3, 3]),
                                  weight("b_dw6", [CHANNELS])], ["dw6"],
                         kernel_shape=[3, 3], pads=[1] * 4, group=CHANNELS),
        helper.make_node("Clip", ["dw6", "zero", "six"], ["dw6_clip"]),
        helper.make_node("Conv", ["dw6_clip", weight("w_pw6", [12, CHANNELS, 1, 1])],
                         ["act_pointwise"], kernel_shape=[1, 1]),
        helper.make_node("Conv", ["x", weight("w_c1", [CHANNELS, CHANNELS, 3, 3]),
                                  weight("b_c1", [CHANNELS])], ["c1"],
                         kernel_shape=[3, 3], pads=[1] * 4),
        helper.make_node("Relu", ["c1"], ["c1_relu"]),
        helper.make_node("Conv", ["c1_relu", weight("w_c2", [5, CHANNELS, 3, 3])],
                         ["act_conv"], kernel_shape=[3, 3], pads=[1] * 4),
        helper.make_node("Conv", ["x", weight("w_dwo", [CHANNELS, 1, 3, 3])], ["dwo"],
                         kernel_shape=[3, 3], pads=[1] * 4, group=CHANNELS),
        helper.make_node("Relu", ["dwo"], ["act_output"]),
    ]
    outputs += [helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, c, SIZE, SIZE])
                for name, c in (("act_pointwise", 12), ("act_conv", 5),
                                ("act_output", CHANNELS))]
    # 3-D: (4, 3, 6, 6) -> 5 filters 3x3x3 pads 1.
    inits.append(numpy_helper.from_array(
        rng.standard_normal([5, 4, 3, 3, 3]).astype(np.float32), "w_3d"))
    nodes.append(helper.make_node("Conv", ["v", "w_3d"], ["conv3d"], kernel_shape=[3, 3, 3],
                                  pads=[1] * 6))
    outputs.append(helper.make_tensor_value_info("conv3d", TensorProto.FLOAT, [1, 5, 3, 6, 6]))
    save("flat_row_convs", nodes,
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, CHANNELS, SIZE, SIZE]),
          helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, 4, 3, 6, 6])],
         outputs, inits, path)


def qconv(name, x, x_quant, shape, **attrs):
    """A QLinearConv `name` of `x` (quantized by `x_quant`, a pair of names)
    with random s8 weights of `shape`, per-filter scales and a bias, into
    y_scale/y_zero: its node and initializers."""
    filters = shape[0]
    inits = [numpy_helper.from_array(rng.integers(-127, 128, shape).astype(np.int8),
                                     f"w_{name}"),
             numpy_helper.from_array(
                 rng.uniform(0.002, 0.02, filters).astype(np.float32), f"ws_{name}"),
             numpy_helper.from_array(np.zeros(filters, np.int8), f"wz_{name}"),
             numpy_helper.from_array(
                 rng.integers(-2000, 2000, filters).astype(np.int32), f"b_{name}")]
    node = helper.make_node(
        "QLinearConv", [x, *x_quant, f"w_{name}", f"ws_{name}", f"wz_{name}", "y_scale",
                        "y_zero", f"b_{name}"], [name], kernel_shape=shape[2:], **attrs)
    return node, inits


def quantized_model(path):
    nodes, outputs = [], []
    inits = [numpy_helper.from_array(np.array(0.02, np.float32), "x_scale"),
             numpy_helper.from_array(np.array(117, np.uint8), "x_zero"),
             numpy_helper.from_array(np.array(0.25, np.float32), "y_scale"),
             numpy_helper.from_array(np.array(121, np.uint8), "y_zero")]
    x_quant, y_quant = ("x_scale", "x_zero"), ("y_scale", "y_zero")
    for name, filters, kernel, attrs in CONVS:
        per_group = CHANNELS // attrs.get("group", 1)
        node, conv_inits = qconv(name, "x", x_quant, [filters, per_group, *kernel], **attrs)
        nodes.append(node)
        inits += conv_inits
        outputs.append(helper.make_tensor_value_info(
            name, TensorProto.UINT8, [1, filters, *out_size(kernel, attrs)]))
    # The chain: 1x1 (8 -> 24) then depthwise 3x3 on its output.
    pw, pw_inits = qconv("pw", "x", x_quant, [24, CHANNELS, 1, 1])
    dw, dw_inits = qconv("chain", "pw", y_quant, [24, 1, 3, 3], pads=[1, 1, 1, 1], group=24)
    nodes += [pw, dw]
    inits += pw_inits + dw_inits
    outputs.append(helper.make_tensor_value_info("chain", TensorProto.UINT8,
                                                 [1, 24, SIZE, SIZE]))
    save("flat_row_qconvs", nodes,
         [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, CHANNELS, SIZE, SIZE])],
         outputs, inits, path)


if __name__ == "__main__":
    float_model(sys.argv[1])
    quantized_model(sys.argv[2])
