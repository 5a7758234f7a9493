//===- Passes.td - graph passes on the onnx dialect --------*- tablegen -*-===//
//
// The clean-ups that run on the `onnx` dialect before calibration: they keep
// the graph an ONNX graph (so `--emit=onnx` can write it back) and only change
// weights and the ops around them.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_TRANSFORMS_PASSES_TD
#define ONNXQUANT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FoldBatchNormPass : Pass<"onnx-fold-batchnorm", "func::FuncOp"> {
  let summary = "Fold inference-mode BatchNormalization into the producer";
  let description = [{
    With `s = scale / sqrt(var + epsilon)` per channel (computed in double,
    then rounded to the weights' type), a BatchNormalization whose input is
    produced by

    - a Conv or ConvTranspose (with or without bias): the weights of output
      channel `c` are multiplied by `s[c]`, the bias becomes
      `(B - mean) * s + beta`;
    - a Gemm with constant B and a bias broadcast along rows (or none):
      the columns of op(B) are scaled and C becomes
      `(beta_gemm * C - mean) * s + beta` (and `beta_gemm` 1);
    - a 2-D MatMul with a constant right operand: becomes a Gemm with the
      scaled weights and the folded bias

    disappears into it. A BatchNormalization that cannot be folded this way
    becomes a Mul by `s` and an Add of `beta - mean * s`, per channel.
    Nothing changes, with a remark saying why, when the producer has other
    users (folding would change them too), when the weights or statistics are
    not constants, or when the BatchNormalization is in training mode.
  }];
}

def SimplifyPass : Pass<"onnx-simplify", "func::FuncOp"> {
  let summary = "Canonicalize and fold constants until nothing changes";
  let description = [{
    The clean-ups that exported models need before quantization, as one pass:
    the onnx canonicalization patterns and folders (Identity and inference
    Dropout removal, Shape/Gather/Concat/Unsqueeze/Reshape chains on static
    shapes, Transpose pairs, Reshape chains, Add of zero and Mul by one,
    per-channel Add into the Conv bias, element-wise ops and data movement on
    constants evaluated at compile time), then dead code removal, then the
    ops' shape rules (as `--onnx-infer-shapes`), again until nothing
    changes. `--canonicalize` runs the same patterns without the shape
    rules.
  }];
}

def InferShapesPass : Pass<"onnx-infer-shapes", "func::FuncOp"> {
  let summary = "Give every value the type its op's shape rule infers";
  let description = [{
    Applies each onnx op's shape rule in graph order: a dynamic dimension or
    unknown rank becomes what the op's operands and attributes say, the
    shape computations that become known (Shape, Gather, Concat, Slice,
    arithmetic on small integer tensors) fold into constants, and the
    function's result types follow. The importer already does this as it
    builds the graph; this pass redoes it after other passes changed types
    or folded constants. `--onnx-simplify` runs it too. A rule that
    contradicts a declared type is an error naming the op and both types.

    With `require-static` (as `--emit=llvm|asm|obj` runs it) a value whose
    shape stays dynamic is an error naming the node where it starts: the
    graph input dimension to fix with `--input-shape`, or the node whose
    result depends on a run-time value.
  }];
  let options = [
    Option<"requireStatic", "require-static", "bool", /*default=*/"false",
           "Fail, naming the node, where a shape stays dynamic">
  ];
}

def PrunePass : Pass<"onnx-prune", "ModuleOp"> {
  let summary = "Zero small weights, or remove whole output channels";
  let description = [{
    Magnitude pruning of the weights of Conv, ConvTranspose, Gemm and MatMul
    (the constant second operand); biases and BatchNormalization parameters
    are never pruned.

    - `mode=absolute threshold=T` zeroes every weight with |w| < T;
    - `mode=relative threshold=T` zeroes |w| < T * max|w| of that tensor;
    - `mode=sparsity sparsity=S scope=layer|global` zeroes the fraction S of
      smallest magnitudes per tensor, or over all prunable weights together.

    `structured=channels sparsity=S criterion=l1|l2` instead removes the
    fraction S of output channels (filters) of each Conv and Gemm with the
    smallest norms, and rewrites every consumer so the graph stays valid (see
    docs/graph-passes.md for the rules at residual Adds and Concats).

    Tensors with fewer than `min-elements` weights and nodes named in
    `exclude` are left alone. A summary goes to stderr; `report=FILE` writes
    the per-layer table (JSON when FILE ends in `.json`).
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"relative\"",
           "absolute | relative | sparsity">,
    Option<"threshold", "threshold", "double", /*default=*/"0.0",
           "magnitude threshold (absolute, or a fraction of max|w| per tensor)">,
    Option<"sparsity", "sparsity", "double", /*default=*/"0.0",
           "fraction in [0, 1) of weights (or channels) to remove">,
    Option<"scope", "scope", "std::string", /*default=*/"\"layer\"",
           "layer | global: where mode=sparsity ranks magnitudes">,
    Option<"structured", "structured", "std::string", /*default=*/"\"none\"",
           "none | channels: remove whole output channels">,
    Option<"criterion", "criterion", "std::string", /*default=*/"\"l1\"",
           "l1 | l2: channel norm used by structured=channels">,
    ListOption<"exclude", "exclude", "std::string",
               "ONNX node names whose weights are left alone">,
    Option<"minElements", "min-elements", "int64_t", /*default=*/"1024",
           "skip weight tensors with fewer elements (first convs, tiny heads)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "write the per-layer report to this file (JSON if it ends in .json)">,
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "no summary on stderr">,
  ];
}

#endif // ONNXQUANT_TRANSFORMS_PASSES_TD
