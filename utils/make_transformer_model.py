"""A small transformer encoder as exporters write one (deterministic weights):

  make_transformer_model.py OUT.onnx [--blocks N] [--seed S] [--dim 64] [--ff 128]

Input x: float32 [batch, seq, dim] (symbolic batch and seq, as PyTorch's
dynamic_axes give). Each block: LayerNormalization, Q/K/V projections
(MatMul + Add), 4 heads of dim/4 (Reshape with 0/-1, Transpose), scores
MatMul(Q, K') * 1/sqrt(16), Softmax, MatMul(P, V), the output projection and
a residual Add; then LayerNormalization, a feed-forward MatMul dim -> ff,
GELU written with Erf (as opset 17 exporters do), MatMul ff -> dim and a
residual Add. The head: a final LayerNormalization, the mean over seq
(ReduceMean) and a Gemm (transB=1) to 10 logits. Opset 17, ir_version 8.
"""
import argparse

import numpy as np

HEADS, CLASSES = 4, 10


def make_model(path, blocks=2, seed=0, D=64, FF=128):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.RandomState(seed)
    inits, nodes = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(name, fan_in, *shape):
        return const(name, (rng.randn(*shape) / np.sqrt(fan_in)).astype(np.float32))

    def bias(name, n):
        return const(name, (rng.randn(n) * 0.02).astype(np.float32))

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def layer_norm(x, name):
        gamma = const(name + ".weight", (1 + 0.1 * rng.randn(D)).astype(np.float32))
        beta = const(name + ".bias", (0.02 * rng.randn(D)).astype(np.float32))
        return node("LayerNormalization", [x, gamma, beta], name, axis=-1, epsilon=1e-5)

    def linear(x, name, n_in, n_out):
        y = node("MatMul", [x, weight(name + ".weight", n_in, n_in, n_out)], name + "/MatMul")
        return node("Add", [y, bias(name + ".bias", n_out)], name + "/Add")

    dh = D // HEADS
    heads_shape = const("heads_shape", np.array([0, -1, HEADS, dh], np.int64))
    model_shape = const("model_shape", np.array([0, -1, D], np.int64))
    scale = const("attention_scale", np.array(1 / np.sqrt(dh), np.float32))
    half = const("half", np.array(0.5, np.float32))
    one = const("one", np.array(1.0, np.float32))
    rsqrt2 = const("rsqrt2", np.array(1 / np.sqrt(2), np.float32))

    x = "x"
    for b in range(blocks):
        p = f"block{b}"
        h = layer_norm(x, p + "/ln1")
        q, k, v = (linear(h, f"{p}/attn/{n}", D, D) for n in "qkv")
        split = {}
        for n, t in (("q", q), ("k", k), ("v", v)):
            r = node("Reshape", [t, heads_shape], f"{p}/attn/{n}/Reshape")
            perm = [0, 2, 3, 1] if n == "k" else [0, 2, 1, 3]
            split[n] = node("Transpose", [r], f"{p}/attn/{n}/Transpose", perm=perm)
        scores = node("MatMul", [split["q"], split["k"]], f"{p}/attn/scores")
        scores = node("Mul", [scores, scale], f"{p}/attn/scale")
        probs = node("Softmax", [scores], f"{p}/attn/Softmax", axis=-1)
        ctx = node("MatMul", [probs, split["v"]], f"{p}/attn/context")
        ctx = node("Transpose", [ctx], f"{p}/attn/context/Transpose", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, model_shape], f"{p}/attn/context/Reshape")
        x = node("Add", [x, linear(ctx, f"{p}/attn/out", D, D)], f"{p}/residual1")
        h = layer_norm(x, p + "/ln2")
        h = linear(h, f"{p}/ffn/up", D, FF)
        erf = node("Erf", [node("Mul", [h, rsqrt2], f"{p}/ffn/gelu/Div")], f"{p}/ffn/gelu/Erf")
        gate = node("Mul", [node("Add", [erf, one], f"{p}/ffn/gelu/Add"), half],
                    f"{p}/ffn/gelu/Mul_1")
        h = node("Mul", [h, gate], f"{p}/ffn/gelu/Mul")
        h = linear(h, f"{p}/ffn/down", FF, D)
        x = node("Add", [x, h], f"{p}/residual2")
    x = layer_norm(x, "final_ln")
    pooled = node("ReduceMean", [x], "pool", axes=[1], keepdims=0)
    logits = "logits"
    nodes.append(helper.make_node(
        "Gemm", [pooled, weight("head.weight", D, CLASSES, D), bias("head.bias", CLASSES)],
        [logits], name="head", transB=1))
    graph = helper.make_graph(
        nodes, "transformer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", D])],
        [helper.make_tensor_value_info(logits, TensorProto.FLOAT, ["batch", CLASSES])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="onnx-quant tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--blocks", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--ff", type=int, default=128)
    args = ap.parse_args()
    make_model(args.out, args.blocks, args.seed, args.dim, args.ff)


if __name__ == "__main__":
    main()
