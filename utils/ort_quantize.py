#!/usr/bin/env python3
"""Quantize a float ONNX model with ONNX Runtime's `quantize_static` (QDQ form),
or with its `quantize_dynamic` (`--dynamic`).

Runs in the venv of ONNX Runtime's quantization tools (.venv-ortq, onnx >= 1.14),
not the main venv:

  .venv-ortq/bin/python utils/ort_quantize.py FLOAT.onnx CALIB_DIR OUT.onnx \\
      [--activations u8|s8|u16|s16] [--weights s8|u8|s16|u16] [--per-channel] \\
      [--method minmax|entropy|percentile] [--op-types Conv,Gemm,...]

With --dynamic, CALIB_DIR is not read (give `-`): quantize_dynamic with the
given weight type and per_channel, ORT's defaults otherwise.

With --matmul-4bits BLOCK, CALIB_DIR is not read either: ORT's weight-only
MatMulNBitsQuantizer (4-bit MatMul weights in blocks of BLOCK along K,
symmetric with --symmetric; --bits 8: 8-bit) writes DequantizeLinear of
int4/uint4 (opset 21, --format qdq) or com.microsoft MatMulNBits (--format
qoperator).

CALIB_DIR holds one float32 .npy per calibration sample (the model's single
input, with or without its leading batch dimension of 1), read in sorted
order. The samples are fed to a CalibrationDataReader as they are: no
preprocessing happens here, so ours and ORT's quantizer see the same tensors.

quantize_static is called with quant_format=QuantFormat.QDQ, the given
activation/weight types (QUInt8/QInt8 by default), per_channel, the calibration
method, and otherwise ORT's defaults (no quant_pre_process: the caller passes a
model whose BatchNormalization is already folded). The written model is made
readable by onnx 1.12 (libonnx 1.12 in our importer): ir_version 8, and the
script fails if the default-domain opset is above 17 (ORT keeps the input
model's opset, or raises opsets below 11 to 11; with --per-channel it needs 13).

Prints one line: `ort_quantize: OUT (N QuantizeLinear, M DequantizeLinear,
opset K)`. Exit status 2 on bad usage.
"""

import argparse
import collections
import sys
from pathlib import Path

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("model", type=Path)
    ap.add_argument("calib", type=Path, help="folder of .npy samples")
    ap.add_argument("out", type=Path)
    ap.add_argument("--activations", choices=["u8", "s8", "u16", "s16"], default="u8")
    ap.add_argument("--weights", choices=["u8", "s8", "u16", "s16"], default="s8")
    ap.add_argument("--per-channel", action="store_true")
    ap.add_argument("--matmul-4bits", type=int, metavar="BLOCK",
                    help="ORT's 4-bit weight-only MatMulNBitsQuantizer, blocks of BLOCK")
    ap.add_argument("--format", choices=["qdq", "qoperator"], default="qdq")
    ap.add_argument("--bits", type=int, choices=[4, 8], default=4,
                    help="--matmul-4bits: MatMulNBits' bits")
    ap.add_argument("--symmetric", action="store_true")
    ap.add_argument("--dynamic", action="store_true",
                    help="quantize_dynamic (no calibration data) instead of quantize_static")
    ap.add_argument("--method", choices=["minmax", "entropy", "percentile"],
                    default="minmax")
    ap.add_argument("--op-types", default="",
                    help="comma-separated op types to quantize (default: ORT's)")
    args = ap.parse_args()

    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod,
                                          QuantFormat, QuantType, quantize_static)

    model = onnx.load(str(args.model))
    inits = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    if len(inputs) != 1:
        print(f"error: {args.model}: expected one graph input, got {len(inputs)}",
              file=sys.stderr)
        return 2
    qtype = {"u8": QuantType.QUInt8, "s8": QuantType.QInt8,
             "u16": QuantType.QUInt16, "s16": QuantType.QInt16}
    kwargs = {}
    if args.op_types:
        kwargs["op_types_to_quantize"] = args.op_types.split(",")
    if args.matmul_4bits:
        from onnxruntime.quantization.matmul_nbits_quantizer import (
            DefaultWeightOnlyQuantConfig, MatMulNBitsQuantizer)
        config = DefaultWeightOnlyQuantConfig(
            block_size=args.matmul_4bits, is_symmetric=args.symmetric, bits=args.bits,
            quant_format=QuantFormat.QDQ if args.format == "qdq" else QuantFormat.QOperator)
        quantizer = MatMulNBitsQuantizer(model, algo_config=config)
        quantizer.process()
        quantizer.model.save_model_to_file(str(args.out), use_external_data_format=False)
        return finish(args.out, max_opset=21)
    if args.dynamic:
        from onnxruntime.quantization import quantize_dynamic
        quantize_dynamic(str(args.model), str(args.out), per_channel=args.per_channel,
                         weight_type=qtype[args.weights], **kwargs)
        return finish(args.out)
    name = inputs[0].name
    dims = [d.dim_value for d in inputs[0].type.tensor_type.shape.dim]
    files = sorted(args.calib.glob("*.npy"))
    if not files:
        print(f"error: no .npy files in {args.calib}", file=sys.stderr)
        return 2

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.files = iter(files)

        def get_next(self):
            f = next(self.files, None)
            if f is None:
                return None
            x = np.load(f).astype(np.float32)
            if x.ndim == len(dims) - 1:
                x = x[None]
            return {name: x}

    method = {"minmax": CalibrationMethod.MinMax, "entropy": CalibrationMethod.Entropy,
              "percentile": CalibrationMethod.Percentile}[args.method]
    quantize_static(str(args.model), str(args.out), Reader(),
                    quant_format=QuantFormat.QDQ,
                    activation_type=qtype[args.activations],
                    weight_type=qtype[args.weights],
                    per_channel=args.per_channel, calibrate_method=method, **kwargs)
    return finish(args.out)


def finish(out, max_opset=17):
    """Makes OUT readable by onnx 1.12 (protobuf-wise; the 4-bit models'
    opset 21 is read by our importer's own handlers) and prints its summary
    line."""
    import onnx
    q = onnx.load(str(out))
    q.ir_version = 8
    opset = max((o.version for o in q.opset_import if o.domain in ("", "ai.onnx")),
                default=0)
    if opset > max_opset:
        print(f"error: {out}: default-domain opset {opset} > {max_opset} (onnx 1.12 "
              "cannot read it)", file=sys.stderr)
        return 1
    onnx.save(q, str(out))
    ops = collections.Counter(n.op_type for n in q.graph.node)
    print(f"ort_quantize: {out} ({ops['QuantizeLinear']} QuantizeLinear, "
          f"{ops['DequantizeLinear']} DequantizeLinear, "
          f"{ops['DynamicQuantizeLinear']} DynamicQuantizeLinear, "
          f"{ops['MatMulNBits']} MatMulNBits, opset {opset})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
