"""Writes a QOperator model (opset 13, com.microsoft QLinearAdd) of
convolution chains whose 8-bit results the next convolution reads as channel
words: chains of one 16 -> 32 (or 24) pointwise convolution, then what
stores the words (onnxq-contraction-kernels storeChannelWord), then an
8-filter pointwise convolution, each a graph output:
  pw      a pointwise convolution (words of rows without a pitch)
  dw      a stride-1 3x3 depthwise one at 28 x 28 (computed over the padded
          width: rows of 28 columns 30 apart)
  dw_s2   a stride-2 3x3 depthwise one (28 -> 14)
  add     a pointwise one whose result a QLinearAdd with its input takes
  dw_7    a stride-1 depthwise one at 7 x 7 (rows 9 apart: a vector spans
          three, stored in three parts)
  fire    a Concat of a 12-filter pointwise and a 20-filter 3x3 convolution
          (SqueezeNet's Fire module; onnxq-pack-concat-parts packs each part
          into its words, the 3x3 one's rows computed 30 apart)
  fire_odd the same split 6 + 26 filters: not whole words, the
          concatenation stays
argv[1]: the model."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)
nodes, inits = [], []


def scalar(name, value, dtype):
    inits.append(numpy_helper.from_array(np.array(value, dtype), name))
    return name


def qconv(name, x, x_quant, cin, cout, k=1, group=1, stride=1):
    w = rng.integers(-127, 128, [cout, cin // group, k, k]).astype(np.int8)
    inits.extend([numpy_helper.from_array(w, f"w_{name}"),
                  numpy_helper.from_array(rng.uniform(0.002, 0.01, cout).astype(np.float32),
                                          f"ws_{name}"),
                  numpy_helper.from_array(np.zeros(cout, np.int8), f"wz_{name}"),
                  numpy_helper.from_array(rng.integers(-2000, 2000, cout).astype(np.int32),
                                          f"b_{name}")])
    y_quant = (scalar(f"ys_{name}", 0.04, np.float32), scalar(f"yz_{name}", 60, np.uint8))
    attrs = dict(kernel_shape=[k, k], group=group, strides=[stride, stride])
    if k > 1:
        attrs["pads"] = [k // 2] * 4
    nodes.append(helper.make_node("QLinearConv", [x, *x_quant, f"w_{name}", f"ws_{name}",
                                                  f"wz_{name}", *y_quant, f"b_{name}"],
                                  [name], **attrs))
    return name, y_quant


x_quant = (scalar("xs", 0.02, np.float32), scalar("xz", 120, np.uint8))
outputs = []
for chain, x, size in [("pw", "x", 28), ("dw", "x", 28), ("dw_s2", "x", 28), ("add", "x", 28),
                       ("dw_7", "x7", 7), ("fire", "x", 28), ("fire_odd", "x", 28)]:
    a, a_quant = qconv(f"{chain}_a", x, x_quant, 16, 24 if chain == "add" else 32)
    if chain == "pw":
        mid, mid_quant = qconv(f"{chain}_m", a, a_quant, 32, 32)
    elif chain.startswith("fire"):
        split = 12 if chain == "fire" else 6
        e1, mid_quant = qconv(f"{chain}_e1", a, a_quant, 32, split)
        e3, _ = qconv(f"{chain}_e3", a, a_quant, 32, 32 - split, k=3)
        mid = f"{chain}_m"
        nodes.append(helper.make_node("Concat", [e1, e3], [mid], axis=1))
    elif chain == "add":
        c, c_quant = qconv(f"{chain}_c", a, a_quant, 24, 24)
        mid_quant = (scalar(f"ys_{chain}_m", 0.06, np.float32),
                     scalar(f"yz_{chain}_m", 70, np.uint8))
        mid = f"{chain}_m"
        nodes.append(helper.make_node("QLinearAdd", [a, *a_quant, c, *c_quant, *mid_quant],
                                      [mid], domain="com.microsoft"))
    else:
        stride = 2 if chain == "dw_s2" else 1
        mid, mid_quant = qconv(f"{chain}_m", a, a_quant, 32, 32, k=3, group=32, stride=stride)
        size //= stride
    y, _ = qconv(chain, mid, mid_quant, 24 if chain == "add" else 32, 8)
    outputs.append(helper.make_tensor_value_info(y, TensorProto.UINT8, [1, 8, size, size]))

graph = helper.make_graph(
    nodes, "channel_word_convs",
    [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 16, 28, 28]),
     helper.make_tensor_value_info("x7", TensorProto.UINT8, [1, 16, 7, 7])],
    outputs, inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                helper.make_opsetid("com.microsoft", 1)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
