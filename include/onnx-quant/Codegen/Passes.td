//===- Passes.td - native code generation passes -----------*- tablegen -*-===//

#ifndef ONNXQUANT_CODEGEN_PASSES_TD
#define ONNXQUANT_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def RecordABIPass : Pass<"onnxq-record-abi", "ModuleOp"> {
  let summary = "Record the graph's inputs and outputs as the model ABI";
  let description = [{
    Stores on the module (`onnx.abi`) what the generated header and the
    `NAME_run` wrapper need and what lowering loses: the ONNX names, element
    types and static shapes of the graph function's inputs and outputs, and
    the entry name.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"model\"",
           "C identifier prefixed to every exported symbol">,
  ];
}

def CheckIndicesPass : Pass<"onnxq-check-indices", "ModuleOp"> {
  let summary = "Check the indices of Gather and Scatter ops: constant ones now, run-time ones in the generated code";
  let description = [{
    Gather, GatherElements, ScatterND and ScatterElements index their data
    with a tensor; an index must lie in [-size, size - 1] of its axis (ONNX:
    negative ones count from the end). Constant indices are checked here: one
    out of range is an error naming the node, the index, its position and
    the valid range. Run-time indices get a check in the graph itself:
    `onnx` ops computing, per op, whether any index is out of range, combined
    into one i32 flag appended to the graph function's results (after the
    ABI's outputs; `onnx.abi` records `index_checks`). `NAME_run` returns
    ONNXQ_STATUS_INDEX_OUT_OF_RANGE (2) when the flag is set. The lowering
    clamps the indices it reads with, so nothing is read outside a buffer
    (and a scatter skips updates outside), whatever the indices.
    Runs after onnxq-record-abi.
  }];
}

def WidenF16Pass : Pass<"onnxq-widen-f16", "func::FuncOp"> {
  let summary = "Compute float16 graphs in float32";
  let description = [{
    Keeps float16 at the interface (the arguments and results) but computes
    everything inside in float32, as ONNX Runtime's kernels accumulate:
    float16 arguments are cast to float32 on entry, every float16 value and
    constant in the body becomes float32, Casts to float16 become Casts to
    float32, and results are cast back to float16.
  }];
}

def FuseElementwisePass : Pass<"onnxq-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuse element-wise producers into consumers that read each element once";
  let description = [{
    linalg's element-wise fusion (`linalg-fuse-elementwise-ops`: producers
    with one use fused into their consumers, reshapes folded by expansion,
    constants folded), except that a producer is not fused into a consumer
    that reads each of its elements several times: a convolution or matrix
    product (which reads an input element once per filter and tap) or a
    broadcast. Fused there, the producer would be recomputed at every read:
    the QuantizeLinear of a graph input, for one, once per filter and tap
    of the first convolution.

    An element-wise op (its other inputs scalars) that reads a
    contraction's result through layout ops dropping some of its elements
    (a convolution computed over flattened padded rows: an insert into a
    wider empty tensor, reshapes, an extract of the rows' leading columns)
    runs on the result itself, before them, and a `linalg.copy` drops the
    columns: onnxq-contraction-kernels then fuses the op into the
    contraction and, where the copy's destination is contiguous, stores the
    rows without their pitch columns in place of the copy. It was a pass of
    its own over the result (a float depthwise convolution's ReLU6).

    A fusion clones both bodies, so an unbounded chain of N element-wise ops
    costs N^2 / 2 cloned operations (20,000 chained Relus took minutes);
    `max-body-ops` caps the body a fusion may create, which keeps compile
    time linear. Real chains (requantization, activations, normalizations)
    stay far below the default; a longer one is cut into ops of at most
    that many operations.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"128",
           "Largest body (operations) a fusion may create">,
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "affine::AffineDialect"];
}

def PackConcatPartsPass : Pass<"onnxq-pack-concat-parts", "func::FuncOp"> {
  let summary = "Pack each part of a concatenation into its channel words";
  let description = [{
    A packing of 8-bit channels into int32 words of 4 channels (what an
    int8 convolution reads for vpdpbusd) whose input is a concatenation
    along the channels, every part a whole number of words, becomes one
    packing per part into the words' slice of it: `pack(concat(a, b))` ->
    `concat(pack(a), pack(b))`. The concatenation is then never written:
    each part's producer, a convolution, stores its words itself
    (`onnxq-contraction-kernels`), where the 8-bit concatenation had been
    written, copied into and packed (SqueezeNet's Fire modules).
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect"];
}

def BufferizePass : Pass<"onnxq-bufferize", "ModuleOp"> {
  let summary = "One-shot bufferization with identity layouts at the ABI";
  let description = [{
    One-shot module bufferization where function boundaries use identity
    layouts (plain row-major buffers, as the C ABI passes them) and copies are
    `linalg.copy` (lowered to loops: no runtime library). Zero-element
    arguments and results are passed as 1-D `memref<0xT>`: they hold no data,
    and a size-0 dim after the first leaves the outer strides unknown, which
    the bare-pointer calling convention cannot pass. A constant padding of
    rows of 7 elements or more (8-bit; 16 wider) becomes a fill of the padded tensor
    with the source inserted into it, so that the source's producer writes
    into the interior instead of a buffer that is then copied; so does the
    producer of a value that a reshape dropping unit dims stands between
    (a grouped convolution's result inserted into a Concat). Tensor
    constants get their globals in program order, so that the same module
    gives the same object.
  }];
  let dependentDialects = ["bufferization::BufferizationDialect",
                           "memref::MemRefDialect", "linalg::LinalgDialect",
                           "tensor::TensorDialect"];
}

def HoistConstantsPass : Pass<"onnxq-hoist-constants", "ModuleOp"> {
  let summary = "Compute what depends only on constants once per process";
  let description = [{
    Work on constants that the graph function does at run time (the spread
    of 4-bit weights kept two a byte in the object, their dequantization, a
    codebook's table lookup) moves into a private function
    `onnxq_init_constants` that writes each result the graph reads into a
    zero-initialized global buffer (`memref.global ... = uninitialized`, in
    .bss: the object stays small). The graph calls it first; the call does
    the work once per process (onnxq-emit-abi guards it with an atomic
    flag) and the graph reads the globals as it read the results.

    A value is hoisted when it is computed (by a linalg op with inputs) only
    from constants, at least one of them not a splat, is read by work that
    is not, is not that work's destination (which it would write), and is at
    most 8 times the bytes of the constants it comes from (4-bit weights to
    float): a broadcast of a small constant to a large tensor stays in the
    graph. Intermediate tensors of the hoisted work go in the graph's
    workspace (onnxq-plan-workspace plans the function too).
  }];
  let dependentDialects = ["bufferization::BufferizationDialect",
                           "memref::MemRefDialect", "func::FuncDialect"];
}

def PlanWorkspacePass : Pass<"onnxq-plan-workspace", "ModuleOp"> {
  let summary = "Place every intermediate buffer in one workspace by liveness";
  let description = [{
    Replaces each static `memref.alloc` of the graph function with a
    `memref.view` into a new trailing `memref<Nxi8>` argument, at an offset
    chosen so that buffers alive at the same time never overlap (greedy
    placement, largest first, 64-byte aligned). The function that computes
    the hoisted constants (onnxq-hoist-constants) gets its own plan and the
    same argument, which the graph passes it: it runs before the graph uses
    any of it. The workspace size N, the larger of the two plans, is
    recorded in `onnx.abi`. Dynamic allocations are an error.
  }];
  let dependentDialects = ["memref::MemRefDialect", "arith::ArithDialect"];
}

def OutlineNodesPass : Pass<"onnxq-outline-nodes", "ModuleOp"> {
  let summary = "Move each graph node's code into a function of its own";
  let description = [{
    After bufferization and workspace planning, each run of consecutive ops
    of the graph function that share a location (the ops one ONNX node
    became) and do work (loops, linalg ops, calls) moves into a private
    function `<graph>_<node>` called from the graph in its place. The node
    function takes the graph arguments it uses (the input, output and
    workspace buffers, `llvm.noalias` as on the graph) and recomputes the
    views and constants it needs; it is marked `noinline`.

    Why: LLVM's loop passes cost time quadratic in the number of loops of a
    function (ScalarEvolution walks every loop before the one it analyses),
    so one function per node compiles much faster than one per graph; MLIR's
    function passes then run in parallel; profiles name each node. A run
    whose results are used elsewhere, or that needs a value other than an
    argument, a view or a constant, stays in the graph.
  }];
  let dependentDialects = ["func::FuncDialect"];
}

def ContractionKernelsPass : Pass<"onnxq-contraction-kernels", "ModuleOp"> {
  let summary = "Register-blocked vector kernels for contractions and window reductions";
  let description = [{
    Replaces each linalg op on buffers (float, or integer with operands
    extended in the body, e.g. i8 x i8 -> i32) with static shapes and layouts
    that reduces into its output with an element-wise body (contractions
    `out += lhs * rhs`: Gemm, MatMul, the 1x1 contraction of each
    convolution tap; pooling windows) by a register-blocked kernel. The
    output is cut into tiles of `rows` x `vectors` target vectors: vectors
    along the output's contiguous dimension N (merged with the loops that
    continue it in every operand, e.g. the rows of an unpadded 1x1
    convolution), rows along a parallel dimension M that the operand walking
    N does not use if there is one, so its vectors are loaded once per
    reduction step for all rows while the other operand is broadcast. The
    tile's accumulators stay in registers through the reduction loops
    (`scf.for` iter_args; one `vector.fma` per accumulator and step for a
    float contraction, the body on vectors otherwise, each operand loaded as
    vectors of its own element type) and are loaded and stored
    once. N is cut into panels whose slice of the N-walking operand stays in
    cache. Remainders are static: a last block of fewer rows, and a last
    group of fewer vectors whose last one is masked. A window of stride 2 is
    read as two contiguous loads and a shuffle; larger strides are left to
    the baseline.

    The element-wise op just before the kernel that writes its whole output
    from other values (a bias broadcast, a fill) and the one just after it
    that reads the output element by element into another buffer (a
    requantization) are fused: the accumulators start as the first one's
    values and the second one's body runs on them in registers, its result
    stored instead. The second one only when the output is an allocation
    nothing else reads; run it before outlining and workspace planning.

    With `byte-windows` (AVX-512 VNNI and VBMI), a u8 x s8 contraction whose
    activations walk a reduction loop contiguously, as its weights do (the
    window rows of a depthwise convolution), takes that loop 4 taps at a
    time: each lane's bytes gathered from one load by a byte permutation,
    multiply-added by one vpdpbusd.

    With `saturating-packs` (AVX-512BW), a fused requantization to 8 bits
    (clamp, round half to even, add the zero point, truncate) ends two
    vectors of a tile row at a time in one vcvtps2dq {rn-sae} each, one
    vpackssdw, one vpaddsw and one vpackuswb or vpacksswb, whose
    saturation is the clamp (a range that starts higher, a fused ReLU, a byte
    max), and a
    dword shuffle into order: the same integers in fewer instructions.

    This is the target kernel stage of the float path; packing and the int8
    dot-product instructions refine it. Other ops are left to
    `onnxq-vectorizable-loop-order` and `onnxq-vectorize`.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"512",
           "Width of the target's vector registers in bits">,
    Option<"rows", "rows", "int64_t", /*default=*/"8",
           "Rows (M) of a register tile">,
    Option<"vectors", "vectors", "int64_t", /*default=*/"2",
           "Vectors along N in a register tile">,
    Option<"byteWindows", "byte-windows", "bool", /*default=*/"false",
           "Pack up to 4 taps of a u8 x s8 window row per int32 lane in "
           "registers (a byte permutation) and multiply-add them with "
           "vpdpbusd: needs 512-bit vectors, AVX-512 VNNI and VBMI">,
    Option<"amx", "amx", "bool", /*default=*/"false",
           "Run packed u8 x s8 contractions with deep reductions on AMX "
           "tiles (tdpbsud), the vpdpbusd kernel kept for processes that "
           "may not use AMX (onnxq_amx_ready)">,
    Option<"saturatingPacks", "saturating-packs", "bool", /*default=*/"false",
           "End a fused float requantization to 8 bits two vectors at a "
           "time in vcvtps2dq and saturating packs (vpackssdw, vpackuswb): "
           "needs 512-bit vectors and AVX-512BW">,
  ];
  let dependentDialects = ["vector::VectorDialect", "scf::SCFDialect",
                           "affine::AffineDialect", "memref::MemRefDialect",
                           "arith::ArithDialect", "LLVM::LLVMDialect",
                           "amx::AMXDialect", "func::FuncDialect"];
}

def VectorizableLoopOrderPass : Pass<"onnxq-vectorizable-loop-order"> {
  let summary = "Order linalg loops so the innermost one is parallel";
  let description = [{
    Generalizes linalg ops that reduce (convolutions, pooling, contractions)
    and interchanges their loops to `[parallel..., reductions..., last
    parallel]`. The innermost loop then walks the output's contiguous
    dimension with no loop-carried dependence, which LLVM's loop vectorizer
    turns into AVX-512 or NEON code. This is the baseline kernel strategy;
    packing and tiling for the int8 dot-product instructions replace it for
    quantized ops.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def LowerTableLookupsPass : Pass<"onnxq-lower-table-lookups", "func::FuncOp"> {
  let summary = "Byte table lookups as in-register permutes";
  let description = [{
    A `vector.gather` of bytes from a 256-byte table (the tables of
    `onnx-lookup-tables`, after `onnxq-vectorize`) indexed by bytes becomes
    permutes of the table held in registers instead of one load per lane:
    with `isa=vbmi` (AVX-512 VBMI) two `vpermi2b` over 128 bytes each and a
    select on the index's top bit (64 lanes); with `isa=tbl` (AArch64) one
    `tbl` and three `tbx` over 64 bytes each (16 lanes). Masked-off lanes
    take the gather's pass-through values. Other gathers are left alone;
    with `isa=none` the pass does nothing.
  }];
  let options = [
    Option<"isa", "isa", "std::string", /*default=*/"\"none\"",
           "none | vbmi | tbl: the target's byte-permute instructions">,
  ];
  let dependentDialects = ["vector::VectorDialect", "LLVM::LLVMDialect",
                           "arith::ArithDialect"];
}

def VectorizePass : Pass<"onnxq-vectorize"> {
  let summary = "Tile linalg ops on buffers along the innermost loop and vectorize";
  let description = [{
    Each linalg op on buffers (after `onnxq-vectorizable-loop-order`, so its
    innermost loop is parallel and walks contiguous memory) is tiled to
    `[1, ..., 1, V]` with `V = vector-bits / element bits`, and each tile is
    vectorized with masks for the partial last tile. Reads of other buffers
    in a body (table lookups, gathers) become vector gathers or loads. Ops
    that do not vectorize stay scalar. The result is explicit vector code in
    MLIR, independent of LLVM's loop-vectorizer heuristics. A copy that
    moves the innermost dim (a transpose such as attention's K^T), of 32-bit
    elements in whole 16 x 16 tiles with 512-bit vectors, goes by tiles
    instead: 16 contiguous row reads, a transpose in registers (shuffles),
    16 contiguous row writes.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"512",
           "Width of the target's vector registers in bits">,
  ];
  let dependentDialects = ["vector::VectorDialect", "scf::SCFDialect",
                           "affine::AffineDialect", "arith::ArithDialect",
                           "linalg::LinalgDialect",
                           "bufferization::BufferizationDialect",
                           "tensor::TensorDialect"];
}

def ExpandMathPass : Pass<"onnxq-expand-math"> {
  let summary = "Replace transcendental math ops by vectorizable polynomials";
  let description = [{
    exp, log, tanh, erf and friends become polynomial approximations in
    arith (no libm call, so loops over them vectorize); the rest stay for
    `convert-math-to-llvm` / libm. bfloat16 extensions and truncations
    become integer bit operations (round to nearest even), not calls to
    compiler-rt's `__truncsfbf2`.
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect",
                           "vector::VectorDialect"];
}

def ParallelizePass : Pass<"onnxq-parallelize", "ModuleOp"> {
  let summary = "Split the parallel loops of the nodes over the application's threads";
  let description = [{
    Adds the parallel context (`!llvm.ptr`: the application's parallel-for,
    its pool and a thread count, which `NAME_run_parallel` passes and
    `NAME_run` leaves NULL) as the graph function's last argument. Each
    top-level `scf.parallel` of the graph or of a node function it calls
    that executes at least `min-work` (operations, and loads and stores by
    the bytes they move) becomes a task function
    running a contiguous part of its iterations (its leading dims
    linearized), and a dispatch: with a context and more than one thread,
    the parallel-for runs the task over min(threads, iterations,
    `max-threads`) parts; otherwise one call runs all of them. The loops
    are parallel and every iteration runs the same code, so the results do
    not depend on the thread count. Nodes with a split take the context as
    their last argument.
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"0",
           "At most this many parts per loop (0: no limit; 1: no split, "
           "the model runs on the calling thread)">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"16384",
           "Split only loops that execute at least this much work (an op "
           "per iteration each, and a load or store one more per 8 bytes; "
           "measured at about 50 per nanosecond: 16384 is some 0.3 "
           "microseconds). 65536 made ResNet-18, SqueezeNet and "
           "MobileNetV2 int8 4-6 % slower on two threads">,
    Option<"minModelWork", "min-model-work", "int64_t",
           /*default=*/"kDefaultMinModelWork",
           "Split nothing when the loops worth splitting hold less work "
           "than this in all (default 1048576, 2^20: MNIST's 0.2-0.4M stays "
           "serial, ResNet8's 1-2M splits; on an AMD EPYC (Zen 4) ResNet8 "
           "int8 ran 1.41x and MNIST int8 1.27x as fast on two threads, on "
           "a Sapphire Rapids Xeon 0.95-0.98x and 0.91x)">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "memref::MemRefDialect",
                           "func::FuncDialect"];
}

def EmitABIPass : Pass<"onnxq-emit-abi", "ModuleOp"> {
  let summary = "Emit the C ABI entry points in the LLVM dialect";
  let description = [{
    After lowering to the LLVM dialect (bare-pointer calling convention,
    the parallel context of `onnxq-parallelize` last), adds
    `NAME_run(inputs, outputs, workspace)` (which allocates the workspace
    when given NULL), `NAME_run_parallel(inputs, outputs, workspace,
    parallel_for, pool, threads)`, `NAME_num_inputs/outputs`,
    `NAME_input/output_size`, `NAME_workspace_size` and
    `NAME_workspace_size_parallel`, and makes every other symbol internal so
    several models link into one program.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

#endif // ONNXQUANT_CODEGEN_PASSES_TD
