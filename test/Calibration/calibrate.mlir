// RUN: rm -rf %t && mkdir -p %t/npy %t/pb/test_data_set_0 %t/pb/test_data_set_1
// RUN: %python -c "import numpy as np; np.save('%t/npy/a.npy', np.ones((1, 4), np.float32)); np.save('%t/npy/b.npy', np.array([[2, 0, 0, 0]], np.float32))"
// RUN: %python -c "import numpy as np, onnx.numpy_helper as h; open('%t/pb/test_data_set_0/input_0.pb', 'wb').write(h.from_array(np.ones((1, 4), np.float32)).SerializeToString()); open('%t/pb/test_data_set_1/input_0.pb', 'wb').write(h.from_array(np.array([[2, 0, 0, 0]], np.float32)).SerializeToString())"
// RUN: onnx-quant-opt %S/Inputs/mul-relu.mlir --onnx-calibrate="method=minmax data=%t/npy save=%t/ranges.json" 2>%t/stderr | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/stderr
// RUN: FileCheck %s --check-prefix=JSON < %t/ranges.json
// RUN: onnx-quant-opt %S/Inputs/mul-relu.mlir --onnx-calibrate="method=minmax data=%t/pb quiet=true" | FileCheck %s
// RUN: onnx-quant-opt %S/Inputs/mul-relu.mlir --onnx-annotate-ranges="file=%t/ranges.json" | FileCheck %s --check-prefix=ANNOTATED
// Twice the same table, byte for byte; the table gives the IR calibration
// gives, but for the module's record of where the ranges came from:
// RUN: onnx-quant-opt %S/Inputs/mul-relu.mlir --onnx-calibrate="method=minmax data=%t/npy save=%t/again.json quiet=true" -o %t/calibrated.mlir
// RUN: cmp %t/ranges.json %t/again.json
// RUN: onnx-quant-opt %S/Inputs/mul-relu.mlir --onnx-annotate-ranges="file=%t/again.json" -o %t/annotated.mlir
// RUN: sed -e 's/onnx.calibration = {[^}]*}/onnx.calibration = {}/' %t/calibrated.mlir > %t/calibrated.blank.mlir
// RUN: sed -e 's/onnx.calibration = {[^}]*}/onnx.calibration = {}/' %t/annotated.mlir > %t/annotated.blank.mlir
// RUN: diff %t/calibrated.blank.mlir %t/annotated.blank.mlir
// Samples x = [1, 1, 1, 1] and [2, 0, 0, 0]: x in [0, 2], x * c in [-4, 3],
// relu in [0, 3]; the same from .npy files and from ONNX test-data folders.

// CHECK: module attributes {onnx.calibration = {data = "{{.*}}", method = "minmax", samples = 2 : i64}}
// CHECK: func.func @main_graph(%{{.*}}: tensor<1x4xf32> {onnx.name = "x", onnx.range = array<f32: 0.000000e+00, 2.000000e+00>})
// CHECK: onnx.Mul({{.*}}) {onnx.ranges = [array<f32: -4.000000e+00, 3.000000e+00>]}
// CHECK: onnx.Relu({{.*}}) {onnx.ranges = [array<f32: 0.000000e+00, 3.000000e+00>]}

// SUMMARY: onnx-calibrate: 1/2 samples (50%)
// SUMMARY: onnx-calibrate: 2/2 samples (100%)
// SUMMARY: onnx-calibrate: 2 samples (npy) in
// SUMMARY: onnx-calibrate: 3 tensors annotated (minmax); widest 'mul' [-4, 3], narrowest 'x' [0, 2]

// JSON: "format": "onnx-quant ranges 1"
// JSON: "mul": {
// JSON-NEXT: "max": 3,
// JSON-NEXT: "method": "minmax",
// JSON-NEXT: "min": -4,
// JSON-NEXT: "samples": 2
// JSON: "relu": {
// JSON: "x": {

// ANNOTATED: module attributes {onnx.calibration = {file = "{{.*}}ranges.json", method = "minmax", samples = 2 : i64}}
// ANNOTATED: onnx.range = array<f32: 0.000000e+00, 2.000000e+00>
// ANNOTATED: onnx.Mul({{.*}}) {onnx.ranges = [array<f32: -4.000000e+00, 3.000000e+00>]}
// ANNOTATED: onnx.Relu({{.*}}) {onnx.ranges = [array<f32: 0.000000e+00, 3.000000e+00>]}
