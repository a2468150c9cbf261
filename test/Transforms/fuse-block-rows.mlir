// RUN: %respec-opt --respec-fuse-block-rows=merge-rows=false --split-input-file %s | FileCheck %s

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr
llvm.func @__respec_block_scratch_reset()

// A 16x16 tile copied through shared memory, a value kept across the
// barrier in a block-scope array, and the block's column offset computed
// once per block. Each thread loop becomes (z, y) outside a loop over the
// fused blocks, x inside; each block gets its own slices of the shared
// memory (1296 bytes: 21 lines) and of the spill array (1024 bytes: 16
// lines, padded to 17); the column offset is recomputed per fused block.
// CHECK-LABEL: func.func @tile(
// CHECK-SAME: %[[IN:[^:]+]]: !llvm.ptr, %[[OUT:[^:]+]]: !llvm.ptr, %[[GX:[^:]+]]: index, %[[GY:[^:]+]]: index
// CHECK: %[[BLOCKS:.+]] = arith.muli %[[GX]], %{{.+}} : index
// CHECK: %[[COUNT0:.+]] = arith.minui %{{.+}}, %[[GX]] : index
// CHECK: %[[SSLICE:.+]] = arith.shli %{{.+}} : index
// CHECK: %[[PSLICE:.+]] = arith.shli %{{.+}} : index
// CHECK: %[[FUSED:.+]] = arith.ceildivui %[[GX]], %{{.+}} : index
// CHECK: %[[BAL:.+]] = arith.ceildivui %[[GX]], %{{.+}} : index
// CHECK: %[[COUNT:.+]] = arith.maxui %[[BAL]], %{{.+}} : index
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %[[BXO:.+]]) = ({{.+}}) to (%{{.+}}, %[[GY]], %[[FUSED]])
// CHECK: %[[FIRST:.+]] = arith.muli %[[BXO]], %[[COUNT]] : index
// CHECK: %[[LEFT:.+]] = arith.subi %[[GX]], %[[FIRST]] : index
// CHECK: %[[HERE:.+]] = arith.minui %[[COUNT]], %[[LEFT]] : index
// CHECK: llvm.call @__respec_block_scratch_reset()
// CHECK: %[[STOTAL:.+]] = arith.muli %[[SSLICE]], %[[COUNT]] : index
// CHECK: %[[SBYTES:.+]] = arith.index_castui %[[STOTAL]] : index to i64
// CHECK: %[[SHARED:.+]] = llvm.call @__respec_shared_memory(%[[SBYTES]])
// CHECK: %[[PTOTAL:.+]] = arith.muli %[[PSLICE]], %[[COUNT]] : index
// CHECK: %[[PBYTES:.+]] = arith.index_castui %[[PTOTAL]] : index to i64
// CHECK: %[[SPILL:.+]] = llvm.call @__respec_block_scratch(%[[PBYTES]]) {respec.barrier_spill}
// CHECK-NOT: arith.muli %[[BXO]], %c16
// CHECK: scf.parallel (%[[Z:.+]], %[[Y:.+]]) = (%c0, %c0) to (%c1, %c16) step (%c1, %c1) {
// CHECK: scf.for %[[C:.+]] = %{{.+}} to %[[HERE]] step %{{.+}} {
// CHECK: %[[BX:.+]] = arith.addi %[[FIRST]], %[[C]] : index
// CHECK: %[[CB:.+]] = arith.index_castui %[[C]] : index to i64
// CHECK: %[[SOFF:.+]] = arith.muli %[[CB]], %{{.+}} : i64
// CHECK: %[[MYSHARED:.+]] = llvm.getelementptr inbounds %[[SHARED]][%[[SOFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[POFF:.+]] = arith.muli %[[CB]], %{{.+}} : i64
// CHECK: %[[MYSPILL:.+]] = llvm.getelementptr inbounds %[[SPILL]][%[[POFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[COL:.+]] = arith.muli %[[BX]], %c16 : index
// CHECK: scf.parallel (%[[X:.+]]) = (%c0) to (%c16) step (%c1) {
// CHECK: arith.addi %[[COL]], %[[X]] : index
// CHECK: llvm.getelementptr %[[MYSHARED]]
// CHECK: llvm.getelementptr %[[MYSPILL]]
// CHECK: } {respec.parallel_level = "block"}
// CHECK: } {respec.parallel_level = "block"}
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%c0, %c0) to (%c1, %c16)
// CHECK: scf.for
// CHECK: arith.addi %[[FIRST]]
// CHECK: scf.parallel
// CHECK: } {respec.parallel_level = "grid"}
// CHECK-NOT: respec.block_size
func.func @tile(%in: !llvm.ptr, %out: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %shared_bytes = llvm.mlir.constant(1296 : i64) : i64
  %spill_bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    llvm.call @__respec_block_scratch_reset() : () -> ()
    %tile = llvm.call @__respec_shared_memory(%shared_bytes) : (i64) -> !llvm.ptr
    %spill = llvm.call @__respec_block_scratch(%spill_bytes) {respec.barrier_spill} : (i64) -> !llvm.ptr
    %col0 = arith.muli %bx, %c16 : index
    %row0 = arith.muli %by, %c16 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c16, %c16) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %row = arith.addi %row0, %ty : index
      %rowbase = arith.muli %row, %c256 : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %src = llvm.getelementptr %in[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %lin = arith.muli %ty, %c16 : index
      %t = arith.addi %lin, %tx : index
      %t64 = arith.index_cast %t : index to i64
      %slot = llvm.getelementptr %tile[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %mine = llvm.getelementptr %spill[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %mine : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c16, %c16) step (%c1, %c1, %c1) {
      %col = arith.addi %col0, %tx : index
      %row = arith.addi %row0, %ty : index
      %rowbase = arith.muli %row, %c256 : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %lin = arith.muli %ty, %c16 : index
      %t = arith.addi %lin, %tx : index
      %t64 = arith.index_cast %t : index to i64
      %mine = llvm.getelementptr %spill[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %mine : !llvm.ptr -> f32
      %slot = llvm.getelementptr %tile[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %w = llvm.load %slot : !llvm.ptr -> f32
      %s = llvm.fadd %v, %w : f32
      %dst = llvm.getelementptr %out[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %s, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 16, 16, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// A bound check on the column (`col < n`) in the x bounds of the thread
// loop: recomputed for each fused block inside the loop over them.
// CHECK-LABEL: func.func @ragged_columns(
// CHECK-SAME: %{{[^:]+}}: index, %{{[^:]+}}: index, %[[N:[^:]+]]: index
// CHECK: scf.parallel
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%c0, %c0) to (%c1, %c8) step
// CHECK: scf.for %[[C:.+]] =
// CHECK: %[[BX:.+]] = arith.addi %{{.+}}, %[[C]] : index
// CHECK: %[[COL:.+]] = arith.muli %[[BX]], %c32 : index
// CHECK: %[[LEFT:.+]] = arith.subi %[[N]], %[[COL]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[LEFT]], %c32 : index
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%[[END]]) step (%c1) {
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

// Left alone: the same grid in a kernel that synchronizes its grid
// (respec.syncs_grid). Its blocks wait for each other inside their thread
// loops; fused, the first would wait for blocks its own core runs after it.
// CHECK-LABEL: func.func @syncs_grid(
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %{{.+}}, %{{.+}}) step
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %c8, %{{.+}}) step
// CHECK: respec.block_size = array<i64: 32, 8, 1>
func.func @syncs_grid(%p: !llvm.ptr, %gx: index, %gy: index, %n: index)
    attributes {respec.syncs_grid} {
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

// Left alone: a row of threads (1-D blocks) already sweeps its rows.
// CHECK-LABEL: func.func @one_row(
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %c1, %c256)
// CHECK: respec.block_size = array<i64: 256, 1, 1>
func.func @one_row(%p: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %c1, %gx) step (%c1, %c1, %c1) {
    %base = arith.muli %bx, %c256 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
      %i = arith.addi %base, %tx : index
      %i64 = arith.index_cast %i : index to i64
      %q = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 256, 1, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: consecutive threads along x access addresses a row apart (a
// transposed tile); fusing blocks along x would touch more lines per row of
// threads, not fewer.
// CHECK-LABEL: func.func @transposed(
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %c16, %c16)
// CHECK: respec.block_size = array<i64: 16, 16, 1>
func.func @transposed(%p: !llvm.ptr, %gx: index, %gy: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %base = arith.muli %bx, %c16 : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c16, %c16) step (%c1, %c1, %c1) {
      %row = arith.addi %base, %tx : index
      %rowbase = arith.muli %row, %c1024 : index
      %k = arith.addi %rowbase, %ty : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 16, 16, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: a store at block level (here of the block's index) would run
// once for all fused blocks.
// CHECK-LABEL: func.func @block_level_store(
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %{{.+}}, %{{.+}})
// CHECK: respec.block_size = array<i64: 16, 16, 1>
func.func @block_level_store(%p: !llvm.ptr, %flags: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %base = arith.muli %bx, %c16 : index
    %b64 = arith.index_cast %bx : index to i64
    %flag = llvm.getelementptr %flags[%b64] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    llvm.store %b64, %flag : i64, !llvm.ptr
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c16, %c16) step (%c1, %c1, %c1) {
      %rowbase = arith.muli %ty, %c1024 : index
      %col = arith.addi %base, %tx : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 16, 16, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: a load at block level that depends on the block's index (a
// per-block parameter) would have to run for each fused block at the same
// point; the pass does not move such loads.
// CHECK-LABEL: func.func @per_block_load(
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %{{.+}}, %{{.+}})
// CHECK: respec.block_size = array<i64: 16, 16, 1>
func.func @per_block_load(%p: !llvm.ptr, %offsets: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %b64 = arith.index_cast %bx : index to i64
    %at = llvm.getelementptr %offsets[%b64] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    %off = llvm.load %at : !llvm.ptr -> i64
    %base = arith.index_cast %off : i64 to index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c16, %c16) step (%c1, %c1, %c1) {
      %rowbase = arith.muli %ty, %c1024 : index
      %col = arith.addi %base, %tx : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.block_size = array<i64: 16, 16, 1>, respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: no block size known (the launch body's generic copy).
// CHECK-LABEL: func.func @generic_copy(
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = (%c0, %c0, %c0) to (%c1, %{{.+}}, %{{.+}})
// CHECK-NOT: scf.for
func.func @generic_copy(%p: !llvm.ptr, %gx: index, %gy: index, %bdx: index, %bdy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%bz, %by, %bx) = (%c0, %c0, %c0) to (%c1, %gy, %gx) step (%c1, %c1, %c1) {
    %base = arith.muli %bx, %bdx : index
    scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %bdy, %bdx) step (%c1, %c1, %c1) {
      %rowbase = arith.muli %ty, %c1024 : index
      %col = arith.addi %base, %tx : index
      %k = arith.addi %rowbase, %col : index
      %k64 = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
