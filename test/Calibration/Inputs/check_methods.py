"""Prints what methods.test checks: each method's range against bounds."""
import glob
import json
import sys

import numpy as np

data, out = sys.argv[1], sys.argv[2]
x = np.concatenate([np.load(f).ravel() for f in sorted(glob.glob(f"{data}/*.npy"))])
bounds = {
    ("percentile", "x"): (4.5, 4.75),
    # Half of the Relu output is 0: its 99th percentile is |x|'s 98th, ln(50).
    ("percentile", "relu"): (3.8, 4.1),
    ("entropy", "x"): (8, 11.5), ("entropy", "relu"): (8, 11.5),
    ("mse", "x"): (8.5, 11.5), ("mse", "relu"): (8, 12),
}
for method in ["minmax", "percentile", "entropy", "mse"]:
    tensors = json.load(open(f"{out}/{method}.json"))["tensors"]
    for name in ["x", "relu"]:
        r = tensors[name]
        assert r["method"] == method and r["samples"] == 20, r
        lo, hi = r["min"], r["max"]
        if method == "minmax":
            if name == "x":
                ok = lo == x.min() and hi == x.max()
                print(f"minmax x {'equals' if ok else 'DIFFERS FROM'} numpy's min and max")
            else:
                ok = lo == 0 and hi == x.max()
                print(f"minmax relu {'equals' if ok else 'DIFFERS FROM'} [0, numpy's max]")
            continue
        shape = "symmetric" if lo == -hi else "from 0" if lo == 0 else f"[{lo}, {hi}]"
        low, high = bounds[(method, name)]
        inside = f"in [{low}, {high}]" if low <= hi <= high else f"= {hi} OUT OF [{low}, {high}]"
        print(f"{method} {name} {shape}, t {inside}")
