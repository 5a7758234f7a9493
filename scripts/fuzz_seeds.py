"""Writes the seed corpora of scripts/fuzz.sh into OUT/import and OUT/samples.

import: every ONNX text model of test/ (.onnxtext, and the .textproto models
of test/*/Inputs) as binary protobuf, plus generated ones: a Conv/Relu/
MaxPool/Gemm CNN, Gather/ScatterND with indices, a model with external data.
samples: one file per reader (a 4-byte prefix choosing the reader and the
input it must fit, then the file, as tools/fuzz/fuzz-samples.cpp reads it):
.npy of float32/uint8/int64, a TensorProto, a JPEG and a PNG."""
import io
import sys
from pathlib import Path

import numpy as np
import onnx
import onnx.parser
from onnx import TensorProto, helper, numpy_helper

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1])
(out / "import").mkdir(parents=True, exist_ok=True)
(out / "samples").mkdir(parents=True, exist_ok=True)

count = 0
for path in sorted(root.glob("test/**/*.onnxtext")) + sorted(root.glob("test/**/Inputs/*.textproto")):
    try:
        text = path.read_text()
        if path.suffix == ".onnxtext":
            body = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
            model = onnx.parser.parse_model(body)
        else:
            from google.protobuf import text_format
            model = text_format.Parse(text, onnx.ModelProto())
    except Exception:
        continue  # error tests hold models that do not parse on purpose
    data = model.SerializeToString()
    if len(data) <= 65536:
        (out / "import" / f"{path.parent.name}-{path.stem}.onnx").write_bytes(data)
        count += 1

rng = np.random.default_rng(0)
w = numpy_helper.from_array(rng.normal(size=(4, 3, 3, 3)).astype(np.float32), "w")
fc = numpy_helper.from_array(rng.normal(size=(4 * 4 * 4, 10)).astype(np.float32), "fc")
cnn = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["c"], ["r"]),
     helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
     helper.make_node("Flatten", ["p"], ["f"]),
     helper.make_node("MatMul", ["f", "fc"], ["y"])],
    "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], [w, fc])
indices = helper.make_graph(
    [helper.make_node("Gather", ["d", "i"], ["g"], axis=0),
     helper.make_node("ScatterND", ["d", "k", "u"], ["s"])],
    "indices",
    [helper.make_tensor_value_info("d", TensorProto.FLOAT, [5, 3]),
     helper.make_tensor_value_info("i", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("k", TensorProto.INT64, [2, 2]),
     helper.make_tensor_value_info("u", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("g", TensorProto.FLOAT, [2, 3]),
     helper.make_tensor_value_info("s", TensorProto.FLOAT, [5, 3])])
external = helper.make_graph(
    [helper.make_node("Add", ["x", "b"], ["y"])], "external",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
    [TensorProto(name="b", data_type=TensorProto.FLOAT, dims=[4])])
external.initializer[0].data_location = TensorProto.EXTERNAL
entry = external.initializer[0].external_data.add()
entry.key, entry.value = "location", "b.bin"
for name, graph, opset in [("cnn", cnn, 13), ("indices", indices, 13),
                           ("external", external, 13), ("cnn-opset18", cnn, 18)]:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    (out / "import" / f"gen-{name}.onnx").write_bytes(model.SerializeToString())
    count += 1


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


# Prefix: reader (0 npy, 1 pb, 2 jpg, 3 png), type selector (0 float, 1 u8,
# 3 i64), dims byte 2 (channels - 1), byte 3 (7: 8 rows, 1 column).
samples = {
    "float.npy": bytes([0, 0, 0, 7]) + npy_bytes(rng.normal(size=(1, 1, 8, 1)).astype(np.float32)),
    "uint8.npy": bytes([0, 1, 1, 7]) + npy_bytes(rng.integers(0, 255, (1, 2, 8, 1)).astype(np.uint8)),
    "int64.npy": bytes([0, 3, 0, 7]) + npy_bytes(rng.integers(-9, 9, (1, 1, 8, 1)).astype(np.int64)),
    "tensor.pb": bytes([1, 0, 0, 7]) + numpy_helper.from_array(
        rng.normal(size=(1, 1, 8, 1)).astype(np.float32), "x").SerializeToString(),
}
try:
    from PIL import Image
    image = Image.fromarray(rng.integers(0, 255, (6, 7, 3)).astype(np.uint8))
    for fmt, reader in [("JPEG", 2), ("PNG", 3)]:
        buffer = io.BytesIO()
        image.save(buffer, format=fmt)
        samples[f"image.{fmt.lower()}"] = bytes([reader, 0, 2, 3]) + buffer.getvalue()
except ImportError:
    pass  # no Pillow: the image readers start from the other seeds
for name, data in samples.items():
    (out / "samples" / name).write_bytes(data)
print(f"fuzz_seeds: {count} models, {len(samples)} sample files in {out}")
