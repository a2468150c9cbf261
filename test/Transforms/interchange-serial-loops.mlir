// RUN: %respec-opt --respec-interchange-serial-loops -split-input-file %s | FileCheck %s

// A loop with a uniform trip count (a kernel argument) and a vectorizable
// body gets a marked barrier at the start of its body.
// CHECK-LABEL: func.func @uniform_trip_count(
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: scf.for
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.interchange}
// CHECK: llvm.fadd
func.func @uniform_trip_count(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %sum = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %i = arith.index_cast %j : index to i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        %s = llvm.fadd %acc, %v : f32
        scf.yield %s : f32
      }
      %ti = arith.index_cast %t : index to i64
      %o = llvm.getelementptr %p[%ti] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %sum, %o : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: a trip count that differs between threads; a call; an
// atomic; a short constant trip count (LLVM unrolls it).
// CHECK-LABEL: func.func @not_interchanged(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @opaque(f32) -> f32
func.func @not_interchanged(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %a = scf.for %j = %c0 to %t step %c1 iter_args(%acc = %zero) -> (f32) {
        %s = llvm.fadd %acc, %acc : f32
        scf.yield %s : f32
      }
      %b2 = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %a) -> (f32) {
        %s = llvm.call @opaque(%acc) : (f32) -> f32
        scf.yield %s : f32
      }
      scf.for %j = %c0 to %k step %c1 {
        %old = llvm.atomicrmw add %p, %one monotonic : !llvm.ptr, i32
      }
      %c = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %b2) -> (f32) {
        %s = llvm.fadd %acc, %acc : f32
        scf.yield %s : f32
      }
      llvm.store %c, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Nested uniform loops: only the innermost gets the barrier (interchanging
// it carries the outer one along). A loop under a branch on the thread id
// qualifies too: predication guards its body per thread.
// CHECK-LABEL: func.func @nested_and_guarded(
// CHECK: scf.for
// CHECK-NEXT: arith.index_cast
// CHECK: scf.for
// CHECK-NEXT: respec.barrier(%{{.*}}) {respec.interchange}
// CHECK: scf.if
// CHECK: scf.for
// CHECK-NEXT: respec.barrier(%{{.*}}) {respec.interchange}
func.func @nested_and_guarded(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %sum = scf.for %i = %c0 to %k step %c1 iter_args(%outer = %zero) -> (f32) {
        %ii = arith.index_cast %i : index to i64
        %row = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %outer) -> (f32) {
          %q = llvm.getelementptr %p[%ii] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          %s = llvm.fadd %acc, %v : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      %low = arith.cmpi ult, %t, %k : index
      scf.if %low {
        %r = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %sum) -> (f32) {
          %s = llvm.fmul %acc, %acc : f32
          scf.yield %s : f32
        }
        llvm.store %r, %p : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
