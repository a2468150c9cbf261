// RUN: respec-opt --respec-promote-across-barriers %s | FileCheck %s
// RUN: respec-opt --respec-promote-across-barriers --respec-lower-barriers %s | FileCheck %s --check-prefix=LOWER
// RUN: respec-opt --respec-lower-barriers %s | FileCheck %s --check-prefix=UNPROMOTED

// A tiled loop's accumulator, demoted to a thread-private slot: its load
// moves past the first barrier to its use and its store up to the sum,
// before the second barrier. Lowered, each iteration is then two thread
// loops (the tile, the sum), with the accumulator in its slot and nothing
// spilled; without the pass the load and the sum are spilled and a third
// thread loop copies the sum back into the slot.
// CHECK-LABEL: func.func @tiled_accumulator(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: scf.for
// CHECK: llvm.store %{{.*}}, %[[TILE:.*]] : f32, !llvm.ptr
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: %[[T:.*]] = llvm.load %[[TILE]]
// CHECK-NEXT: %[[ACC:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> f32
// CHECK-NEXT: %[[SUM:.*]] = llvm.fadd %[[ACC]], %[[T]] : f32
// CHECK-NEXT: llvm.store %[[SUM]], %[[SLOT]] : f32, !llvm.ptr
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: }
// LOWER-LABEL: func.func @tiled_accumulator(
// LOWER-NOT: respec.barrier_spill
// LOWER: scf.for
// LOWER-COUNT-2: } {respec.parallel_level = "block"}
// LOWER-NEXT: }
// UNPROMOTED-LABEL: func.func @tiled_accumulator(
// UNPROMOTED: respec.barrier_spill
// UNPROMOTED: scf.for
// UNPROMOTED-COUNT-3: } {respec.parallel_level = "block"}
// UNPROMOTED-NEXT: }
func.func @tiled_accumulator(%n: index, %tile: !llvm.ptr, %in: !llvm.ptr,
                             %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %slot = llvm.alloca %one x f32 : (i64) -> !llvm.ptr
      %zero = llvm.mlir.constant(0.0 : f32) : f32
      llvm.store %zero, %slot : f32, !llvm.ptr
      %i = arith.index_cast %t : index to i64
      %src = llvm.getelementptr %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %dst = llvm.getelementptr %tile[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      scf.for %k = %c0 to %n step %c1 {
        %acc = llvm.load %slot : !llvm.ptr -> f32
        %v = llvm.load %src : !llvm.ptr -> f32
        llvm.store %v, %dst : f32, !llvm.ptr
        respec.barrier(%t)
        %w = llvm.load %dst : !llvm.ptr -> f32
        %sum = llvm.fadd %acc, %w : f32
        respec.barrier(%t)
        llvm.store %sum, %slot : f32, !llvm.ptr
      }
      %r = llvm.load %slot : !llvm.ptr -> f32
      %o = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %r, %o : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A store to the variable between the load and its use keeps the load in
// place; a load between a value and its store keeps the store in place.
// CHECK-LABEL: func.func @accesses_between(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[OLD:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i32
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: llvm.store %{{.*}}, %[[SLOT]] : i32, !llvm.ptr
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: %[[NEW:.*]] = llvm.add %[[OLD]], %[[OLD]] : i32
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: %[[SEEN:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i32
// CHECK-NEXT: llvm.store %[[NEW]], %[[SLOT]] : i32, !llvm.ptr
func.func @accesses_between(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %slot = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
      %seven = llvm.mlir.constant(7 : i32) : i32
      llvm.store %seven, %slot : i32, !llvm.ptr
      %old = llvm.load %slot : !llvm.ptr -> i32
      respec.barrier(%t)
      llvm.store %seven, %slot : i32, !llvm.ptr
      respec.barrier(%t)
      %new = llvm.add %old, %old : i32
      respec.barrier(%t)
      %seen = llvm.load %slot : !llvm.ptr -> i32
      llvm.store %new, %slot : i32, !llvm.ptr
      %i = arith.index_cast %t : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %seen, %q : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A load whose first use sits in a branch after the barrier moves in
// front of the branch; a store inside that branch, after the use, does not
// stop it. A load already in its use's interval stays.
// CHECK-LABEL: func.func @use_in_branch(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[NEAR:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i32
// CHECK-NEXT: llvm.mul %[[NEAR]], %[[NEAR]]
// CHECK: respec.barrier
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i32
// CHECK-NEXT: scf.if
// CHECK-NEXT: llvm.store %[[V]]
// CHECK-NEXT: llvm.store %{{.*}}, %[[SLOT]]
func.func @use_in_branch(%p: !llvm.ptr, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %slot = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
      %seven = llvm.mlir.constant(7 : i32) : i32
      llvm.store %seven, %slot : i32, !llvm.ptr
      %v = llvm.load %slot : !llvm.ptr -> i32
      %near = llvm.load %slot : !llvm.ptr -> i32
      %sq = llvm.mul %near, %near : i32
      respec.barrier(%t)
      scf.if %c {
        llvm.store %v, %p : i32, !llvm.ptr
        llvm.store %sq, %slot : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A variable whose address goes elsewhere (stored to memory, offset by a
// GEP) may be accessed through it: its accesses stay where they are.
// CHECK-LABEL: func.func @escaping_address(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[V:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i32
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: llvm.store %[[V]], %{{.*}} : i32, !llvm.ptr
func.func @escaping_address(%p: !llvm.ptr, %pp: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %slot = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
      llvm.store %slot, %pp : !llvm.ptr, !llvm.ptr
      %v = llvm.load %slot : !llvm.ptr -> i32
      respec.barrier(%t)
      llvm.store %v, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
