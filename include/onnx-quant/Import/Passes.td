//===- Passes.td - passes that go through the ONNX library -*- tablegen -*-===//

#ifndef ONNXQUANT_IMPORT_PASSES_TD
#define ONNXQUANT_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def InferShapesPass : Pass<"onnx-infer-shapes", "ModuleOp"> {
  let summary = "Re-run ONNX shape inference on the graph";
  let description = [{
    Writes the graph as an ONNX model in memory, runs libonnx's shape
    inference (with data propagation) over it and imports it back, keeping
    the node names and the source locations. After `--onnx-simplify` has
    folded a Shape/Gather/Concat chain into a constant, this gives the
    Reshape after it (and everything downstream) static types, which opset <
    13 models need because their ops have no data propagation in libonnx.
    Run it before `--onnx-calibrate`: discardable attributes (ranges) do not
    survive the trip.
  }];
}

#endif // ONNXQUANT_IMPORT_PASSES_TD
