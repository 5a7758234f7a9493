// RUN: onnx-quant-opt %s --onnxq-parallelize="min-work=1000 min-model-work=0" --split-input-file | FileCheck %s
// RUN: onnx-quant-opt %s --onnxq-parallelize="min-work=1000 min-model-work=0 max-threads=1" --split-input-file | FileCheck %s --check-prefix=SERIAL
// RUN: onnx-quant-opt %s --onnxq-parallelize="min-work=1000" --split-input-file | FileCheck %s --check-prefix=SMALL
// With the default min-model-work (2^20), these models, a few thousand
// operations in all, split nothing: on one thread they run faster than
// with a hand-over per loop. The graph still takes the parallel context.
// SMALL-NOT: _part
// SMALL-LABEL: func.func @graph(
// SMALL-SAME: !llvm.ptr)

// The graph takes the parallel context last and passes it to the nodes that
// split a loop. A loop with enough work (64 x 16 x 16 loads and stores)
// becomes a task over a range of its first dim's 64 iterations (the dims
// linearized until 16 items at least), with the other dims whole inside;
// the node calls the parallel-for with min(threads, 64) parts when it has a
// context and more than one thread, else the task once for all 64. The
// entry the parallel-for calls rebuilds the buffers from the context's
// pointers (slot 0 holds the part count). A part's bounds are capped at the
// item count, which they never exceed, so that range analysis knows the
// loops' indices are never negative. A loop of 4 stores stays as it is.

// CHECK-LABEL: func.func private @graph_big_part(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: memref<64x256xf32> {llvm.noalias}, %[[WS:[a-z0-9]+]]: memref<4096xi8> {llvm.noalias},
// CHECK-SAME: %[[PARTS:[a-z0-9]+]]: i64, %[[BEGIN:[a-z0-9]+]]: i64, %[[END:[a-z0-9]+]]: i64)
// CHECK-SAME: passthrough = ["noinline"]
// CHECK: %[[OUT:.*]] = memref.view %[[WS]]
// CHECK: %[[B:.*]] = arith.muli %[[BEGIN]], %[[N:.*]] : i64
// CHECK: %[[FIRST:.*]] = arith.divui %[[B]], %[[PARTS]]
// CHECK: %[[E:.*]] = arith.muli %[[END]], %{{.*}} : i64
// CHECK: %[[LAST:.*]] = arith.divui %[[E]], %[[PARTS]]
// CHECK: %[[BOUNDED:.*]] = arith.minui %[[LAST]], %[[N2:.*]] : i64
// CHECK: %[[LO:.*]] = arith.index_cast %[[BOUNDED]]
// CHECK: scf.for %[[ITEM:.*]] = %{{.*}} to %[[LO]]
// CHECK-NOT: arith.divui
// CHECK: %[[I:.*]] = arith.addi
// CHECK: scf.parallel (%[[J:.*]]) =
// CHECK: scf.for
// CHECK: memref.load %[[IN]][%[[I]],
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I]], %[[J]]]

// CHECK-LABEL: llvm.func @graph_big_part_entry(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %[[EB:.*]]: i64, %[[EE:.*]]: i64)
// CHECK: llvm.getelementptr %[[CTX]][1]
// CHECK: %[[INPTR:.*]] = llvm.load
// CHECK: %[[INDESC:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<64x256xf32>
// CHECK: llvm.getelementptr %[[CTX]][2]
// CHECK: %[[WSDESC:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<4096xi8>
// CHECK: %[[NPARTS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: call @graph_big_part(%[[INDESC]], %[[WSDESC]], %[[NPARTS]], %[[EB]], %[[EE]])

// CHECK-LABEL: func.func private @graph_big(
// CHECK-SAME: %[[PIN:[a-z0-9]+]]: memref<64x256xf32> {llvm.noalias}, %[[PWS:[a-z0-9]+]]: memref<4096xi8> {llvm.noalias}, %[[PCTX:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[SLOTS:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[SET:.*]] = llvm.icmp "ne" %[[PCTX]]
// CHECK: %[[THREADS:.*]] = scf.if %[[SET]] -> (i64) {
// CHECK: llvm.getelementptr %[[PCTX]][0, 2]
// CHECK: %[[CHUNKS:.*]] = arith.minsi %[[THREADS]], %{{.*}}
// CHECK: %[[PAR:.*]] = arith.cmpi sgt, %[[CHUNKS]]
// CHECK: scf.if %[[PAR]] {
// CHECK: llvm.store %[[CHUNKS]]
// CHECK: memref.extract_aligned_pointer_as_index %[[PIN]]
// CHECK: memref.extract_aligned_pointer_as_index %[[PWS]]
// CHECK: %[[PF:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[POOL:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @graph_big_part_entry
// CHECK: llvm.call %[[PF]](%[[POOL]], %[[CHUNKS]], %[[FN]], %[[SLOTS]])
// CHECK: } else {
// CHECK: func.call @graph_big_part(%[[PIN]], %[[PWS]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: scf.parallel

// CHECK-LABEL: func.func private @graph_small(
// CHECK-SAME: %{{.*}}: memref<4096xi8> {llvm.noalias})
// CHECK: scf.parallel

// CHECK-LABEL: func.func @graph(
// CHECK-SAME: %[[GIN:.*]]: memref<64x256xf32>, %[[GWS:.*]]: memref<4096xi8>, %[[GCTX:.*]]: !llvm.ptr)
// CHECK: call @graph_big(%[[GIN]], %[[GWS]], %[[GCTX]])
// CHECK: call @graph_small(%[[GWS]])

// With max-threads=1 nothing is split, but the graph still takes the
// context (the ABI passes it).
// SERIAL-NOT: _part
// SERIAL-LABEL: func.func @graph(
// SERIAL-SAME: !llvm.ptr)
// SERIAL: call @graph_big(%{{.*}}, %{{.*}}) :

module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 4096 : i64}} {
  func.func private @graph_big(%in: memref<64x256xf32> {llvm.noalias}, %ws: memref<4096xi8> {llvm.noalias}) attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c16 = arith.constant 16 : index
    %out = memref.view %ws[%c0][] : memref<4096xi8> to memref<64x16xf32>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c16) step (%c1, %c1) {
      scf.for %k = %c0 to %c256 step %c16 {
        %v = memref.load %in[%i, %k] : memref<64x256xf32>
        memref.store %v, %out[%i, %j] : memref<64x16xf32>
      }
      scf.reduce
    }
    return
  }
  func.func private @graph_small(%ws: memref<4096xi8> {llvm.noalias}) attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %buf = memref.view %ws[%c0][] : memref<4096xi8> to memref<4xf32>
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      memref.store %zero, %buf[%i] : memref<4xf32>
      scf.reduce
    }
    return
  }
  func.func @graph(%in: memref<64x256xf32>, %ws: memref<4096xi8>) {
    call @graph_big(%in, %ws) : (memref<64x256xf32>, memref<4096xi8>) -> ()
    call @graph_small(%ws) : (memref<4096xi8>) -> ()
    return
  }
}

// -----

// Not split: a loop that reduces into results (its iterations are not
// independent), one that reads a value the node computes (not a view or a
// constant), and one with dims of unknown extent. Leading dims are
// linearized until 16 items: in (2, 4, 256), 2 x 4 = 8 are too few, so all
// three are (2048 items, each dim recovered by remainders and quotients).

// CHECK-LABEL: func.func private @graph_rest_part(
// CHECK: scf.for %[[ITEM:[a-z0-9]+]] =
// CHECK-DAG: arith.remui %[[ITEM]], %{{.*}}
// CHECK-DAG: arith.divui %[[ITEM]], %{{.*}}
// CHECK-NOT: scf.parallel
// CHECK: memref.store
// CHECK-LABEL: func.func private @graph_rest(
// CHECK: scf.parallel {{.*}} init
// CHECK: scf.reduce
// CHECK: memref.load
// CHECK: scf.parallel
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}})
// CHECK: llvm.call

module attributes {onnx.abi = {entry = "m", function = "graph", inputs = [], outputs = [], workspace_size = 8192 : i64}} {
  func.func private @graph_rest(%ws: memref<8192xi8> {llvm.noalias}, %n: index) attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c2048 = arith.constant 2048 : index
    %zero = arith.constant 0.0 : f32
    %buf = memref.view %ws[%c0][] : memref<8192xi8> to memref<2048xf32>
    %sum = scf.parallel (%i) = (%c0) to (%c2048) step (%c1) init (%zero) -> f32 {
      %v = memref.load %buf[%i] : memref<2048xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        scf.reduce.return %s : f32
      }
    }
    %first = memref.load %buf[%c0] : memref<2048xf32>
    scf.parallel (%i) = (%c0) to (%c2048) step (%c1) {
      memref.store %first, %buf[%i] : memref<2048xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %sum, %buf[%i] : memref<2048xf32>
      scf.reduce
    }
    %grid = memref.view %ws[%c0][] : memref<8192xi8> to memref<2x4x256xf32>
    scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c2, %c4, %c256) step (%c1, %c1, %c1) {
      memref.store %zero, %grid[%i, %j, %k] : memref<2x4x256xf32>
      scf.reduce
    }
    return
  }
  func.func @graph(%ws: memref<8192xi8>, %n: index) {
    call @graph_rest(%ws, %n) : (memref<8192xi8>, index) -> ()
    return
  }
}
