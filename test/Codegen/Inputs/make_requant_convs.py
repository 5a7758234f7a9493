"""Writes two random-weight models of quantized convolutions whose fused
requantizations end in saturating packs on AVX-512 (onnxq-contraction-kernels
saturating-packs): every way the end can go.

argv[1], QLinearConv (opset 13), each reading a 16-channel 11x23 input
(rows of 1.4 vectors; 7 filters: a last row block of 7) and each a graph
output:
  u8        u8 -> u8, zero point 121, multipliers below 0.5 (no float clamp)
  u8_big    u8 -> u8, an output scale so small that the multipliers are
            about 4e6 and most accumulators times them pass 2^31 (the float
            clamp stays, or those outputs would be 0 instead of 255)
  s8        s8 -> s8, zero point -5 (vpacksswb)
  pointwise u8 1x1 into a 3x3 consumer, whose padded input it writes in
            place: rows with a pitch, vectors across two rows (the consumer,
            `chain`, is the output)
argv[2], QDQ (opset 13): DequantizeLinear, Conv, Relu, QuantizeLinear, u8
(zero point 100) and s8 (zero point -20): the Relu is a clamp at the zero
point, above the 8-bit range's low end (a byte max after the packs).
argv[3] and argv[4], if given: the input's height and width instead (7 7:
49 positions, the last on half-width vectors)."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from make_flat_row_convs import save

rng = np.random.default_rng(7)
CHANNELS, HEIGHT, WIDTH = 16, 11, 23
if len(sys.argv) > 4:
    HEIGHT, WIDTH = int(sys.argv[3]), int(sys.argv[4])


def qlinear_conv(name, x, x_quant, y_quant, shape, signed=False, **attrs):
    filters = shape[0]
    inits = [numpy_helper.from_array(rng.integers(-127, 128, shape).astype(np.int8), f"w_{name}"),
             numpy_helper.from_array(rng.uniform(0.002, 0.02, filters).astype(np.float32),
                                     f"ws_{name}"),
             numpy_helper.from_array(np.zeros(filters, np.int8), f"wz_{name}"),
             numpy_helper.from_array(rng.integers(-4000, 4000, filters).astype(np.int32),
                                     f"b_{name}")]
    node = helper.make_node("QLinearConv", [x, *x_quant, f"w_{name}", f"ws_{name}",
                                            f"wz_{name}", *y_quant, f"b_{name}"],
                            [name], kernel_shape=shape[2:], **attrs)
    return node, inits


def scalar(name, value, dtype):
    return numpy_helper.from_array(np.array(value, dtype), name)


def qoperator_model(path):
    inits = [scalar("x_scale", 0.02, np.float32), scalar("x_zero", 117, np.uint8),
             scalar("y_scale", 0.25, np.float32), scalar("y_zero", 121, np.uint8),
             scalar("big_scale", 1e-10, np.float32),
             scalar("s_zero", 3, np.int8), scalar("sy_zero", -5, np.int8)]
    u8_in, u8_out = ("x_scale", "x_zero"), ("y_scale", "y_zero")
    nodes = []
    for name, x, x_quant, y_quant, shape, attrs in [
            ("u8", "x", u8_in, u8_out, [7, CHANNELS, 3, 3], dict(pads=[1, 1, 1, 1])),
            ("u8_big", "x", u8_in, ("big_scale", "y_zero"), [7, CHANNELS, 3, 3],
             dict(pads=[1, 1, 1, 1])),
            ("s8", "xs", ("x_scale", "s_zero"), ("y_scale", "sy_zero"), [7, CHANNELS, 3, 3],
             dict(pads=[1, 1, 1, 1])),
            ("pointwise", "x", u8_in, u8_out, [24, CHANNELS, 1, 1], {}),
            ("chain", "pointwise", u8_out, u8_out, [9, 24, 3, 3], dict(pads=[1, 1, 1, 1]))]:
        node, conv_inits = qlinear_conv(name, x, x_quant, y_quant, shape, **attrs)
        nodes.append(node)
        inits += conv_inits
    outputs = [helper.make_tensor_value_info(name, TensorProto.UINT8, [1, filters, HEIGHT, WIDTH])
               for name, filters in [("u8", 7), ("u8_big", 7)]]
    outputs.append(helper.make_tensor_value_info("s8", TensorProto.INT8, [1, 7, HEIGHT, WIDTH]))
    outputs.append(helper.make_tensor_value_info("chain", TensorProto.UINT8,
                                                 [1, 9, HEIGHT, WIDTH]))
    save("requant_convs", nodes,
         [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, CHANNELS, HEIGHT, WIDTH]),
          helper.make_tensor_value_info("xs", TensorProto.INT8, [1, CHANNELS, HEIGHT, WIDTH])],
         outputs, inits, path)


def qdq_model(path):
    inits = [scalar("x_scale", 0.02, np.float32), scalar("x_zero", 117, np.uint8),
             scalar("xs_zero", 3, np.int8), scalar("y_scale", 0.01, np.float32),
             scalar("y_zero", 100, np.uint8), scalar("ys_zero", -20, np.int8)]
    nodes, outputs = [], []
    for name, x, zeros, dtype in [("relu", "x", ("x_zero", "y_zero"), TensorProto.UINT8),
                                  ("relu_s8", "xs", ("xs_zero", "ys_zero"), TensorProto.INT8)]:
        w = rng.integers(-127, 128, [7, CHANNELS, 3, 3]).astype(np.int8)
        ws = rng.uniform(0.002, 0.02, 7).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w_{name}"),
                  numpy_helper.from_array(ws, f"ws_{name}"),
                  numpy_helper.from_array(np.zeros(7, np.int8), f"wz_{name}")]
        nodes += [helper.make_node("DequantizeLinear", [x, "x_scale", zeros[0]], [f"xf_{name}"]),
                  helper.make_node("DequantizeLinear", [f"w_{name}", f"ws_{name}", f"wz_{name}"],
                                   [f"wf_{name}"], axis=0),
                  helper.make_node("Conv", [f"xf_{name}", f"wf_{name}"], [f"conv_{name}"],
                                   kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", [f"conv_{name}"], [f"act_{name}"]),
                  helper.make_node("QuantizeLinear", [f"act_{name}", "y_scale", zeros[1]],
                                   [name])]
        outputs.append(helper.make_tensor_value_info(name, dtype, [1, 7, HEIGHT, WIDTH]))
    save("requant_qdq_convs", nodes,
         [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, CHANNELS, HEIGHT, WIDTH]),
          helper.make_tensor_value_info("xs", TensorProto.INT8, [1, CHANNELS, HEIGHT, WIDTH])],
         outputs, inits, path)


if __name__ == "__main__":
    qoperator_model(sys.argv[1])
    qdq_model(sys.argv[2])
