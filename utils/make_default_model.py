#!/usr/bin/env python3
"""Build onnx-quant's built-in default model: a small CNN for handwritten digits.

The CNN is trained here, in plain numpy (no torch/tf), on scikit-learn's bundled
`load_digits` data set (1797 8x8 grey images, no download needed). The result is
fully deterministic (fixed seeds, single-threaded BLAS) and takes ~10 s on 2 cores.

Model (opset 13, ir_version 7, so libonnx/onnx 1.12 can read it):
    image  float32 [1,1,8,8]  pixel values 0..16 divided by 16, i.e. in [0, 1]
    Conv(1->8, 3x3, pad 1, no bias) -> BatchNormalization -> Relu -> MaxPool 2x2
    -> Conv(8->16, 3x3, pad 1) -> Relu -> MaxPool 2x2 -> Flatten -> Gemm(64->10)
    logits float32 [1,10]  (argmax = digit)
The BatchNormalization is real: it is trained with batch statistics and its
mean/var inputs are the population statistics of the training set (so the
`onnx-fold-batchnorm` pass has something to fold).

A stratified 20% test split (random_state 0) is held out and never trained on.
Outputs in --out-dir:
    digits_cnn.onnx            the model
    digits_test_images.npy     float32 [N,1,8,8], the held-out images (scaled as above)
    digits_test_labels.npy     int64 [N], their labels
Train and held-out accuracy are measured with ONNX Runtime on the written model;
the script fails if the held-out accuracy is below 95%. If all outputs exist and
are newer than this script, training is skipped (accuracy is still reported);
--force retrains.

Run:  .venv/bin/python utils/make_default_model.py --out-dir out/default-model [--force]
"""

import os

# Single-threaded BLAS before numpy is imported: bit-for-bit reproducible training.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

MODEL_FILE = "digits_cnn.onnx"
IMAGES_FILE = "digits_test_images.npy"
LABELS_FILE = "digits_test_labels.npy"
CALIBRATION_DIR = "digits_calibration"
MIN_TEST_ACCURACY = 0.95

SEED = 0
EPOCHS = 30
BATCH = 32
LEARNING_RATE = 3e-3
BN_EPS = 1e-5


def load_split():
    """Return (x_train, y_train, x_test, y_test); x is float32 [N,1,8,8] in [0,1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    x = (digits.images.astype(np.float32) / 16.0).reshape(-1, 1, 8, 8)
    y = digits.target.astype(np.int64)
    x_tr, x_te, y_tr, y_te = train_test_split(
        x, y, test_size=0.2, stratify=y, random_state=SEED)
    return x_tr, y_tr, x_te, y_te


# --------------------------------------------------------------------------- layers
# Activations are NCHW; conv weights are OIHW like ONNX. Training runs in float64.

def im2col(x):
    """[N,C,H,W] -> [N*H*W, C*9] patches of a 3x3, pad-1, stride-1 convolution."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 3))  # N,C,H,W,3,3
    return win.transpose(0, 2, 3, 1, 4, 5).reshape(n * h * w, c * 9)


def col2im(dcols, shape):
    """Adjoint of im2col: scatter-add patch gradients back to [N,C,H,W]."""
    n, c, h, w = shape
    d = dcols.reshape(n, h, w, c, 3, 3)
    dxp = np.zeros((n, c, h + 2, w + 2), dtype=dcols.dtype)
    for i in range(3):
        for j in range(3):
            dxp[:, :, i:i + h, j:j + w] += d[:, :, :, :, i, j].transpose(0, 3, 1, 2)
    return dxp[:, :, 1:-1, 1:-1]


def conv_forward(x, w, b):
    n, _, h, wd = x.shape
    cols = im2col(x)
    out = cols @ w.reshape(w.shape[0], -1).T
    if b is not None:
        out = out + b
    return out.reshape(n, h, wd, -1).transpose(0, 3, 1, 2), cols


def conv_backward(dout, cols, x_shape, w):
    o = w.shape[0]
    dmat = dout.transpose(0, 2, 3, 1).reshape(-1, o)
    dw = (dmat.T @ cols).reshape(w.shape)
    db = dmat.sum(axis=0)
    dx = col2im(dmat @ w.reshape(o, -1), x_shape)
    return dx, dw, db


def maxpool_forward(x):
    """2x2 stride-2 max pool; returns output and the argmax of each window."""
    n, c, h, w = x.shape
    win = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5)
    win = win.reshape(n, c, h // 2, w // 2, 4)
    idx = win.argmax(axis=-1)
    return np.take_along_axis(win, idx[..., None], -1)[..., 0], idx


def maxpool_backward(dout, idx, x_shape):
    n, c, h, w = x_shape
    dwin = np.zeros(dout.shape + (4,), dtype=dout.dtype)
    np.put_along_axis(dwin, idx[..., None], dout[..., None], -1)
    dwin = dwin.reshape(n, c, h // 2, w // 2, 2, 2).transpose(0, 1, 2, 4, 3, 5)
    return dwin.reshape(x_shape)


def init_params(rng):
    def he(shape, fan_in):
        return rng.normal(0.0, np.sqrt(2.0 / fan_in), size=shape)

    return {
        "conv1_w": he((8, 1, 3, 3), 9),
        "bn1_scale": np.ones(8), "bn1_bias": np.zeros(8),
        "conv2_w": he((16, 8, 3, 3), 72), "conv2_b": np.zeros(16),
        "fc_w": he((10, 64), 64), "fc_b": np.zeros(10),
    }


def forward(p, x, bn_stats=None):
    """Forward pass. bn_stats=None: training mode (batch statistics), else (mean, var).

    Returns logits and a cache for backward().
    """
    c1, cols1 = conv_forward(x, p["conv1_w"], None)
    if bn_stats is None:
        mean, var = c1.mean(axis=(0, 2, 3)), c1.var(axis=(0, 2, 3))
    else:
        mean, var = bn_stats
    inv_std = 1.0 / np.sqrt(var + BN_EPS)
    xhat = (c1 - mean[None, :, None, None]) * inv_std[None, :, None, None]
    bn = xhat * p["bn1_scale"][None, :, None, None] + p["bn1_bias"][None, :, None, None]
    r1 = np.maximum(bn, 0.0)
    m1, idx1 = maxpool_forward(r1)
    c2, cols2 = conv_forward(m1, p["conv2_w"], p["conv2_b"])
    r2 = np.maximum(c2, 0.0)
    m2, idx2 = maxpool_forward(r2)
    flat = m2.reshape(len(x), -1)
    logits = flat @ p["fc_w"].T + p["fc_b"]
    cache = dict(x=x, cols1=cols1, c1=c1, xhat=xhat, inv_std=inv_std, bn=bn, r1=r1,
                 idx1=idx1, m1=m1, cols2=cols2, c2=c2, r2=r2, idx2=idx2, flat=flat)
    return logits, cache


def backward(p, cache, dlogits):
    """Gradients of all parameters (training-mode BatchNormalization)."""
    g = {}
    k = cache
    g["fc_w"] = dlogits.T @ k["flat"]
    g["fc_b"] = dlogits.sum(axis=0)
    dm2 = (dlogits @ p["fc_w"]).reshape(k["r2"].shape[0], 16, 2, 2)
    dr2 = maxpool_backward(dm2, k["idx2"], k["r2"].shape)
    dc2 = dr2 * (k["c2"] > 0)
    dm1, g["conv2_w"], g["conv2_b"] = conv_backward(dc2, k["cols2"], k["m1"].shape,
                                                    p["conv2_w"])
    dr1 = maxpool_backward(dm1, k["idx1"], k["r1"].shape)
    dbn = dr1 * (k["bn"] > 0)
    g["bn1_scale"] = (dbn * k["xhat"]).sum(axis=(0, 2, 3))
    g["bn1_bias"] = dbn.sum(axis=(0, 2, 3))
    dxhat = dbn * p["bn1_scale"][None, :, None, None]
    m = dbn.shape[0] * dbn.shape[2] * dbn.shape[3]
    dc1 = (k["inv_std"][None, :, None, None] / m) * (
        m * dxhat - dxhat.sum(axis=(0, 2, 3), keepdims=True)
        - k["xhat"] * (dxhat * k["xhat"]).sum(axis=(0, 2, 3), keepdims=True))
    _, g["conv1_w"], _ = conv_backward(dc1, k["cols1"], k["x"].shape, p["conv1_w"])
    return g


def train(x_train, y_train):
    """Adam + softmax cross-entropy; returns float64 params and BN population stats."""
    rng = np.random.default_rng(SEED)
    p = init_params(rng)
    x = x_train.astype(np.float64)
    adam_m = {k: np.zeros_like(v) for k, v in p.items()}
    adam_v = {k: np.zeros_like(v) for k, v in p.items()}
    step = 0
    for epoch in range(EPOCHS):
        lr = LEARNING_RATE * 0.5 * (1 + np.cos(np.pi * epoch / EPOCHS))  # cosine decay
        order = rng.permutation(len(x))
        for start in range(0, len(x), BATCH):
            batch = order[start:start + BATCH]
            logits, cache = forward(p, x[batch])
            prob = np.exp(logits - logits.max(axis=1, keepdims=True))
            prob /= prob.sum(axis=1, keepdims=True)
            prob[np.arange(len(batch)), y_train[batch]] -= 1.0
            grads = backward(p, cache, prob / len(batch))
            step += 1
            for name, grad in grads.items():
                if name.endswith("_w"):
                    grad = grad + 1e-4 * p[name]  # light L2 on weights
                adam_m[name] = 0.9 * adam_m[name] + 0.1 * grad
                adam_v[name] = 0.999 * adam_v[name] + 0.001 * grad * grad
                mhat = adam_m[name] / (1 - 0.9 ** step)
                vhat = adam_v[name] / (1 - 0.999 ** step)
                p[name] -= lr * mhat / (np.sqrt(vhat) + 1e-8)
    # BatchNormalization inference statistics: population mean/var of the conv1 output
    # over the whole training set (what the network was normalised with, in expectation).
    c1, _ = conv_forward(x, p["conv1_w"], None)
    return p, (c1.mean(axis=(0, 2, 3)), c1.var(axis=(0, 2, 3)))


# --------------------------------------------------------------------------- ONNX

def build_onnx(p, bn_stats):
    from onnx import TensorProto, checker, helper, numpy_helper

    def init(name, arr):
        return numpy_helper.from_array(np.asarray(arr, dtype=np.float32), name)

    mean, var = bn_stats
    initializers = [
        init("conv1.weight", p["conv1_w"]),
        init("bn1.scale", p["bn1_scale"]), init("bn1.bias", p["bn1_bias"]),
        init("bn1.mean", mean), init("bn1.var", var),
        init("conv2.weight", p["conv2_w"]), init("conv2.bias", p["conv2_b"]),
        init("fc.weight", p["fc_w"]), init("fc.bias", p["fc_b"]),
    ]
    conv = dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
    pool = dict(kernel_shape=[2, 2], strides=[2, 2])
    nodes = [
        helper.make_node("Conv", ["image", "conv1.weight"], ["conv1"], name="conv1", **conv),
        helper.make_node("BatchNormalization",
                         ["conv1", "bn1.scale", "bn1.bias", "bn1.mean", "bn1.var"],
                         ["bn1"], name="bn1", epsilon=BN_EPS),
        helper.make_node("Relu", ["bn1"], ["relu1"], name="relu1"),
        helper.make_node("MaxPool", ["relu1"], ["pool1"], name="pool1", **pool),
        helper.make_node("Conv", ["pool1", "conv2.weight", "conv2.bias"], ["conv2"],
                         name="conv2", **conv),
        helper.make_node("Relu", ["conv2"], ["relu2"], name="relu2"),
        helper.make_node("MaxPool", ["relu2"], ["pool2"], name="pool2", **pool),
        helper.make_node("Flatten", ["pool2"], ["flatten"], name="flatten", axis=1),
        helper.make_node("Gemm", ["flatten", "fc.weight", "fc.bias"], ["logits"],
                         name="fc", transB=1),
    ]
    graph = helper.make_graph(
        nodes, "digits_cnn",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 1, 8, 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
        initializer=initializers)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)],
        producer_name="onnx-quant utils/make_default_model.py",
        doc_string="CNN for sklearn load_digits (8x8, pixels/16 in [0,1]); "
                   "output: logits of digits 0-9.")
    model.ir_version = 7
    checker.check_model(model)
    return model


def ort_predict(model_path, images):
    """Arg-max class of each image, computed by ONNX Runtime (CPU, 1 thread)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
    return np.array([int(np.argmax(sess.run(None, {"image": img[None]})[0]))
                     for img in images], dtype=np.int64)


def save_atomically(path, writer):
    """Write via a temp file in the same directory, then rename (no partial outputs)."""
    tmp = str(path.with_name(f"{path.name}.{os.getpid()}.tmp"))
    try:
        writer(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def up_to_date(outputs):
    script_mtime = Path(__file__).stat().st_mtime
    return all(o.exists() and o.stat().st_mtime > script_mtime for o in outputs)


def write_calibration_samples(directory, x_train, count=100, seed=0):
    """One .npy per sample, drawn from the training split (never the held-out
    images the accuracy is measured on): the data `--onnx-calibrate` reads."""
    directory.mkdir(parents=True, exist_ok=True)
    chosen = np.random.default_rng(seed).choice(len(x_train), count, replace=False)
    for i, index in enumerate(sorted(chosen)):
        path = directory / f"sample_{i:03d}.npy"
        if not path.exists():
            save_atomically(path, lambda f: np.save(open(f, "wb"), x_train[index][None]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", required=True, type=Path, help="where to write the files")
    ap.add_argument("--force", action="store_true", help="retrain even if up to date")
    args = ap.parse_args()

    out = args.out_dir
    model_path, images_path, labels_path = (out / MODEL_FILE, out / IMAGES_FILE,
                                            out / LABELS_FILE)
    x_tr, y_tr, x_te, y_te = load_split()

    if not args.force and up_to_date([model_path, images_path, labels_path]):
        print(f"up to date: {model_path} (use --force to retrain)")
    else:
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.time()
        params, bn_stats = train(x_tr, y_tr)
        model = build_onnx(params, bn_stats)
        print(f"trained in {time.time() - t0:.1f} s on {len(x_tr)} images "
              f"({EPOCHS} epochs)")
        save_atomically(images_path, lambda f: np.save(open(f, "wb"), x_te))
        save_atomically(labels_path, lambda f: np.save(open(f, "wb"), y_te))
        save_atomically(model_path, lambda f: open(f, "wb").write(model.SerializeToString()))
        print(f"wrote {model_path}, {images_path}, {labels_path}")

    write_calibration_samples(out / CALIBRATION_DIR, x_tr)

    train_acc = float(np.mean(ort_predict(model_path, x_tr) == y_tr))
    test_acc = float(np.mean(ort_predict(model_path, np.load(images_path))
                             == np.load(labels_path)))
    print(f"ONNX Runtime accuracy: train {train_acc:.2%} ({len(y_tr)} images), "
          f"held-out {test_acc:.2%} ({len(y_te)} images)")
    if test_acc < MIN_TEST_ACCURACY:
        print(f"error: held-out accuracy below {MIN_TEST_ACCURACY:.0%}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
