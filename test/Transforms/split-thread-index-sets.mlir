// RUN: %respec-opt --respec-split-thread-index-sets -split-input-file %s | FileCheck %s
// RUN: %respec-opt --respec-split-thread-index-sets=max-pieces=1 %s -split-input-file | FileCheck %s --check-prefix=BUDGET

// `if (tx == 0)` in a block of 16 threads: thread 0 runs the branch, threads
// 1..15 run without it.
// CHECK-LABEL: func.func @halo(
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]])
// CHECK: llvm.store
// CHECK: llvm.store
// CHECK-NOT: scf.if
// CHECK: } {respec.parallel_level = "block"}
// CHECK: %[[LO:.*]] = arith.constant 1 : index
// CHECK: %[[HI:.*]] = arith.constant 16 : index
// CHECK: scf.parallel (%{{.*}}) = (%[[LO]]) to (%[[HI]])
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// BUDGET-LABEL: func.func @halo(
// BUDGET: scf.parallel
// BUDGET: scf.parallel
// BUDGET: scf.if
// BUDGET-NOT: scf.parallel
// BUDGET: return
func.func @halo(%p: !llvm.ptr, %s: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %v = llvm.mlir.constant(1.0 : f32) : f32
      %i = arith.index_cast %t : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %q : f32, !llvm.ptr
      %first = llvm.icmp "eq" %ti, %zero : i32
      scf.if %first {
        llvm.store %v, %s : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A step of a tree reduction, `if (tid < s)` with s the same for all threads:
// one loop over threads [0, min(s, 256)); the other threads do nothing, so
// their loop is dropped.
// CHECK-LABEL: func.func @reduction_step(
// CHECK: scf.for
// CHECK: %[[S:.*]] = arith.extui %{{.*}} : i32 to i128
// CHECK: %[[F:.*]] = llvm.freeze
// CHECK: %[[MIN:.*]] = arith.minsi %[[F]], %{{.*}} : i128
// CHECK: %[[MAX:.*]] = arith.maxsi %[[MIN]], %{{.*}} : i128
// CHECK: %[[END:.*]] = arith.index_cast %[[MAX]] : i128 to index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[END]])
// CHECK-NOT: scf.if
// CHECK: llvm.fadd
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: respec.parallel_level = "block"
// CHECK: } {respec.parallel_level = "grid"}
func.func @reduction_step(%p: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    scf.for %k = %c0 to %c256 step %c1 {
      %s = arith.index_castui %k : index to i32
      scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
        %ti = arith.index_castui %t : index to i32
        %active = llvm.icmp "ult" %ti, %s : i32
        scf.if %active {
          %i = arith.index_cast %t : index to i64
          %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          %w = llvm.fadd %v, %v : f32
          llvm.store %w, %q : f32, !llvm.ptr
        }
        scf.reduce
      } {respec.parallel_level = "block"}
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A bounds check on the global index, `blockIdx.x * blockDim.x + tid < n`
// (signed, added without wrap-around): the threads [0, n - base) store.
// CHECK-LABEL: func.func @bounds_check(
// CHECK: %[[N:.*]] = arith.extsi %arg1 : i32 to i128
// CHECK: %[[BASE:.*]] = arith.extsi %{{.*}} : i32 to i128
// CHECK: arith.subi %{{.*}}, %[[BASE]] : i128
// CHECK: scf.parallel
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: respec.parallel_level = "block"
func.func @bounds_check(%p: !llvm.ptr, %n: i32, %bd: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    %bi = arith.index_castui %b : index to i32
    %bdi = arith.index_castui %bd : index to i32
    %base = llvm.mul %bi, %bdi : i32
    scf.parallel (%t) = (%c0) to (%bd) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %g = llvm.add %base, %ti overflow<nsw> : i32
      %inside = llvm.icmp "slt" %g, %n : i32
      scf.if %inside {
        %i = llvm.sext %g : i32 to i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.mlir.constant(1.0 : f32) : f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: the addition may wrap around (no nsw), so the threads
// passing the test need not form a range.
// CHECK-LABEL: func.func @wrapping_add(
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.if
func.func @wrapping_add(%p: !llvm.ptr, %n: i32, %bd: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    %bi = arith.index_castui %b : index to i32
    scf.parallel (%t) = (%c0) to (%bd) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %g = llvm.add %bi, %ti : i32
      %inside = llvm.icmp "slt" %g, %n : i32
      scf.if %inside {
        %v = llvm.mlir.constant(1.0 : f32) : f32
        llvm.store %v, %p : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A switch on the thread index: thread 0, threads 1..14 and thread 15 each
// get a loop with their case's value.
// CHECK-LABEL: func.func @switch(
// CHECK-NOT: scf.index_switch
// CHECK: llvm.mlir.constant(1.000000e+00 : f32)
// CHECK: llvm.mlir.constant(3.000000e+00 : f32)
// CHECK: llvm.mlir.constant(2.000000e+00 : f32)
func.func @switch(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %sw = arith.index_cast %ti : i32 to index
      %r = scf.index_switch %sw -> f32
      case 0 {
        %a = llvm.mlir.constant(1.0 : f32) : f32
        scf.yield %a : f32
      }
      case 15 {
        %a = llvm.mlir.constant(2.0 : f32) : f32
        scf.yield %a : f32
      }
      default {
        %a = llvm.mlir.constant(3.0 : f32) : f32
        scf.yield %a : f32
      }
      %i = arith.index_cast %t : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %r, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: a thread loop with a barrier left (this pass runs after
// barrier lowering; a barrier orders the threads).
// CHECK-LABEL: func.func @barrier_left(
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.if
// CHECK: respec.barrier
func.func @barrier_left(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %v = llvm.mlir.constant(1.0 : f32) : f32
      %first = llvm.icmp "eq" %ti, %zero : i32
      scf.if %first {
        llvm.store %v, %p : f32, !llvm.ptr
      }
      respec.barrier(%t)
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// `col < n - 1 ? C[k + 1] : C[k]`, which clang turns into a select of the
// offset: a select's condition splits the loop like a branch's, so that
// the first 15 threads load at a constant offset (a vector load for LLVM,
// not a gather) and thread 15 at the other.
// CHECK-LABEL: func.func @select_offset(
// CHECK: %[[C15:.*]] = arith.constant 15 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C15]])
// CHECK-NOT: llvm.select
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NOT: llvm.select
// CHECK: llvm.getelementptr %{{.*}}[%[[FOUR]]]
// CHECK: } {respec.parallel_level = "block"}
// CHECK: scf.parallel
// CHECK-NOT: llvm.select
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NOT: llvm.select
// CHECK: llvm.getelementptr %{{.*}}[%[[ZERO]]]
// CHECK: } {respec.parallel_level = "block"}
func.func @select_offset(%p: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %last = llvm.mlir.constant(15 : i32) : i32
      %four = llvm.mlir.constant(4 : i64) : i64
      %zero = llvm.mlir.constant(0 : i64) : i64
      %i = arith.index_cast %t : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %inside = llvm.icmp "slt" %ti, %last : i32
      %off = llvm.select %inside, %four, %zero : i1, i64
      %e = llvm.getelementptr %q[%off] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %v = llvm.load %e : !llvm.ptr -> f32
      %o = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %o : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A pyramid step, `if (tx > r && tx < 15 - r)`, as LLVM's instcombine leaves
// it: `r < smin(tx, 15 - tx)`. The comparison with a min is the conjunction
// `r < tx && r < 15 - tx`, and `r < 15 - tx` (a negated thread index) is
// `tx < 15 - r`: with r = 3, threads 4..11 store without a test, the others
// do nothing (their loops are dropped).
// CHECK-LABEL: func.func @pyramid_step(
// CHECK: %[[HI:.*]] = arith.constant 12 : index
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%c4{{.*}}) to (%[[HI]])
// CHECK-NOT: llvm.icmp
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: llvm.store
// CHECK: return
func.func @pyramid_step(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %c15 = llvm.mlir.constant(15 : i32) : i32
      %r = llvm.mlir.constant(3 : i64) : i64
      %mirror = llvm.sub %c15, %ti overflow<nsw> : i32
      %mirror64 = llvm.sext %mirror : i32 to i64
      %t64 = llvm.zext nneg %ti : i32 to i64
      %nearest = llvm.intr.smin(%t64, %mirror64) : (i64, i64) -> i64
      %inside = llvm.icmp "slt" %r, %nearest : i64
      scf.if %inside {
        %v = llvm.mlir.constant(1.0 : f32) : f32
        %q = llvm.getelementptr %p[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: `r < smin(tx, 15 - tx)` read unsigned would be a different
// comparison; an unsigned test against a signed min is not split.
// CHECK-LABEL: func.func @mixed_signedness_min(
// CHECK: llvm.intr.smin
// CHECK: llvm.icmp "ult"
// CHECK: scf.if
func.func @mixed_signedness_min(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %c15 = llvm.mlir.constant(15 : i32) : i32
      %r = llvm.mlir.constant(3 : i64) : i64
      %mirror = llvm.sub %c15, %ti overflow<nsw> : i32
      %mirror64 = llvm.sext %mirror : i32 to i64
      %t64 = llvm.zext nneg %ti : i32 to i64
      %nearest = llvm.intr.smin(%t64, %mirror64) : (i64, i64) -> i64
      %inside = llvm.icmp "ult" %r, %nearest : i64
      scf.if %inside {
        %v = llvm.mlir.constant(1.0 : f32) : f32
        llvm.store %v, %p : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A wavefront's `if (j >= 0 && j < 16)` with `j = k - tx` reaches respec as
// the unsigned range check `(k - tx) ult 16`, whose subtraction wraps as an
// unsigned one: it splits as `k - tx >= 0 && k - tx < 16`. With k = 20,
// threads 5..15 run the store, with no test left.
// CHECK-LABEL: func.func @unsigned_range_check(
// CHECK: scf.parallel (%{{.*}}) = (%c5{{.*}}) to (%c16{{.*}})
// CHECK-NOT: llvm.icmp
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: llvm.store
// CHECK: return
func.func @unsigned_range_check(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %t64 = llvm.zext nneg %ti : i32 to i64
      %k = llvm.mlir.constant(20 : i64) : i64
      %width = llvm.mlir.constant(16 : i64) : i64
      %j = llvm.sub %k, %t64 overflow<nsw> : i64
      %inside = llvm.icmp "ult" %j, %width : i64
      scf.if %inside {
        %v = llvm.mlir.constant(1.0 : f32) : f32
        %q = llvm.getelementptr %p[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// The same check written `16 ugt (k - tx)` and its complement `(k - tx) ugt
// 15` (outside the wavefront), with k a block-level value: each splits the
// loop at run-time bounds, and no piece keeps a test.
// CHECK-LABEL: func.func @unsigned_range_check_outside(
// CHECK-NOT: scf.if
// CHECK: return
func.func @unsigned_range_check_outside(%p: !llvm.ptr, %k: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %t64 = llvm.zext nneg %ti : i32 to i64
      %width = llvm.mlir.constant(16 : i64) : i64
      %last = llvm.mlir.constant(15 : i64) : i64
      %j = llvm.sub %k, %t64 overflow<nsw> : i64
      %inside = llvm.icmp "ugt" %width, %j : i64
      %outside = llvm.icmp "ugt" %j, %last : i64
      %q = llvm.getelementptr %p[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      scf.if %inside {
        %v = llvm.mlir.constant(1.0 : f32) : f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
      scf.if %outside {
        %v = llvm.mlir.constant(2.0 : f32) : f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: against a negative bound (a huge unsigned number) the
// unsigned test is no signed range.
// CHECK-LABEL: func.func @unsigned_check_negative_bound(
// CHECK: llvm.icmp "ult"
// CHECK: scf.if
func.func @unsigned_check_negative_bound(%p: !llvm.ptr, %k: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %t64 = llvm.zext nneg %ti : i32 to i64
      %bound = llvm.mlir.constant(-4 : i64) : i64
      %j = llvm.sub %k, %t64 overflow<nsw> : i64
      %inside = llvm.icmp "ult" %j, %bound : i64
      scf.if %inside {
        %v = llvm.mlir.constant(1.0 : f32) : f32
        llvm.store %v, %p : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
