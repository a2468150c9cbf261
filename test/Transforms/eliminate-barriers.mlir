// RUN: %respec-opt --respec-eliminate-barriers -split-input-file %s | FileCheck %s

// Kept: a thread writes shared memory before the barrier that other
// threads read after it.
// CHECK-LABEL: func.func @needed(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @needed(%n: index, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %p = llvm.getelementptr %sh[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %p : i32, !llvm.ptr
      respec.barrier(%t)
      %q = llvm.getelementptr %sh[8] : (!llvm.ptr) -> !llvm.ptr, i32
      %x = llvm.load %q : !llvm.ptr -> i32
      llvm.store %x, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Removed: only reads on both sides (read after read); after the last
// shared access only global memory (a kernel argument) is written, which
// cannot be shared memory; and thread-private memory never counts.
// CHECK-LABEL: func.func @redundant(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @redundant(%n: index, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %private = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
      %x = llvm.load %sh : !llvm.ptr -> i32
      llvm.store %x, %private : i32, !llvm.ptr
      respec.barrier(%t)
      %y = llvm.load %sh : !llvm.ptr -> i32
      %z = llvm.load %private : !llvm.ptr -> i32
      %s = arith.addi %y, %z : i32
      respec.barrier(%t)
      %i = arith.index_cast %t : index to i64
      %o = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %s, %o : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: two kernel arguments may point to the same memory; and code with
// unknown effects (a call) keeps the barrier too.
// CHECK-LABEL: func.func @may_alias(
// CHECK-COUNT-2: respec.barrier
llvm.func @opaque()
func.func @may_alias(%n: index, %a: !llvm.ptr, %b2: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %x = llvm.load %a : !llvm.ptr -> i32
      respec.barrier(%t)
      llvm.store %x, %b2 : i32, !llvm.ptr
      respec.barrier(%t)
      llvm.call @opaque() : () -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
