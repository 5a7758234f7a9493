"""onnx-quant-debug against ONNX Runtime's qdq_loss_debug on the same models.

Usage (the .venv-ortq python: onnxruntime.quantization):
  debug_ort_check.py --debug-tool TOOL --work DIR [--model squeezenet|cnn]
      [--zoo DIR] [--calib 8] [--samples 6] [--tolerance 0.1]

1. The float model: `squeezenet` is the zoo's SqueezeNet 1.1 converted to
   opset 13 by onnx.version_converter (ORT's per-channel QDQ needs 13; its
   tensor names are the zoo model's); `cnn` is the small CNN of
   qdq_import_check.py (Conv/Relu/MaxPool/Add/Concat/Gemm/MatMul, named
   nodes); `mnist` is the zoo's MNIST (opset 7: Conv, Add, Relu, MaxPool,
   Reshape, MatMul).
2. utils/ort_quantize.py (quantize_static, QDQ, u8 activations, s8 weights
   per channel, MinMax) quantizes it on --calib real images (seeded inputs
   for cnn). With --qoperator, quantize_static writes the QOperator form
   (QLinearConv, QLinearAdd, QLinearMatMul, ...; per channel), which
   qdq_loss_debug does not read: the reference is then computed here from
   ORT's own runs (the QOperator outputs X_quantized, added as graph outputs
   and dequantized with their op's output scale, against the float model's
   X, or the output of the Relu after X when the quantized model has none:
   ORT folds it into the output range) and initializers (W_quantized
   dequantized in int64 against W); there is no local error.
   With --dynamic, quantize_dynamic (u8 activations quantized at run time by
   DynamicQuantizeLinear, s8 weights per channel, MatMulInteger/ConvInteger)
   on `mlp` (a generated MatMul/Add/Relu/MatMul model); the reference is again
   computed from ORT's runs: each DynamicQuantizeLinear's outputs (added as
   graph outputs) dequantized, against the float model's tensor of its input's
   name (activation) and against that input in the quantized model (local),
   the initializers W_quantized with W_scale and W_zero_point against W, and
   the float tensors both models compute under one name (activation).
3. On --samples other inputs: ORT's qdq_loss_debug (augmented models run by
   ORT, create_weight_matching / create_activation_matching,
   compute_weight_error / compute_activation_error; a uint8 weight is
   widened before its zero point is subtracted, which ORT does in uint8) and
   `TOOL float.onnx q.onnx --data DIR -o r.json`.
4. Every tensor either names is compared: weights (SQNR), activations
   (xmodel_err against our activation_sqnr) and local errors (qdq_err against
   our local_sqnr). Where we report a Relu/Clip folded into the range, our
   local error reads the QuantizeLinear's input through that Relu/Clip: the
   expected value is then recomputed from ORT's own tensors, clamped. Errors
   above 100 dB count as exact (ORT clamps the noise norm to float eps, we
   print inf).
Prints per kind `PASS|FAIL  KIND  N tensors, max |ours - ORT| D dB (worst T)`,
and `missing: ...` for tensors only one side reports. Exit status 1 on a FAIL.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO / "utils"))
sys.path.insert(0, str(HERE))


def sqnr(x, y):
    """qdq_loss_debug's compute_signal_to_quantization_noice_ratio."""
    from onnxruntime.quantization.qdq_loss_debug import \
        compute_signal_to_quantization_noice_ratio
    return compute_signal_to_quantization_noice_ratio(x, y)


def make_inputs(args):
    """(float model path, calibration arrays, comparison arrays)."""
    import onnx
    work = args.work
    if args.model == "mlp":
        path = work / "float.onnx"
        make_mlp(path)
        rng = np.random.RandomState(3)
        xs = [rng.randn(1, 32).astype(np.float32) for _ in range(args.calib + args.samples)]
        return path, xs[:args.calib], xs[args.calib:]
    if args.model == "cnn":
        import qdq_import_check
        path = work / "float.onnx"
        qdq_import_check.make_model(path, avgpool=False)
        rng = np.random.RandomState(1)
        xs = [rng.randn(1, 3, 16, 16).astype(np.float32)
              for _ in range(args.calib + args.samples)]
        return path, xs[:args.calib], xs[args.calib:]
    import zoo_data
    from onnx import version_converter
    zoo = args.zoo or zoo_data.default_zoo()
    if args.model == "mnist":
        xs = [zoo_data.mnist_tensor(img)
              for img in zoo_data.mnist_images(zoo, args.calib + args.samples)]
        return zoo / "mnist/models/mnist-cntk-opset7.onnx", xs[:args.calib], xs[args.calib:]
    model = onnx.load(str(zoo / "imagenet/models/squeezenet1.1-caffe2-fp32-from-fp16.onnx"))
    model = version_converter.convert_version(model, 13)
    model.ir_version = 8
    path = work / "float.onnx"
    onnx.save(model, str(path))
    files = zoo_data.imagenet_files(zoo, args.calib + args.samples)
    xs = [zoo_data.image_tensor(p, "imagenet", "bgr_minus_mean") for p in files]
    return path, xs[:args.calib], xs[args.calib:]


def run_both(model, fmodel, input_name, xs, work):
    """ORT runs of `model` (a quantized model with extra graph outputs, saved
    to WORK, without graph optimizations: one {output: array} per sample) and
    of the float model's every float tensor (qdq_loss_debug's augmentation:
    {tensor: [array per sample]})."""
    import onnx
    import onnxruntime
    from onnxruntime.quantization import qdq_loss_debug as qld
    augmented = work / "quantized_outputs.onnx"
    onnx.save(model, str(augmented))
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(str(augmented), options,
                                           providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    runs = [dict(zip(names, session.run(None, {input_name: x}))) for x in xs]
    float_augmented = work / "float_augmented.onnx"
    qld.modify_model_output_intermediate_tensors(str(fmodel), str(float_augmented))

    class Reader:
        def __iter__(self):
            return iter([{input_name: x} for x in xs])

    return runs, qld.collect_activations(str(float_augmented), Reader())


def make_mlp(path):
    """x [1, 32] -> MatMul(32x64) -> Add -> Relu -> MatMul(64x10) -> Add -> y."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.RandomState(0)
    inits = [numpy_helper.from_array((rng.randn(32, 64) * 0.2).astype(np.float32), "w1"),
             numpy_helper.from_array((rng.randn(64) * 0.1).astype(np.float32), "b1"),
             numpy_helper.from_array((rng.randn(64, 10) * 0.2).astype(np.float32), "w2"),
             numpy_helper.from_array((rng.randn(10) * 0.1).astype(np.float32), "b2")]
    n = helper.make_node
    nodes = [n("MatMul", ["x", "w1"], ["h"], name="fc1"),
             n("Add", ["h", "b1"], ["hb"], name="fc1_bias"),
             n("Relu", ["hb"], ["r"], name="relu"),
             n("MatMul", ["r", "w2"], ["o"], name="fc2"),
             n("Add", ["o", "b2"], ["y"], name="fc2_bias")]
    graph = helper.make_graph(nodes, "mlp",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))


def quantize_dynamic_model(fmodel, qmodel):
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    quantize_dynamic(str(fmodel), str(qmodel), per_channel=True, weight_type=QuantType.QInt8)
    model = onnx.load(str(qmodel))
    model.ir_version = max(model.ir_version, 8)
    onnx.save(model, str(qmodel))


def dynamic_reference(fmodel, qmodel, input_name, xs, work):
    """{weight: SQNR}, {tensor: activation SQNR}, {tensor: local SQNR}."""
    import onnx
    from onnx import helper, numpy_helper
    model = onnx.load(str(qmodel))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    finits = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(fmodel)).graph.initializer}
    weights = {}
    for node in model.graph.node:
        if node.op_type not in ("MatMulInteger", "ConvInteger"):
            continue
        name = node.input[1]
        if name not in inits or not name.endswith("_quantized"):
            continue
        base = name[:-len("_quantized")]
        q = inits[name].astype(np.int64)
        scale = inits[base + "_scale"]
        zero = inits[node.input[3]].astype(np.int64) if len(node.input) > 3 else 0
        if scale.size > 1:
            shape = [1] * q.ndim
            shape[1 if node.op_type == "MatMulInteger" else 0] = -1
            scale = scale.reshape(shape)
            zero = np.reshape(zero, shape) if np.size(zero) > 1 else zero
        weights[base] = sqnr(finits[base], ((q - zero) * scale).astype(np.float32))

    # Every tensor of the quantized model as an output: the float ones and
    # each DynamicQuantizeLinear's three.
    quantized = [n for n in model.graph.node if n.op_type == "DynamicQuantizeLinear"]
    extra = {o for n in quantized for o in n.output}
    float_names = {o for n in model.graph.node for o in n.output} - extra
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type for v in inferred.graph.value_info}
    outputs = {o.name for o in model.graph.output}
    for name in sorted((extra | float_names) - outputs):
        model.graph.output.append(helper.make_tensor_value_info(
            name, types.get(name, onnx.TensorProto.FLOAT), None))
    runs, float_acts = run_both(model, fmodel, input_name, xs, work)
    float_acts[input_name] = [x for x in xs]
    activation, local = {}, {}
    for node in quantized:
        x, (q, s, z) = node.input[0], node.output
        deq = [((r[q].astype(np.int64) - r[z].astype(np.int64)) * r[s]).astype(np.float32)
               for r in runs]
        pre = [r[x] if x in r else xs[i] for i, r in enumerate(runs)]
        activation[x] = sqnr([a.reshape(-1) for a in float_acts[x]],
                             [d.reshape(-1) for d in deq])
        local[x] = sqnr([p.reshape(-1) for p in pre], [d.reshape(-1) for d in deq])
    floats = {}
    for name in float_names:
        if name in float_acts and name not in activation and runs[0][name].dtype == np.float32:
            floats[name] = sqnr([a.reshape(-1) for a in float_acts[name]],
                                [r[name].reshape(-1) for r in runs])
    return weights, activation, local, floats


def ort_errors(fmodel, qmodel, input_name, xs, work):
    from onnxruntime.quantization import qdq_loss_debug as qld

    class Reader:
        def __init__(self):
            self.items = iter([{input_name: x} for x in xs])

        def get_next(self):
            return next(self.items, None)

        def __iter__(self):
            return iter([{input_name: x} for x in xs])

    acts = {}
    for name, model in (("float", fmodel), ("qdq", qmodel)):
        augmented = work / f"{name}_augmented.onnx"
        qld.modify_model_output_intermediate_tensors(str(model), str(augmented))
        acts[name] = qld.collect_activations(str(augmented), Reader())
    matched = qld.create_activation_matching(acts["qdq"], acts["float"])
    # create_weight_matching subtracts the zero point in the stored type: for
    # a uint8 weight with a nonzero zero point (the bias of an Add) that
    # wraps around. The integers are widened first; the rest is ORT's code.
    original, widened = qld._run_dequantize_linear, []

    def dequantize(weight, scale, zero_point, channel_axis):
        if weight.dtype == np.uint8 and np.any(zero_point != 0):
            widened.append(weight.size)
        return original(weight.astype(np.int64), scale, zero_point.astype(np.int64),
                        channel_axis)

    qld._run_dequantize_linear = dequantize
    weights = qld.compute_weight_error(qld.create_weight_matching(str(fmodel), str(qmodel)))
    qld._run_dequantize_linear = original
    print(f"# weights: {len(widened)} uint8 weights with a nonzero zero point "
          f"dequantized in int64 (ORT's create_weight_matching wraps around in uint8)")
    return matched, qld.compute_activation_error(matched), weights


def quantize_qoperator(fmodel, calib, input_name, qmodel):
    """quantize_static in the QOperator form (u8 activations, s8 weights per
    channel, MinMax, as ort_quantize.py's defaults), saved with ir_version 8 (libonnx 1.12's checker wants
    initializers listed as inputs below IR 4)."""
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                          QuantType, quantize_static)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.items = iter([{input_name: x} for x in calib])

        def get_next(self):
            return next(self.items, None)

    quantize_static(str(fmodel), str(qmodel), Reader(), quant_format=QuantFormat.QOperator,
                    per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8)
    model = onnx.load(str(qmodel))
    model.ir_version = max(model.ir_version, 8)
    onnx.save(model, str(qmodel))


# Where each QOperator op has its output's scale and zero point, and its
# constant operands (operand, scale, zero point, channel axis).
# (QGemm's B is per row with transB, "transB" below).
QOPERATOR_OUTPUT = {"QLinearConv": (6, 7), "QLinearMatMul": (6, 7), "QLinearAdd": (6, 7),
                    "QLinearGlobalAveragePool": (3, 4), "QGemm": (7, 8),
                    "QLinearConcat": (0, 1)}
QOPERATOR_WEIGHTS = {"QLinearConv": [(3, 4, 5, 0)], "QLinearMatMul": [(3, 4, 5, 1)],
                     "QLinearAdd": [(0, 1, 2, None), (3, 4, 5, None)],
                     "QGemm": [(3, 4, 5, "transB")]}


def qoperator_reference(fmodel, qmodel, input_name, xs, work):
    """{weight: SQNR}, {float tensor: SQNR}, from ORT's runs of both models."""
    import onnx
    from onnx import helper, numpy_helper
    model = onnx.load(str(qmodel))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    fgraph = onnx.load(str(fmodel)).graph
    finits = {i.name: numpy_helper.to_array(i) for i in fgraph.initializer}
    # The Relu/Clip outputs the quantized model computes itself.
    computed = {o for n in model.graph.node if n.op_type in ("Relu", "Clip")
                for o in n.output}

    weights = {}
    for node in model.graph.node:
        for w, sc, zp, axis in QOPERATOR_WEIGHTS.get(node.op_type, []):
            name = node.input[w]
            if name not in inits or not name.endswith("_quantized"):
                continue
            q = inits[name].astype(np.int64)
            scale, zero = inits[node.input[sc]], inits[node.input[zp]].astype(np.int64)
            if axis == "transB":
                trans = [a.i for a in node.attribute if a.name == "transB"]
                axis = 0 if trans and trans[0] else 1
            if scale.size > 1:
                shape = [1] * q.ndim
                shape[axis] = -1
                scale, zero = scale.reshape(shape), zero.reshape(shape)
            weights[name[:-len("_quantized")]] = sqnr(
                finits[name[:-len("_quantized")]], ((q - zero) * scale).astype(np.float32))

    # The quantized tensors as extra outputs of a copy; the float model's
    # tensors through qdq_loss_debug's augmentation.
    outputs = {}
    for node in model.graph.node:
        if node.op_type in QOPERATOR_OUTPUT:
            sc, zp = QOPERATOR_OUTPUT[node.op_type]
            outputs[node.output[0]] = (node.input[sc], node.input[zp])
            model.graph.output.append(helper.make_tensor_value_info(
                node.output[0], helper.np_dtype_to_tensor_dtype(inits[node.input[zp]].dtype),
                None))
    runs, float_acts = run_both(model, fmodel, input_name, xs, work)
    consumers = {}
    for node in fgraph.node:
        for i in node.input:
            consumers.setdefault(i, []).append(node)
    activations = {}
    for out, (sc, zp) in outputs.items():
        name = out[:-len("_quantized")]
        users = consumers.get(name, [])
        if (len(users) == 1 and users[0].op_type in ("Relu", "Clip")
                and users[0].output[0] not in computed):
            name = users[0].output[0]
        scale, zero = inits[sc], inits[zp].astype(np.int64)
        deq = [((r[out].astype(np.int64) - zero) * scale).astype(np.float32) for r in runs]
        activations[name] = sqnr([a.reshape(-1) for a in float_acts[name]],
                                 [d.reshape(-1) for d in deq])
    return weights, activations


def clamp_bounds(fmodel, tensor):
    """[lo, hi] of the Relu/Clip of the float model that computes `tensor`."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(str(fmodel))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for node in model.graph.node:
        if tensor in node.output:
            if node.op_type == "Relu":
                return 0.0, np.inf
            assert node.op_type == "Clip", node.op_type
            lo = inits[node.input[1]] if len(node.input) > 1 and node.input[1] else -np.inf
            hi = inits[node.input[2]] if len(node.input) > 2 and node.input[2] else np.inf
            return float(lo), float(hi)
    raise KeyError(tensor)


def compare(kind, ours, theirs, tolerance):
    """ours/theirs: {name: dB}; prints the PASS/FAIL line."""
    def norm(v):
        v = float("inf") if v in ("inf", None) and v is not None else v
        return 200.0 if v == "inf" or (isinstance(v, float) and v > 100) else float(v)
    names = sorted(set(ours) & set(theirs))
    diffs = {n: abs(norm(ours[n]) - norm(theirs[n])) for n in names}
    worst = max(diffs, key=diffs.get) if diffs else "-"
    worst_diff = diffs.get(worst, 0.0)
    ok = bool(names) and worst_diff <= tolerance and set(ours) == set(theirs)
    print(f"{'PASS' if ok else 'FAIL'}  {kind}  {len(names)} tensors, max |ours - ORT| "
          f"{worst_diff:.4f} dB (worst {worst})")
    for side, only in (("ours", set(ours) - set(theirs)), ("ORT", set(theirs) - set(ours))):
        if only:
            print(f"  missing: only {side} reports {sorted(only)}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--debug-tool", required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--model", choices=["squeezenet", "cnn", "mnist", "mlp"],
                    default="squeezenet")
    ap.add_argument("--qoperator", action="store_true")
    ap.add_argument("--dynamic", action="store_true")
    ap.add_argument("--zoo", type=Path)
    ap.add_argument("--calib", type=int, default=8)
    ap.add_argument("--samples", type=int, default=6)
    ap.add_argument("--tolerance", type=float, default=0.1)
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)

    import onnx
    fmodel, calib, xs = make_inputs(args)
    import onnxruntime
    onnxruntime.set_default_logger_severity(3)
    graph = onnx.load(str(fmodel)).graph
    inits = {i.name for i in graph.initializer}
    input_name = next(i.name for i in graph.input if i.name not in inits)
    cdir, ddir = args.work / "calib", args.work / "data"
    for d, arrays in ((cdir, calib), (ddir, xs)):
        d.mkdir(exist_ok=True)
        for k, x in enumerate(arrays):
            np.save(d / f"{k:03d}.npy", x)
    qmodel = args.work / "q.onnx"
    if args.dynamic:
        quantize_dynamic_model(fmodel, qmodel)
    elif args.qoperator:
        quantize_qoperator(fmodel, calib, input_name, qmodel)
    else:
        subprocess.run([sys.executable, str(REPO / "utils/ort_quantize.py"), str(fmodel),
                        str(cdir), str(qmodel), "--per-channel"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    report = args.work / "r.json"
    subprocess.run([args.debug_tool, str(fmodel), str(qmodel), "--data", str(ddir),
                    "-o", str(report)], check=True)
    ours = json.loads(report.read_text())
    if args.dynamic:
        weight_err, activation_err, local_err, float_err = dynamic_reference(
            fmodel, qmodel, input_name, xs, args.work)
        dynamic = [a for a in ours["activations"] if a["kind"] == "dynamic"]
        floats = [a for a in ours["activations"] if a["kind"] == "float"]
        ok = compare("weights", {w["tensor"]: w["sqnr"] for w in ours["weights"]},
                     weight_err, args.tolerance)
        ok &= compare("activation", {a["tensor"]: a["activation_sqnr"] for a in dynamic},
                      activation_err, args.tolerance)
        ok &= compare("local", {a["tensor"]: a["local_sqnr"] for a in dynamic},
                      local_err, args.tolerance)
        ok &= compare("float", {a["tensor"]: a["activation_sqnr"] for a in floats},
                      float_err, args.tolerance)
        return 0 if ok else 1
    # The quantized tensors (qdq_loss_debug has no float-only comparisons).
    kind = "QOperator" if args.qoperator else "QDQ"
    floats = [a for a in ours["activations"] if a["kind"] == "float"]
    ours["activations"] = [a for a in ours["activations"] if a["kind"] == kind]
    print(f"# activations quantized as {kind}: {len(ours['activations'])}; computed in "
          f"float by both models (not compared): {len(floats)}")

    if args.qoperator:
        weight_err, activation_err = qoperator_reference(fmodel, qmodel, input_name, xs,
                                                         args.work)
        ok = compare("weights", {w["tensor"]: w["sqnr"] for w in ours["weights"]},
                     weight_err, args.tolerance)
        ok &= compare("activation",
                      {a["tensor"]: a["activation_sqnr"] for a in ours["activations"]},
                      activation_err, args.tolerance)
        no_local = all(a["local_sqnr"] is None for a in ours["activations"])
        print(f"{'PASS' if no_local else 'FAIL'}  local  none reported (QOperator)")
        return 0 if ok and no_local else 1
    matched, act_err, weight_err = ort_errors(fmodel, qmodel, input_name, xs, args.work)
    ok = compare("weights", {w["tensor"]: w["sqnr"] for w in ours["weights"]},
                 weight_err, args.tolerance)
    ok &= compare("activation", {a["tensor"]: a["activation_sqnr"] for a in ours["activations"]},
                  {n: e["xmodel_err"] for n, e in act_err.items()}, args.tolerance)
    expected_local = {}
    for a in ours["activations"]:
        name = a["tensor"]
        if name not in matched:
            continue
        pre, post = matched[name]["pre_qdq"], matched[name]["post_qdq"]
        if "folded" in a:
            lo, hi = clamp_bounds(fmodel, name)
            pre = [np.clip(p, lo, hi) for p in pre]
        expected_local[name] = sqnr(pre, post)
    folded = sum("folded" in a for a in ours["activations"])
    print(f"# local: {folded} tensors with a folded Relu/Clip, ORT's QuantizeLinear "
          f"input clamped")
    ok &= compare("local", {a["tensor"]: a["local_sqnr"] for a in ours["activations"]},
                  expected_local, args.tolerance)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
