//===- Passes.td - calibration passes ----------------------*- tablegen -*-===//

#ifndef ONNXQUANT_CALIBRATION_PASSES_TD
#define ONNXQUANT_CALIBRATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def CalibratePass : Pass<"onnx-calibrate", "ModuleOp"> {
  let summary = "Run the float model on sample data and annotate activation ranges";
  let description = [{
    JIT-compiles the graph through the same lowering as `--emit=obj`, with
    every float activation (graph inputs and op results) handed to the pass
    as it is computed, runs it on the samples of `data=DIR` (`*.npy`, `INPUTNAME/*.npy`,
    `test_data_set_*/input_N.pb`, or images with `preprocess=`), streams
    min/max and a histogram of |x| per tensor, and stores the range chosen by
    `method` on the IR (see docs/calibration.md):

    - `entropy` (default): the threshold minimizing the KL divergence
      between the histogram and its quantized form (TensorRT, ONNX Runtime),
      but never below the `entropy-floor` percentile of |x|;
    - `minmax`: the observed [min, max];
    - `percentile`: the `percentile`-th percentile of |x|;
    - `mse`: the threshold minimizing the expected squared quantization error
      for `bits`.

    The histogram methods give [0, t] for tensors that are never negative and
    [-t, t] otherwise. `save=FILE` writes the range table as JSON, which
    `--onnx-annotate-ranges` applies later without data.
  }];
  let options = [
    Option<"data", "data", "std::string", /*default=*/"\"\"",
           "directory of calibration samples">,
    Option<"method", "method", "std::string", /*default=*/"\"entropy\"",
           "entropy | minmax | percentile | mse">,
    Option<"entropyFloor", "entropy-floor", "double", /*default=*/"99.999",
           "method=entropy: the range covers at least this percentile of |x| (KL may clip at most 100 - p % of the values); 0: pure KL, as TensorRT and ONNX Runtime">,
    Option<"percentile", "percentile", "double", /*default=*/"99.999",
           "percentile of |x| for method=percentile, in (0, 100]">,
    Option<"bits", "bits", "unsigned", /*default=*/"8",
           "bit width the entropy and mse methods optimize for">,
    Option<"numSamples", "num-samples", "int64_t", /*default=*/"0",
           "use this many samples (a seeded subset); 0: all">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "seed of the subset chosen by num-samples">,
    Option<"batch", "batch", "int64_t", /*default=*/"0",
           "samples per run; must equal the model's batch dimension (import with --input-shape to change it); 0: the model's">,
    Option<"preprocess", "preprocess", "std::string", /*default=*/"\"\"",
           "image preprocessing: resize=N crop=N|HxW channels=rgb|bgr scale=1/255 mean=a,b,c std=a,b,c (in the tensor's channel order) layout=nchw|nhwc">,
    Option<"save", "save", "std::string", /*default=*/"\"\"",
           "write the range table to this JSON file">,
    Option<"skipBad", "skip-bad", "bool", /*default=*/"false",
           "skip samples with NaN or Inf instead of failing">,
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "no progress and summary on stderr">,
  ];
}

def AnnotateRangesPass : Pass<"onnx-annotate-ranges", "ModuleOp"> {
  let summary = "Apply a saved range table (from --onnx-calibrate save=) to the IR";
  let description = [{
    Reads the JSON written by `--onnx-calibrate="... save=FILE"` and stores
    its ranges on the IR exactly as calibration does, so repeated builds and
    tests need no data and no JIT. Every tensor the quantizer needs must be
    in the file, and every tensor in the file must exist in the graph; both
    mismatches are errors listing the names.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "the ranges JSON file">,
  ];
}

#endif // ONNXQUANT_CALIBRATION_PASSES_TD
