"""make_samples.py DIR FIRST COUNT: writes COUNT samples FIRST.npy ... of
shape 1x4, sample k holding [k, k+1, k+2, k+3] (float32)."""
import sys

import numpy as np

out, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for k in range(first, first + count):
    np.save("%s/s%d.npy" % (out, k),
            (np.arange(4, dtype=np.float32) + k).reshape(1, 4))
