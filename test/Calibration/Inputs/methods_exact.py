"""Writes the hand-built samples of methods-exact.test (`make DIR`) and checks
the saved tables against the answers worked out there (`check DIR`).

A: one sample of 10000 values: 7953 x 0.5, one value b + 0.5 for each
b = 1..2046, and 2048. B: the same negated."""
import json
import sys
from pathlib import Path

import numpy as np

BINS = 2048
A = np.concatenate([np.full(7953, 0.5), np.arange(1, 2047) + 0.5, [2048.0]]).astype(np.float32)
# The first sample's max|x| lands in the last bin: width = 2048 / 2048 * (1 + 1e-6).
WIDTH = 2048.0 / BINS * (1 + 1e-6)


def threshold(bins):
    """A threshold of `bins` bins as the tool stores it (float32)."""
    return float(np.float32(bins * WIDTH))


def histogram():
    """Counts per bin: bin b holds [b w, (b + 1) w); 0.5 is in bin 0, b + 0.5 in
    bin b (b + 0.5 < (b + 1) w), 2048 in bin 2047."""
    h = np.zeros(BINS, np.int64)
    np.add.at(h, np.minimum(np.floor(np.abs(A.astype(np.float64)) / WIDTH).astype(np.int64), BINS - 1), 1)
    return h


def percentile_bins(p):
    """The first bin whose cumulative count reaches p % of the 10000 values."""
    cumulative = np.cumsum(histogram())
    return int(np.argmax(cumulative >= p / 100 * A.size)) + 1


def mse_bins(levels):
    """argmin over t = i w of (values below t) (t / levels)^2 / 12 + the clipped
    values' sum of (bin center - t)^2, evaluated term by term."""
    h = histogram()
    best = None
    for i in range(1, BINS + 1):
        t = i * WIDTH
        inside = h[:i].sum() * (t / levels) ** 2 / 12
        centers = (np.arange(i, BINS) + 0.5) * WIDTH
        clipped = float(np.sum(h[i:] * (centers - t) ** 2))
        if best is None or inside + clipped < best[0]:
            best = (inside + clipped, i)
    return best[1]


def make(out):
    for name, x in [("A", A), ("B", -A)]:
        d = Path(out) / name
        d.mkdir(parents=True, exist_ok=True)
        np.save(d / "s.npy", x.reshape(1, -1))


def check(out):
    assert (histogram() == np.concatenate([[7953], np.ones(BINS - 1, np.int64)])).all()
    lo, hi = 0.5, 2048.0
    for name in ["A", "B"]:
        signed = name == "B"
        levels = 127 if signed else 255
        expected = {
            ("minmax", "x"): (-hi, -lo) if signed else (lo, hi),
            ("minmax", "relu"): (0.0, 0.0) if signed else (lo, hi),
        }
        answers = {"percentile99": percentile_bins(99), "percentile50": percentile_bins(50),
                   "entropy": 2 * levels - 1,
                   "entropy-floor99": max(2 * levels - 1, percentile_bins(99)),
                   "default": max(2 * levels - 1, percentile_bins(99.999)),
                   "mse": mse_bins(levels)}
        for method, bins in answers.items():
            t = min(threshold(bins), hi)  # never beyond max|x|
            expected[(method, "x")] = (-t, t) if signed else (0.0, t)
            # All zeros (B's relu) have no histogram: the exact [0, 0].
            expected[(method, "relu")] = (0.0, 0.0) if signed else (0.0, t)
        for (method, tensor), want in expected.items():
            table = json.load(open(Path(out) / f"{name}-{method}.json"))["tensors"]
            got = (table[tensor]["min"], table[tensor]["max"])
            bins = answers.get(method)
            what = f"{bins} bins = {want[1]:.9g}" if bins and want[1] else f"[{want[0]:g}, {want[1]:g}]"
            print(f"{name} {method} {tensor}: {what}: "
                  f"{'exact' if got == want else f'GOT [{got[0]:.9g}, {got[1]:.9g}]'}")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
