"""The zoo's QOperator int8 model compiled by us vs ONNX Runtime running it.

Usage: qoperator_zoo_check.py --tool TOOL --runner runner.c --utils UTILS
           --zoo ZOO --work DIR [--images 4] [--requant float|integer]

imagenet/models/mobilenetv2-12-int8.onnx (QLinearConv, QLinearAdd,
QLinearGlobalAveragePool, QLinearMatMul; opset 12, compiled with only the
given --requant: its shapes resolve at import) on the first
IMAGES images of the zoo's ImageNet sample (torchvision preprocessing,
utils/zoo_data.py). The step is the scale of the output's DequantizeLinear.
Prints
`PASS|FAIL  mobilenetv2-int8 requant=R  N elements: within one step (scale S) P %,
exactly equal E %, max M steps, top-1 agrees A/I`; PASS needs >= 99 % within
one step. Exit 1 on a FAIL.
"""
import argparse
import sys
from pathlib import Path

import numpy as np


def main():
    p = argparse.ArgumentParser()
    for flag in ("--tool", "--runner", "--utils", "--zoo", "--work"):
        p.add_argument(flag, required=True)
    p.add_argument("--images", type=int, default=4)
    p.add_argument("--requant", choices=("float", "integer"), default="float")
    args = p.parse_args()
    sys.path.insert(0, args.utils)
    import qdq_compare
    import zoo_data

    model = Path(args.zoo) / "imagenet/models/mobilenetv2-12-int8.onnx"
    work = Path(args.work)
    exe = qdq_compare.build_runner(args.tool, str(model),
                                   [f"--requant={args.requant}"],
                                   work, "mobilenetv2_int8", args.runner)
    files = zoo_data.imagenet_files(Path(args.zoo), args.images)
    xs = [zoo_data.image_tensor(f, "imagenet", "torchvision") for f in files]
    ours = np.stack([qdq_compare.run_native(exe, x, work) for x in xs])
    ref = np.stack(qdq_compare.ort_run(str(model), xs))
    step, _, _ = qdq_compare.output_step(str(model))
    a = qdq_compare.agreement(ours, ref, step)
    top1 = sum(int(np.argmax(o) == np.argmax(r)) for o, r in zip(ours, ref))
    ok = a["within"] >= 0.99
    print(f"{'PASS' if ok else 'FAIL'}  mobilenetv2-int8 requant={args.requant}  "
          f"{a['n']} elements: "
          f"within one step (scale {step:.4g}) {100 * a['within']:.2f} %, "
          f"exactly equal {100 * a['exact']:.2f} %, max {a['max_steps']:.0f} steps, "
          f"top-1 agrees {top1}/{len(xs)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
