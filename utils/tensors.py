"""Tensor helpers shared by ort_compare.py and pass_check.py (not a script).

`UsageError`            a problem with arguments, models or input files (exit 2).
`load_tensor_file(p)`   a .npy or ONNX TensorProto .pb file as a numpy array.
`split_samples(a, sig)` one input array as a list of per-run arrays: itself, or
                        its N samples when its leading dimension N stands for a
                        static 1 of the model (sig = (name, dtype, shape, raw_shape)).
`random_input(rng, dtype, shape)`  seeded random data of a dtype: N(0, 1) for
                        floats, the full range for 8-bit integers, 0..3 for
                        wider integers (often indices or sizes).
`sqnr(ref, y)`          10 log10(sum ref^2 / sum (ref - y)^2) in dB over all
                        elements (inf when equal), in float64.
`compare(a, b, exact, rtol, atol)` -> (ok, worst_abs, worst_rel), numpy allclose
                        semantics |a - b| <= atol + rtol * |b| (b the reference;
                        NaN matches NaN), or bitwise with exact=True.
Only numpy is needed (onnx for .pb files), not ONNX Runtime.
"""

from pathlib import Path

import numpy as np


class UsageError(Exception):
    """A problem with the arguments, models or input files (exit status 2)."""


def load_tensor_file(path):
    path = Path(path)
    if path.suffix == ".npy":
        return np.load(path, allow_pickle=False)
    if path.suffix == ".pb":
        import onnx
        from onnx import numpy_helper

        tensor = onnx.TensorProto()
        tensor.ParseFromString(path.read_bytes())
        return numpy_helper.to_array(tensor)
    raise UsageError(f"{path}: expected a .npy or .pb file")


def split_samples(array, sig):
    """Return a list of per-run arrays for one input: the array itself, or its N samples."""
    name, dtype, shape, raw_shape = sig
    if array.dtype != dtype:
        raise UsageError(f"input '{name}': file has {array.dtype}, model wants {dtype}")

    def fits(s):
        return len(s) == len(raw_shape) and all(
            not isinstance(d, int) or d < 0 or d == n for d, n in zip(raw_shape, s))
    if fits(array.shape):
        return [array]
    if raw_shape and raw_shape[0] == 1 and array.ndim == len(raw_shape) and fits(
            (1,) + array.shape[1:]):
        return [array[i:i + 1] for i in range(array.shape[0])]
    raise UsageError(f"input '{name}': file shape {list(array.shape)} does not fit "
                     f"model shape {raw_shape}")


def random_input(rng, dtype, shape):
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    if info.bits == 8:  # full range: quantized data
        return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)
    return rng.integers(0, 4, shape, dtype=dtype)  # small: often indices or sizes


def sqnr(ref, y):
    ref = np.asarray(ref, np.float64).ravel()
    y = np.asarray(y, np.float64).ravel()
    noise = np.sum((ref - y) ** 2)
    return float("inf") if noise == 0 else float(10 * np.log10(np.sum(ref ** 2) / noise))


def compare(a, b, exact, rtol, atol):
    """Return (ok, worst_abs, worst_rel) for two arrays of equal shape and dtype."""
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.number):  # bool, string
        same = bool(np.array_equal(a, b))
        return same, float(not same), float(not same)
    if exact:
        ok = a.tobytes() == b.tobytes()  # bitwise: tells -0.0 from 0.0, NaN payloads
    # 1-D views: item assignment below also works for rank-0 outputs.
    a64, b64 = a.astype(np.float64).reshape(-1), b.astype(np.float64).reshape(-1)
    nan_a, nan_b = np.isnan(a64), np.isnan(b64)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a64 - b64)
        diff[nan_a & nan_b] = 0.0
        diff[nan_a ^ nan_b] = np.inf
        diff[np.isinf(a64) & (a64 == b64)] = 0.0
        rel = diff / np.maximum(np.abs(b64), np.finfo(np.float64).tiny)
        rel[diff == 0] = 0.0
        if not exact:
            ok = bool(np.all(diff <= atol + rtol * np.abs(np.nan_to_num(b64))))
    worst_abs = float(diff.max()) if diff.size else 0.0
    worst_rel = float(rel.max()) if rel.size else 0.0
    return ok, worst_abs, worst_rel
