"""Scope and frozen inputs of ONNX backend test cases, shared by
conformance.py (compile and run) and import_survey.py (import).

Scope: a case whose graph uses an element type the dialect lacks is out of
scope, like one with an unsupported op (`unsupported_types`).

Frozen inputs: onnx's generators make inputs that decide shapes or
coordinates (Reduce* axes, Pad pads, Resize scales and roi) graph inputs, so
that one model serves several values. An ahead-of-time compiler of static
shapes needs them constant, and says so naming the node's input or the graph
inputs a shape is computed from. `compile_freezing_inputs` then makes those
graph inputs initializers holding the case's value (when every data set
agrees) and tries again, as onnx-mlir's backend tests do (CONSTANT_INPUT);
the harnesses report these cases apart.
"""

import re

import numpy as np
import onnx
import onnx.numpy_helper

# ONNX element types the dialect has (what getElementType in
# lib/Dialect/ONNX/IR/ONNXTypes.cpp maps). A case whose graph inputs, outputs,
# initializers or Cast targets use another type (float8, int4, string) or a
# non-tensor (sequence, optional) is out of scope, like one with an
# unsupported op; the page lists it with the types it needs.
TP = onnx.TensorProto
SUPPORTED_ELEM_TYPES = {TP.FLOAT, TP.DOUBLE, TP.FLOAT16, TP.BFLOAT16, TP.INT8,
                        TP.INT16, TP.INT32, TP.INT64, TP.UINT8, TP.UINT16,
                        TP.UINT32, TP.UINT64, TP.BOOL}

# A compiler error naming an input that decides shapes or coordinates at
# compile time (Reduce* axes, Pad pads, Resize scales, ...), or the graph
# inputs a shape is computed from.
CONSTANT_INPUT_ERROR = re.compile(
    r"node '([^']+)' \([^)]*\): \w+ \(input #(\d+)\) must be a constant")
COMPUTED_FROM_ERROR = re.compile(r"computed from graph inputs? ((?:'[^']*'(?:, )?)+)")
MAX_FROZEN_INPUTS = 4


def unsupported_types(graph):
    """Names of the element types (or 'sequence', 'optional', ...) of `graph`'s
    inputs, outputs, initializers and Cast targets the dialect does not have."""
    found = set()
    for value in (*graph.input, *graph.output):
        kind = value.type.WhichOneof("value")
        if kind is None:
            continue  # no type given: inferred
        if kind != "tensor_type":
            found.add(kind.replace("_type", ""))
        elif value.type.tensor_type.elem_type not in SUPPORTED_ELEM_TYPES:
            found.add(TP.DataType.Name(value.type.tensor_type.elem_type))
    for init in graph.initializer:
        if init.data_type not in SUPPORTED_ELEM_TYPES:
            found.add(TP.DataType.Name(init.data_type))
    for node in graph.node:
        for attr in node.attribute:
            if node.op_type == "Cast" and attr.name == "to" \
                    and attr.i not in SUPPORTED_ELEM_TYPES:
                found.add(TP.DataType.Name(attr.i))
            elif attr.type == onnx.AttributeProto.TENSOR \
                    and attr.t.data_type not in SUPPORTED_ELEM_TYPES:
                found.add(TP.DataType.Name(attr.t.data_type))
            elif attr.type == onnx.AttributeProto.GRAPH:
                found |= unsupported_types(attr.g)
    return found



def node_by_import_name(graph, name):
    """The node the importer calls `name`: its own name, or OpType_index."""
    for i, node in enumerate(graph.node):
        if (node.name or f"{node.op_type}_{i}") == name:
            return node
    return None


def inputs_to_freeze(model, error_line):
    """Names of the graph inputs `error_line` says must be constants: the
    input #k of the node it names, or the graph inputs a shape is computed
    from."""
    m = COMPUTED_FROM_ERROR.search(error_line)
    if m:
        return re.findall(r"'([^']+)'", m.group(1))
    m = CONSTANT_INPUT_ERROR.search(error_line)
    node = m and node_by_import_name(model.graph, m.group(1))
    slot = int(m.group(2)) if m else 0
    return [node.input[slot]] if node is not None and slot < len(node.input) else []


def freeze_input(model, folder, name, original_inputs):
    """Make graph input `name` an initializer (in place) of its value in the
    case's data sets when all agree: return its index among the
    `original_inputs` (names; the data sets' input_<index>.pb), else None."""
    inputs = [i.name for i in model.graph.input]
    if name not in inputs:
        return None
    index = original_inputs.index(name)
    values = []
    for data_set in sorted(folder.glob("test_data_set_*")):
        tensor = onnx.TensorProto()
        tensor.ParseFromString((data_set / f"input_{index}.pb").read_bytes())
        values.append(onnx.numpy_helper.to_array(tensor))
    if not values or any(not np.array_equal(v, values[0]) for v in values):
        return None
    model.graph.initializer.append(onnx.numpy_helper.from_array(values[0], name))
    del model.graph.input[inputs.index(name)]
    return index


def data_sets_without(folder, frozen, work):
    """The case's data sets, with the frozen inputs (indices of the original
    graph inputs) left out and the others renumbered: symlinks in `work`."""
    sets = sorted(folder.glob("test_data_set_*"))
    if not frozen:
        return sets
    count = len(list(sets[0].glob("input_*.pb")))
    kept = [i for i in range(count) if i not in frozen]
    remapped = []
    for data_set in sets:
        out = work / "sets" / data_set.name
        out.mkdir(parents=True)
        for j, i in enumerate(kept):
            (out / f"input_{j}.pb").symlink_to((data_set / f"input_{i}.pb").resolve())
        for f in data_set.glob("output_*.pb"):
            (out / f.name).symlink_to(f.resolve())
        remapped.append(out)
    return remapped


def compile_freezing_inputs(step, folder, work):
    """Run `step(model_path)` -> (result, error line or None) on the case's
    model; while the error names graph inputs that must be constants, freeze
    them (a copy of the model in `work`) and run it again. Returns (result,
    model path, frozen input indices of the original model, their names)."""
    model = folder / "model.onnx"
    proto, names, frozen = None, [], []
    while True:
        result, error = step(model)
        if not error or len(frozen) >= MAX_FROZEN_INPUTS:
            break
        if proto is None:
            proto = onnx.load(str(folder / "model.onnx"))
            names = [i.name for i in proto.graph.input]
        added = [i for i in (freeze_input(proto, folder, name, names)
                             for name in inputs_to_freeze(proto, error))
                 if i is not None]
        if not added:
            break
        frozen += added
        model = work / "model.onnx"
        onnx.save(proto, str(model))
    return result, model, frozen, [names[i] for i in frozen]
