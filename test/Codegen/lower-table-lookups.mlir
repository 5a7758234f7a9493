// RUN: onnx-quant-opt %s --onnxq-lower-table-lookups=isa=vbmi --split-input-file | FileCheck %s --check-prefix=VBMI
// RUN: onnx-quant-opt %s --onnxq-lower-table-lookups=isa=tbl --split-input-file | FileCheck %s --check-prefix=TBL
// RUN: onnx-quant-opt %s --onnxq-lower-table-lookups=isa=none --split-input-file | FileCheck %s --check-prefix=NONE
// Byte gathers from a 256-byte table become permutes of the table in
// registers.

// 16 lanes (the byte indices come back from their extension, frozen: masked-off
// lanes may be poison): vbmi pads them to 64, looks up 128 bytes twice and picks by the
// index's top bit; tbl looks up each 64-byte quarter. Masked-off lanes take
// the pass-through.
// VBMI-LABEL: func @lookup16
// VBMI: %[[I:.*]] = llvm.freeze %arg1 : vector<16xi8>
// VBMI-COUNT-4: vector.load %arg0[%{{.*}}] : memref<256xi8>, vector<64xi8>
// VBMI: %[[I64:.*]] = vector.insert_strided_slice %[[I]], %{{.*}} {offsets = [0], strides = [1]} : vector<16xi8> into vector<64xi8>
// VBMI: %[[LO:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"(%{{.*}}, %[[I64]], %{{.*}})
// VBMI: %[[HI:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"(%{{.*}}, %[[I64]], %{{.*}})
// VBMI: %[[TOP:.*]] = arith.cmpi slt, %[[I64]], %{{.*}} : vector<64xi8>
// VBMI: %[[R:.*]] = arith.select %[[TOP]], %[[HI]], %[[LO]] : vector<64xi1>, vector<64xi8>
// VBMI: %[[R16:.*]] = vector.extract_strided_slice %[[R]] {offsets = [0], sizes = [16], strides = [1]} : vector<64xi8> to vector<16xi8>
// VBMI: %[[Y:.*]] = arith.select %arg2, %[[R16]], %arg3 : vector<16xi1>, vector<16xi8>
// VBMI: return %[[Y]]
// TBL-LABEL: func @lookup16
// TBL-COUNT-16: vector.load %arg0[%{{.*}}] : memref<256xi8>, vector<16xi8>
// TBL: llvm.call_intrinsic "llvm.aarch64.neon.tbl4.v16i8"
// TBL-COUNT-3: llvm.call_intrinsic "llvm.aarch64.neon.tbx4.v16i8"
// TBL: arith.select %arg2
// NONE-LABEL: func @lookup16
// NONE: vector.gather
func.func @lookup16(%table: memref<256xi8>, %bytes: vector<16xi8>, %mask: vector<16xi1>, %pass: vector<16xi8>) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %i = arith.extui %bytes : vector<16xi8> to vector<16xi32>
  %g = vector.gather %table[%c0] [%i], %mask, %pass : memref<256xi8>, vector<16xi32>, vector<16xi1>, vector<16xi8> into vector<16xi8>
  return %g : vector<16xi8>
}

// -----

// 64 lanes of index type with a leading unit dimension (as the vectorizer
// leaves them): one permute pair on vbmi, four tbl/tbx rounds on tbl.
// VBMI-LABEL: func @lookup64
// VBMI: arith.index_cast %{{.*}} : vector<64xindex> to vector<64xi8>
// VBMI-COUNT-2: llvm.x86.avx512.vpermi2var.qi.512
// VBMI-NOT: llvm.x86.avx512.vpermi2var.qi.512
// VBMI: vector.shape_cast %{{.*}} : vector<64xi8> to vector<1x64xi8>
// TBL-LABEL: func @lookup64
// TBL-COUNT-4: llvm.aarch64.neon.tbl4.v16i8
// TBL-NOT: llvm.aarch64.neon.tbl4.v16i8
func.func @lookup64(%table: memref<256xi8>, %i: vector<1x64xindex>, %mask: vector<1x64xi1>, %pass: vector<1x64xi8>) -> vector<1x64xi8> {
  %c0 = arith.constant 0 : index
  %g = vector.gather %table[%c0] [%i], %mask, %pass : memref<256xi8>, vector<1x64xindex>, vector<1x64xi1>, vector<1x64xi8> into vector<1x64xi8>
  return %g : vector<1x64xi8>
}

// -----

// Not byte tables: left to the generic gather lowering.
// VBMI-LABEL: func @not_tables
// VBMI-COUNT-3: vector.gather
// TBL-LABEL: func @not_tables
// TBL-COUNT-3: vector.gather
func.func @not_tables(%small: memref<100xi8>, %words: memref<256xi32>, %table: memref<256xi8>, %i: vector<16xi32>, %mask: vector<16xi1>, %pass: vector<16xi8>, %pass32: vector<16xi32>) -> (vector<16xi8>, vector<16xi32>, vector<16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = vector.gather %small[%c0] [%i], %mask, %pass : memref<100xi8>, vector<16xi32>, vector<16xi1>, vector<16xi8> into vector<16xi8>
  %b = vector.gather %words[%c0] [%i], %mask, %pass32 : memref<256xi32>, vector<16xi32>, vector<16xi1>, vector<16xi32> into vector<16xi32>
  %c = vector.gather %table[%c1] [%i], %mask, %pass : memref<256xi8>, vector<16xi32>, vector<16xi1>, vector<16xi8> into vector<16xi8>
  return %a, %b, %c : vector<16xi8>, vector<16xi32>, vector<16xi8>
}
