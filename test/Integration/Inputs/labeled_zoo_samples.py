"""Writes labeled zoo images as .npy samples and a report-labels= file.

  labeled_zoo_samples.py --zoo DIR --out DIR --labels FILE [--first 0] [--count 8]

Images `first`..`first + count` (spread over the set) of the zoo's ImageNet
evaluation images (imagenet/val1300, labels from its dataset.txt), preprocessed
for SqueezeNet 1.1 (utils/zoo_data.py: resize 256, crop 224, BGR minus mean),
saved as OUT/NNN.npy; FILE gets one `NNN.npy CLASS` line per sample.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "utils"))
import zoo_data  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zoo", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, default=8)
    args = ap.parse_args()
    items = zoo_data.spread(zoo_data.imagenet_val_items(args.zoo), args.first + args.count)
    args.out.mkdir(parents=True, exist_ok=True)
    lines = []
    for k, (path, label) in enumerate(items[args.first:]):
        name = f"{k:03d}.npy"
        np.save(args.out / name, zoo_data.image_tensor(path, "imagenet", "bgr_minus_mean"))
        lines.append(f"{name} {label}\n")
    args.labels.write_text("".join(lines))


if __name__ == "__main__":
    main()
