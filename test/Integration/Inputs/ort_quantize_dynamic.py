"""quantize_dynamic of ONNX Runtime (the .venv-ortq python):

  ort_quantize_dynamic.py FLOAT.onnx OUT.onnx [--cnn] [--weights u8|s8] [--per-channel]

With --cnn, FLOAT.onnx is first written: qdq_import_check.py's CNN (Conv,
Relu, MaxPool, Add, Concat, GlobalAveragePool, Gemm, MatMul). Conv, MatMul
and Gemm are quantized (DynamicQuantizeLinear, ConvInteger, MatMulInteger);
OUT is saved with ir_version 8 for libonnx 1.12. Prints the op types of OUT.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--cnn", action="store_true")
    ap.add_argument("--weights", choices=["u8", "s8"], default="s8")
    ap.add_argument("--per-channel", action="store_true")
    args = ap.parse_args()
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    if args.cnn:
        import qdq_import_check
        qdq_import_check.make_model(args.model, avgpool=False)
    quantize_dynamic(args.model, args.out, per_channel=args.per_channel,
                     weight_type=QuantType.QUInt8 if args.weights == "u8" else QuantType.QInt8,
                     op_types_to_quantize=["Conv", "MatMul", "Gemm"])
    model = onnx.load(args.out)
    model.ir_version = max(model.ir_version, 8)
    onnx.save(model, args.out)
    print("ops:", " ".join(sorted({n.op_type for n in model.graph.node})))


if __name__ == "__main__":
    main()
