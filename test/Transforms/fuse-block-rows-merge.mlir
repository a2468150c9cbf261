// RUN: %respec-opt --respec-fuse-block-rows --split-input-file %s | FileCheck %s
// RUN: %respec-opt --respec-fuse-block-rows=merge-rows=false --split-input-file %s | FileCheck %s --check-prefix=OFF

// `if (col < n)` on the global column col = bx * 32 + tx: each fused
// block's threads are its share of [0, n), so the loop over the fused
// blocks and the row of threads become one loop over the global column,
// from the row's first column to min(n, its end), and the body reads the
// column from the loop.
// CHECK-LABEL: func.func @ragged_columns(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: index, %{{[^:]+}}: index, %[[N:[^:]+]]: index
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %[[BXO:.+]]) =
// CHECK: %[[FIRSTB:.+]] = arith.muli %[[BXO]], %{{.+}} : index
// CHECK: %[[LEFT:.+]] = arith.subi %{{.+}}, %[[FIRSTB]] : index
// CHECK: %[[HERE:.+]] = arith.minui %{{.+}}, %[[LEFT]] : index
// CHECK: scf.parallel (%{{.+}}, %[[Y:.+]]) = (%c0, %c0) to (%c1, %c8) step
// CHECK: %[[FIRST:.+]] = arith.muli %[[FIRSTB]], %[[W:.+]] : index
// CHECK: %[[ENDB:.+]] = arith.addi %[[FIRSTB]], %[[HERE]] : index
// CHECK: %[[END:.+]] = arith.muli %[[ENDB]], %[[W]] : index
// CHECK: %[[WFIRST:.+]] = arith.index_cast %[[FIRST]] : index to i128
// CHECK: %[[WEND:.+]] = arith.index_cast %[[END]] : index to i128
// CHECK: %[[ZERO:.+]] = arith.muli %c0{{.*}}, %c32 : index
// CHECK: %[[G:.+]] = arith.subi %[[N]], %[[ZERO]] : index
// CHECK: %[[WG:.+]] = arith.index_cast %[[G]] : index to i128
// CHECK: %[[ATLEAST:.+]] = arith.maxsi %[[WG]], %[[WFIRST]] : i128
// CHECK: %[[ATMOST:.+]] = arith.minsi %[[ATLEAST]], %[[WEND]] : i128
// CHECK: %[[HI:.+]] = arith.index_cast %[[ATMOST]] : i128 to index
// CHECK: scf.parallel (%[[K:.+]]) = (%[[FIRST]]) to (%[[HI]]) step (%{{.+}}) {
// CHECK-NOT: arith.muli %{{.+}}, %c32
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[Y]] : index
// CHECK: %[[BASE:.+]] = arith.muli %[[ROW]], %[[N]] : index
// CHECK: arith.addi %[[BASE]], %[[K]] : index
// CHECK: } {respec.parallel_level = "block"}
// CHECK: } {respec.parallel_level = "block"}
// CHECK: } {respec.parallel_level = "grid"}
// CHECK-NOT: scf.for
// OFF-LABEL: func.func @ragged_columns(
// OFF: scf.for
// OFF: scf.parallel (%{{.+}}) = (%c0) to (%{{.+}}) step (%c1) {
func.func @ragged_columns(%p: !llvm.ptr, %gx: index, %gy: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %col0 = arith.muli %bx, %c32 : index
    %left = arith.subi %n, %col0 : index
    %end = arith.minsi %left, %c32 : index
    %row0 = arith.muli %by, %c8 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c8, %end) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %row = arith.addi %row0, %ty : index
      %rowbase = arith.muli %row, %n : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 32, 8, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// What index-set splitting leaves for `if (col > 0 && col < n - 1)` in
// 32-bit CUDA arithmetic: per block, lo = clamp(1 - bx * 32, 0, 32) and
// hi = max(min(n - 1 - bx * 32, 32), lo) in 128-bit arithmetic, frozen.
// The merged loop runs the global columns max(1, first) to min(max(n - 1,
// 1), end); the 32-bit column becomes the truncated global index.
// CHECK-LABEL: func.func @split_interior(
// CHECK: scf.parallel (%{{.+}}, %[[Y:.+]]) = (%c0, %c0) to (%c1, %c8) step
// CHECK: %[[FIRST:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[END:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[WFIRST:.+]] = arith.index_cast %[[FIRST]] : index to i128
// CHECK: %[[WEND:.+]] = arith.index_cast %[[END]] : index to i128
// CHECK: %[[ZERO:.+]] = arith.index_castui %c0{{.*}} : index to i32
// CHECK: %[[ZCOL:.+]] = llvm.mul %[[ZERO]], %{{.+}} overflow<nsw, nuw> : i32
// CHECK: %[[ZWIDE:.+]] = arith.extsi %[[ZCOL]] : i32 to i128
// CHECK: %[[ONE:.+]] = arith.subi %{{.+}}, %[[ZWIDE]] : i128
// CHECK: %[[G:.+]] = llvm.freeze %[[ONE]] : i128
// CHECK: %[[LO1:.+]] = arith.maxsi %[[G]], %[[WFIRST]] : i128
// CHECK: %[[LO2:.+]] = arith.minsi %[[LO1]], %[[WEND]] : i128
// CHECK: %[[LO:.+]] = arith.index_cast %[[LO2]] : i128 to index
// CHECK: %[[NM1:.+]] = arith.subi %{{.+}}, %{{.+}} : i128
// CHECK: %[[GN:.+]] = llvm.freeze %[[NM1]] : i128
// CHECK: %[[HMAX:.+]] = arith.maxsi %[[GN]], %[[G]] : i128
// CHECK: %[[HI1:.+]] = arith.maxsi %[[HMAX]], %[[WFIRST]] : i128
// CHECK: %[[HI2:.+]] = arith.minsi %[[HI1]], %[[WEND]] : i128
// CHECK: %[[HI:.+]] = arith.index_cast %[[HI2]] : i128 to index
// CHECK: scf.parallel (%[[K:.+]]) = (%[[LO]]) to (%[[HI]]) step (%{{.+}}) {
// CHECK: %[[K32:.+]] = arith.index_castui %[[K]] : index to i32
// CHECK: llvm.add %{{.+}}, %[[K32]] overflow<nsw, nuw> : i32
// CHECK-NOT: scf.for
// CHECK: return
func.func @split_interior(%p: !llvm.ptr, %q: !llvm.ptr, %gx: index, %gy: index, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c32_i32 = llvm.mlir.constant(32 : i32) : i32
  %c8_i32 = llvm.mlir.constant(8 : i32) : i32
  %c1_i32 = llvm.mlir.constant(1 : i32) : i32
  %c4096_i32 = llvm.mlir.constant(4096 : i32) : i32
  %c0_w = arith.constant 0 : i128
  %c1_w = arith.constant 1 : i128
  %c32_w = arith.constant 32 : i128
  %nm1 = llvm.sub %n, %c1_i32 overflow<nsw> : i32
  %nm1_w = arith.extsi %nm1 : i32 to i128
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %bx32 = arith.index_castui %bx : index to i32
    %col0 = llvm.mul %bx32, %c32_i32 overflow<nsw, nuw> : i32
    %col0_w = arith.extsi %col0 : i32 to i128
    %s1 = arith.subi %c1_w, %col0_w : i128
    %f1 = llvm.freeze %s1 : i128
    %m1 = arith.minsi %f1, %c32_w : i128
    %lo_w = arith.maxsi %m1, %c0_w : i128
    %lo = arith.index_cast %lo_w : i128 to index
    %s2 = arith.subi %nm1_w, %col0_w : i128
    %f2 = llvm.freeze %s2 : i128
    %m2 = arith.minsi %f2, %c32_w : i128
    %lo_again = arith.index_cast %lo : index to i128
    %hi_w = arith.maxsi %m2, %lo_again : i128
    %hi = arith.index_cast %hi_w : i128 to index
    %by32 = arith.index_castui %by : index to i32
    %row0 = llvm.mul %by32, %c8_i32 overflow<nsw, nuw> : i32
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %lo) to (%c1, %c8, %hi) step (%c1, %c1, %c1) {
      %tx32 = arith.index_castui %tx : index to i32
      %ty32 = arith.index_castui %ty : index to i32
      %col = llvm.add %col0, %tx32 overflow<nsw, nuw> : i32
      %row = llvm.add %row0, %ty32 overflow<nsw, nuw> : i32
      %rowbase = llvm.mul %row, %c4096_i32 overflow<nsw, nuw> : i32
      %k = llvm.add %rowbase, %col overflow<nsw, nuw> : i32
      %k64 = llvm.zext %k : i32 to i64
      %src = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %dst = llvm.getelementptr %q[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 32, 8, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Not merged: the body also uses the thread index on its own (a per-thread
// slot), which the global index does not give without a division.
// CHECK-LABEL: func.func @thread_index_used(
// CHECK: scf.for
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c1) {
func.func @thread_index_used(%p: !llvm.ptr, %slots: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %col0 = arith.muli %bx, %c32 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c8, %c32) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %rowbase = arith.muli %ty, %c4096 : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %t64 = arith.index_cast %tx : index to i64
      %slot = llvm.getelementptr %slots[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 32, 8, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Not merged: every block skips its first thread (`if (tx > 0)`), so the
// blocks' ranges leave gaps between them.
// CHECK-LABEL: func.func @gaps(
// CHECK: scf.for
// CHECK: scf.parallel (%{{.+}}) = (%c1) to (%c32) step (%c1) {
func.func @gaps(%p: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %col0 = arith.muli %bx, %c32 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c1) to (%c1, %c8, %c32) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %rowbase = arith.muli %ty, %c4096 : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 32, 8, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Not merged: `bx * 64 + tx` with 32 threads along x is not the global
// index (blocks of 32 threads 64 columns apart).
// CHECK-LABEL: func.func @wider_stride(
// CHECK: scf.for
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c1) {
func.func @wider_stride(%p: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %col0 = arith.muli %bx, %c64 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c8, %c32) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %rowbase = arith.muli %ty, %c4096 : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 32, 8, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Not merged: the upper bound is an unsigned min of `n - bx * 32` (which
// may be negative) and 32: as unsigned, a negative difference is huge,
// not empty, so the bound is no clamp of one global range.
// CHECK-LABEL: func.func @unsigned_cut(
// CHECK: scf.for
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%{{.+}}) step (%c1) {
func.func @unsigned_cut(%p: !llvm.ptr, %gx: index, %gy: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %col0 = arith.muli %bx, %c32 : index
    %left = arith.subi %n, %col0 : index
    %end = arith.minui %left, %c32 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c8, %end) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %rowbase = arith.muli %ty, %c4096 : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 32, 8, 1>, respec.parallel_level = "grid"}
  return
}
