"""Checks the fallback's figures for Inputs/fallback-narrow-output.mlir
against numpy: with `last` in float the model computes DQ(Q(x)) (x's and
h's Q/DQ share the range [-4, 4]: u8, scale 8/255, zero point 127, and the
identity weights are exact); with everything quantized, that clipped to
`last`'s range [-1, 1] on its own grid (scale 2/255, zero point 127)."""
import glob
import json
import sys

import numpy as np


def fake_quant(x, scale, zero_point):
    q = np.clip(np.rint(x / scale) + zero_point, 0, 255)
    return ((q - zero_point) * scale).astype(np.float32)


def sqnr(x, y):
    x, y = x.astype(np.float64), y.astype(np.float64)
    return 20 * np.log10(np.linalg.norm(x) / np.linalg.norm(x - y))


data_dir, report = sys.argv[1], sys.argv[2]
x = np.concatenate([np.load(f).reshape(-1)
                    for f in sorted(glob.glob(f"{data_dir}/*.npy"))])
s = np.float32(8 / 255)
h = fake_quant(x, s, 127)
expected_float_last = sqnr(x, h)
expected_all = sqnr(x, fake_quant(h, np.float32(2 / 255), 127))
fallback = json.load(open(report))["fallback"]
got_float_last = fallback["kept"][0]["alone_sqnr"]
got_all = fallback["quantized_output_sqnr"]
for what, got, want in [("last in float", got_float_last, expected_float_last),
                        ("all quantized", got_all, expected_all)]:
    ok = abs(got - want) <= 0.01
    print(f"{what}: {got:.4f} dB, numpy {want:.4f} dB: {'ok' if ok else 'MISMATCH'}")
    if not ok:
        sys.exit(1)
