// RUN: %respec-opt --respec-interchange-serial-loops -split-input-file %s | FileCheck %s

// A loop with a uniform trip count (a kernel argument) and a vectorizable
// body, in a block of 256 threads (a constant: a launch copy for a constant
// block size), gets a marked barrier at the start of its body.
// CHECK-LABEL: func.func @uniform_trip_count(
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: scf.for
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.interchange}
// CHECK: llvm.fadd
func.func @uniform_trip_count(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
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
// atomic; a short constant trip count (LLVM unrolls it); a strided access
// (a gather across threads).
// CHECK-LABEL: func.func @not_interchanged(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @opaque(f32) -> f32
func.func @not_interchanged(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c4 = arith.constant 4 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
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
      %row = arith.muli %t, %k : index
      %d = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %c) -> (f32) {
        %e = arith.addi %row, %j : index
        %i = arith.index_cast %e : index to i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        %s = llvm.fadd %acc, %v : f32
        scf.yield %s : f32
      }
      llvm.store %d, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Nested uniform loops: only the innermost gets the barrier (interchanging
// it carries the outer one along). A loop under a branch on the thread id
// qualifies too when it reads memory contiguous along the threads (its
// address computed in the loop): predication guards its body per thread.
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
  %c256 = arith.constant 256 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
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
          %tt = arith.index_cast %t : index to i64
          %q = llvm.getelementptr %p[%tt] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          %s = llvm.fmul %acc, %v : f32
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

// -----

// Left alone under a branch on the thread id: a loop that reads only
// addresses all threads share (`if (threadIdx.x == 0)` walking a column:
// the interchanged loop would run all 256 threads, the original one), and
// a loop whose address was computed in the branch before it (`a + j`,
// which predication turns into a result of the branch kept per thread in
// memory, so its accesses would be gathers).
// CHECK-LABEL: func.func @guarded_left_alone(
// CHECK-NOT: respec.barrier
// CHECK: return
func.func @guarded_left_alone(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
          %ii = arith.index_cast %i : index to i64
          %q = llvm.getelementptr %p[%ii] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          %s = llvm.fadd %acc, %v : f32
          scf.yield %s : f32
        }
        llvm.store %r, %p : f32, !llvm.ptr
      }
      %low = arith.cmpi ult, %t, %n : index
      scf.if %low {
        %tt = arith.index_cast %t : index to i64
        %column = llvm.getelementptr %p[%tt] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
          %ii = arith.index_cast %i : index to i64
          %row = llvm.mul %ii, %ii : i64
          %q = llvm.getelementptr %column[%row] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          %s = llvm.fadd %acc, %v : f32
          scf.yield %s : f32
        }
        llvm.store %r, %column : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: blockDim.x not a known constant (the generic launch body), or
// a loop with more than 8 per-thread values to keep.
// CHECK-LABEL: func.func @unknown_block_or_much_state(
// CHECK-NOT: respec.barrier
// CHECK: return
func.func @unknown_block_or_much_state(%n: index, %k: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %sum = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %s = llvm.fadd %acc, %acc : f32
        scf.yield %s : f32
      }
      llvm.store %sum, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %ti = arith.index_cast %t : index to i64
      %x = llvm.getelementptr %p[%ti] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %x : !llvm.ptr -> f32
      %v1 = llvm.fmul %v, %v : f32
      %v2 = llvm.fmul %v1, %v : f32
      %v3 = llvm.fmul %v2, %v : f32
      %v4 = llvm.fmul %v3, %v : f32
      %v5 = llvm.fmul %v4, %v : f32
      %v6 = llvm.fmul %v5, %v : f32
      %v7 = llvm.fmul %v6, %v : f32
      %v8 = llvm.fmul %v7, %v : f32
      %sum = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %s1 = llvm.fadd %acc, %v1 : f32
        %s2 = llvm.fadd %s1, %v2 : f32
        %s3 = llvm.fadd %s2, %v3 : f32
        %s4 = llvm.fadd %s3, %v4 : f32
        %s5 = llvm.fadd %s4, %v5 : f32
        %s6 = llvm.fadd %s5, %v6 : f32
        %s7 = llvm.fadd %s6, %v7 : f32
        %s8 = llvm.fadd %s7, %v8 : f32
        scf.yield %s8 : f32
      }
      llvm.store %sum, %x : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// A histogram's rounds: each thread counts pixels 256 apart into the
// block's bins in shared memory (localized atomics). The bins' addresses
// depend on data, but the pixels are contiguous across threads (the index
// is `base | t`, a disjoint or): the loop is interchanged, so that each
// round reads 256 consecutive pixels.
// CHECK-LABEL: func.func @shared_scatter(
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: scf.for
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.interchange}
// A scatter into shared memory with nothing read in order stays.
// CHECK-LABEL: func.func @scatter_only(
// CHECK-NOT: respec.barrier
func.func @shared_scatter(%p: !llvm.ptr, %base: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    %bins = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %ti = arith.index_cast %t : index to i64
      %mine = llvm.or disjoint %base, %ti : i64
      %one = llvm.mlir.constant(1 : i32) : i32
      %c8 = llvm.mlir.constant(8 : i64) : i64
      scf.for %r = %c0 to %c64 step %c1 {
        %ri = arith.index_cast %r : index to i64
        %off = llvm.shl %ri, %c8 : i64
        %i = llvm.add %mine, %off : i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
        %v = llvm.load %q : !llvm.ptr -> i8
        %bin = llvm.zext %v : i8 to i64
        %slot = llvm.getelementptr %bins[%bin] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %old = llvm.load %slot {respec.block_serial} : !llvm.ptr -> i32
        %new = llvm.add %old, %one : i32
        llvm.store %new, %slot {respec.block_serial} : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

func.func @scatter_only(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    %bins = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %ti = arith.index_cast %t : index to i64
      %one = llvm.mlir.constant(1 : i32) : i32
      %c6 = llvm.mlir.constant(6 : i64) : i64
      scf.for %r = %c0 to %c64 step %c1 {
        %ri = arith.index_cast %r : index to i64
        %row = llvm.shl %ti, %c6 : i64
        %i = llvm.add %row, %ri : i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
        %v = llvm.load %q : !llvm.ptr -> i8
        %bin = llvm.zext %v : i8 to i64
        %slot = llvm.getelementptr %bins[%bin] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %old = llvm.load %slot {respec.block_serial} : !llvm.ptr -> i32
        %new = llvm.add %old, %one : i32
        llvm.store %new, %slot {respec.block_serial} : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
