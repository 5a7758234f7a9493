"""The zoo's labeled data sets and their preprocessing (a module, not a script).

Shared by utils/zoo_native_check.py, bench/accuracy.py and the QDQ lit tests, so
that every tool feeds a zoo model the same tensors. Preprocessing is the one in
the zoo's MANIFEST.md (../shared/zoo/MANIFEST.md):

  mnist     mnist-cntk-opset7: raw 0..255 grey pixels as float, [1,1,28,28]
  cifar10   resnet8: RGB 0..255 as float (no mean/std), NCHW [1,3,32,32]
  imagenet  squeezenet (Caffe2): PIL RGB, bilinear resize shorter side 256,
            center crop 224, BGR, minus mean [104,117,123] (B,G,R), NCHW;
            torchvision models: RGB /255, mean/std, NCHW

Data sets (labels are 0-based class indices):

  mnist_images(zoo, n) / mnist_labels(zoo, n)   the t10k test set (10,000)
  cifar_items(zoo)       [(path, label)] of cifar10/data/test_jpg (10,000,
                         labels.csv order)
  imagenet_val_items(zoo)     [(path, label)] of imagenet/val1300 (dataset.txt)
  imagenet_sample_items(zoo)  [(path, label)] of imagenet/val_sample (one image
                         per class, probably from train: use for calibration)

Only numpy and Pillow are needed.
"""

import csv
import gzip
import os
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
IMAGENET_MEAN_BGR = np.array([104.0, 117.0, 123.0], np.float32)
TORCH_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
TORCH_STD = np.array([0.229, 0.224, 0.225], np.float32)


def default_zoo():
    env = os.environ.get("ONNX_QUANT_ZOO")
    return Path(env) if env else REPO.parent / "shared" / "zoo"


def spread(items, n):
    """n items spread evenly over the list (different classes where sorted)."""
    if n >= len(items):
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


# ----------------------------------------------------------------------------
# Item lists
# ----------------------------------------------------------------------------

def imagenet_val_items(zoo):
    """[(path, label)] of imagenet/val1300, in dataset.txt order."""
    out = []
    for ln in (zoo / "imagenet/val1300/dataset.txt").read_text().splitlines():
        if ln.strip():
            name, label = ln.split(",")
            out.append((zoo / "imagenet/val1300" / name.strip().split("/")[-1],
                        int(label)))
    return out


def imagenet_sample_items(zoo):
    """[(path, label)] of imagenet/val_sample (labels.csv order)."""
    with open(zoo / "imagenet/val_sample/labels.csv", newline="") as f:
        return [(zoo / "imagenet/val_sample" / row["file"], int(row["class_index"]))
                for row in csv.DictReader(f)]


def cifar_items(zoo):
    """[(path, label)] of cifar10/data/test_jpg (labels.csv order)."""
    with open(zoo / "cifar10/data/test_jpg/labels.csv", newline="") as f:
        return [(zoo / "cifar10/data/test_jpg" / row["file"], int(row["class_index"]))
                for row in csv.DictReader(f)]


def imagenet_files(zoo, n):
    return [p for p, _ in spread(imagenet_val_items(zoo), n)]


def cifar_files(zoo, n):
    return [p for p, _ in spread(cifar_items(zoo), n)]


def _idx(path, magic_expected, n):
    with gzip.open(path, "rb") as f:
        ndim = magic_expected & 0xFF
        head = f.read(4 + 4 * ndim)
        header = np.frombuffer(head, ">u4")
        if header[0] != magic_expected:
            raise ValueError(f"{path}: bad idx magic {header[0]}")
        dims = [int(d) for d in header[1:]]
        count = dims[0] if n is None else min(n, dims[0])
        per = int(np.prod(dims[1:])) if ndim > 1 else 1
        data = f.read(count * per)
    return np.frombuffer(data, np.uint8).reshape([count, *dims[1:]])


def mnist_images(zoo, n=None):
    """First n t10k test images as uint8 [n,28,28] (idx3: 16-byte header)."""
    return _idx(zoo / "mnist/data/t10k-images-idx3-ubyte.gz", 2051, n)


def mnist_labels(zoo, n=None):
    """First n t10k test labels as uint8 [n] (idx1: 8-byte header)."""
    return _idx(zoo / "mnist/data/t10k-labels-idx1-ubyte.gz", 2049, n)


# ----------------------------------------------------------------------------
# Preprocessing
# ----------------------------------------------------------------------------

def load_rgb(path, resize_crop):
    """HWC float32 RGB 0..255; resize_crop: shorter side 256 (bilinear), center
    crop 224."""
    from PIL import Image
    with Image.open(path) as im:
        im = im.convert("RGB")
        if resize_crop:
            w, h = im.size
            s = 256 / min(w, h)
            im = im.resize((max(224, round(w * s)), max(224, round(h * s))),
                           Image.BILINEAR)
            w, h = im.size
            left, top = (w - 224) // 2, (h - 224) // 2
            im = im.crop((left, top, left + 224, top + 224))
        return np.asarray(im, np.float32)


def image_tensor(path, images, preprocess):
    """One image as a float32 NCHW [1,3,H,W] tensor. images: 'imagenet' |
    'cifar10'; preprocess: 'raw' | 'bgr_minus_mean' | 'torchvision'."""
    hwc = load_rgb(path, resize_crop=images == "imagenet")
    if preprocess == "bgr_minus_mean":
        hwc = hwc[:, :, ::-1] - IMAGENET_MEAN_BGR
    elif preprocess == "torchvision":
        hwc = (hwc / 255.0 - TORCH_MEAN) / TORCH_STD
    elif preprocess != "raw":
        raise ValueError(f"unknown preprocessing {preprocess}")
    return np.ascontiguousarray(hwc.transpose(2, 0, 1)[None], dtype=np.float32)


def mnist_tensor(img):
    """One uint8 [28,28] MNIST image as float32 [1,1,28,28] (raw 0..255)."""
    return img.astype(np.float32)[None, None]
