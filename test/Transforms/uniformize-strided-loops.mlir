// RUN: %respec-opt --respec-uniformize-strided-loops -split-input-file %s | FileCheck %s

// `for (i = tid; i < n; i += 256) acc += p[i]` as lifted: a rotated loop
// under the guard `tid < n`. It runs around a counter from 0 that all
// threads share, each thread's iteration guarded by `j + tid < n`, and
// leaves the guard (threads that fail it run no iteration of it).
// CHECK-LABEL: func.func @block_strided_sum(
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[T32:.*]] = arith.index_castui %[[T]] : index to i32
// CHECK: %[[G:.*]] = llvm.icmp "slt" %[[T32]], %[[N32:.*]] : i32
// CHECK: %[[D:.*]] = llvm.zext nneg %[[T32]] : i32 to i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[R:.*]]:2 = scf.while (%[[ACC:.*]] = %{{.*}}, %[[J:.*]] = %[[ZERO]]) : (f32, i64) -> (f32, i64) {
// CHECK: %[[I:.*]] = arith.addi %[[J]], %[[D]] overflow<nsw> : i64
// CHECK: %[[ACTIVE:.*]] = arith.cmpi slt, %[[I]], %[[N:.*]] : i64
// CHECK: %[[SUM:.*]] = scf.if %[[ACTIVE]] -> (f32) {
// CHECK: llvm.getelementptr %{{.*}}[%[[I]]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ACC]] : f32
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %{{.*}} overflow<nsw> : i64
// CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : i64
// CHECK: scf.condition(%[[MORE]]) %[[SUM]], %[[NEXT]] : f32, i64
// CHECK: %[[OUT:.*]] = scf.if %[[G]] -> (f32) {
// CHECK-NEXT: scf.yield %[[R]]#0 : f32
func.func @block_strided_sum(%p: !llvm.ptr, %n32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %step = llvm.mlir.constant(256 : i64) : i64
  %n = llvm.sext %n32 : i32 to i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %t32 = arith.index_castui %t : index to i32
      %g = llvm.icmp "slt" %t32, %n32 : i32
      %start = llvm.zext nneg %t32 : i32 to i64
      %sum = scf.if %g -> (f32) {
        %r:2 = scf.while (%i = %start, %acc = %zero) : (i64, f32) -> (i64, f32) {
          %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          %s = llvm.fadd %acc, %v : f32
          %next = llvm.add %i, %step overflow<nsw, nuw> : i64
          %lt = llvm.icmp "slt" %next, %n : i64
          scf.condition(%lt) %next, %s : i64, f32
        } do {
        ^bb0(%i: i64, %acc: f32):
          scf.yield %i, %acc : i64, f32
        }
        scf.yield %r#1 : f32
      } else {
        scf.yield %zero : f32
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

// A grid-stride loop (start `base + tid`, step blockDim.x * gridDim.x, the
// bounds of the thread and grid loops) with no guard in front: its first
// iteration belongs to every thread, later ones to those with `j + tid <
// n` (unsigned, on values known non-negative: compared as signed). The
// thread's final counter is used after the loop and stays carried.
// CHECK-LABEL: func.func @grid_stride_unguarded(
// CHECK: scf.parallel
// CHECK: %[[BASE:.*]] = llvm.mul
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[D:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: %[[R:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %[[J:.*]] = %[[BASE]]) : (i64, i64) -> (i64, i64) {
// CHECK: %[[I:.*]] = arith.addi %[[J]], %[[D]] overflow<nsw> : i64
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : i64
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[J]], %[[BASE]] : i64
// CHECK: %[[ACTIVE:.*]] = arith.ori %[[FIRST]], %[[IN]] : i1
// CHECK: scf.if %[[ACTIVE]] -> (i64) {
// CHECK: arith.cmpi slt
// CHECK: scf.condition
// CHECK: llvm.store %[[R]]#0
func.func @grid_stride_unguarded(%p: !llvm.ptr, %n: i64, %bx32: i32, %gx32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = llvm.mlir.constant(1.0 : f32) : f32
  %bx = arith.index_castui %bx32 : i32 to index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx64 = llvm.zext %bx32 : i32 to i64
  %gx64 = llvm.zext %gx32 : i32 to i64
  %stride = llvm.mul %bx64, %gx64 : i64
  %n32 = llvm.trunc %n : i64 to i32
  %bound = llvm.zext %n32 : i32 to i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %b64 = arith.index_castui %b : index to i64
    %base = llvm.mul %b64, %bx64 overflow<nsw> : i64
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %t64 = arith.index_cast %t : index to i64
      %start = llvm.add %base, %t64 : i64
      %r = scf.while (%i = %start) : (i64) -> i64 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %stride : i64
        %lt = llvm.icmp "ult" %next, %bound : i64
        scf.condition(%lt) %next : i64
      } do {
      ^bb0(%i: i64):
        scf.yield %i : i64
      }
      %o = llvm.getelementptr %p[%r] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      llvm.store %r, %o : i64, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// The guard in front of the loop is the else side of `start > n`, with the
// start recomputed there and compared as i32 (signed) while the loop
// compares zero-extended i64 values (unsigned): the same test on
// non-negative values, so the first iteration needs no test of its own.
// The loop's bound is computed inside the guard (possibly poison for
// threads that fail it), so the loop stays there.
// CHECK-LABEL: func.func @else_side_guard(
// CHECK: scf.if
// CHECK: } else {
// CHECK: scf.while
// CHECK-NOT: arith.cmpi eq
// CHECK: arith.cmpi ule
// CHECK: scf.condition
func.func @else_side_guard(%p: !llvm.ptr, %n32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = llvm.mlir.constant(0 : i32) : i32
  %three = llvm.mlir.constant(3 : i32) : i32
  %step = llvm.mlir.constant(128 : i64) : i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c128) step (%c1) {
      %t32 = arith.index_castui %t : index to i32
      %first = llvm.add %t32, %three overflow<nsw, nuw> : i32
      %none = llvm.icmp "sgt" %first, %n32 : i32
      %sum = scf.if %none -> (i32) {
        scf.yield %zero : i32
      } else {
        %again = llvm.add %t32, %three overflow<nsw, nuw> : i32
        %start = llvm.zext nneg %again : i32 to i64
        %bound = llvm.zext nneg %n32 : i32 to i64
        %r:2 = scf.while (%i = %start, %acc = %zero) : (i64, i32) -> (i64, i32) {
          %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
          %v = llvm.load %q : !llvm.ptr -> i32
          %s = llvm.add %acc, %v : i32
          %next = llvm.add %i, %step overflow<nsw, nuw> : i64
          %go = arith.cmpi ule, %next, %bound : i64
          scf.condition(%go) %next, %s : i64, i32
        } do {
        ^bb0(%i: i64, %acc: i32):
          scf.yield %i, %acc : i64, i32
        }
        scf.yield %r#1 : i32
      }
      %ti = arith.index_cast %t : index to i64
      %o = llvm.getelementptr %p[%ti] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %sum, %o : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A 64-bit bound of unknown magnitude (a `size_t` kernel argument): the new
// loop runs where the bound is below 2^60, so that its sums cannot wrap,
// and a copy of the whole guard with the old loop elsewhere (the old
// loop's first iteration is unconditional). The new loop leaves the guard.
// CHECK-LABEL: func.func @unknown_bound_magnitude(
// CHECK: %[[G:.*]] = llvm.icmp "ult"
// CHECK: %[[LIMIT:.*]] = arith.constant 1152921504606846976 : i64
// CHECK: %[[SMALL:.*]] = arith.cmpi ult, %[[N:.*]], %[[LIMIT]] : i64
// CHECK: scf.if %[[SMALL]] {
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (i64) -> i64 {
// CHECK: arith.cmpi slt, %{{.*}}, %[[N]] : i64
// CHECK: scf.condition
// CHECK: scf.if %[[G]] {
// CHECK: } else {
// CHECK-NEXT: scf.if %[[G]] {
// CHECK-NEXT: scf.while (%{{.*}} = %{{.*}}) : (i64) -> i64 {
// CHECK-NOT: arith.cmpi
// CHECK: llvm.icmp "ult"
func.func @unknown_bound_magnitude(%p: !llvm.ptr, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %one = llvm.mlir.constant(1.0 : f32) : f32
  %step = llvm.mlir.constant(256 : i64) : i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %t32 = arith.index_castui %t : index to i32
      %start = llvm.zext nneg %t32 : i32 to i64
      %g = llvm.icmp "ult" %start, %n : i64
      scf.if %g {
        %r = scf.while (%i = %start) : (i64) -> i64 {
          %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %one, %q : f32, !llvm.ptr
          %next = llvm.add %i, %step : i64
          %lt = llvm.icmp "ult" %next, %n : i64
          scf.condition(%lt) %next : i64
        } do {
        ^bb0(%i: i64):
          scf.yield %i : i64
        }
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A 32-bit counter (`for (int i = tid; i < n; i += 8)` with 8 threads)
// counts in 64 bits:
// the new loop runs where a test at run time shows that the old loop's
// arithmetic never wraps (a positive step; bound plus step and the largest
// start plus step within the 32-bit range), and gets its counter back as
// the 32-bit value; a copy of the old loop runs elsewhere.
// CHECK-LABEL: func.func @narrow_counter(
// CHECK: %[[STEP:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[BOUND:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.addi %[[BOUND]], %[[STEP]] : i64
// CHECK: arith.constant 2048 : i64
// CHECK: %[[POSITIVE:.*]] = arith.cmpi sgt, %[[STEP]]
// CHECK: arith.cmpi sle, %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpi sle, %{{.*}}, %{{.*}} : i64
// CHECK: %[[EXACT:.*]] = arith.andi %[[POSITIVE]]
// CHECK: scf.if %[[EXACT]] -> (i32) {
// CHECK: scf.while (%[[J:.*]] = %{{.*}}) : (i64) -> i64 {
// CHECK: %[[I:.*]] = arith.addi %[[J]], %{{.*}} overflow<nsw> : i64
// CHECK: scf.if
// CHECK-NEXT: arith.trunci %[[I]] overflow<nsw> : i64 to i32
// CHECK: } else {
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (i32) -> i32 {
func.func @narrow_counter(%p: !llvm.ptr, %n32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c8i = llvm.mlir.constant(8 : i32) : i32
  %one = llvm.mlir.constant(1.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c8) step (%c1) {
      %t32 = arith.index_castui %t : index to i32
      %r = scf.while (%i = %t32) : (i32) -> i32 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %c8i : i32
        %lt = llvm.icmp "slt" %next, %n32 : i32
        scf.condition(%lt) %next : i32
      } do {
      ^bb0(%i: i32):
        scf.yield %i : i32
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: a step of unknown sign (a kernel argument); a bound that
// differs between threads (loaded); a start that may be negative; an unsigned exit test with a shared start of unknown sign
// (unsigned order is not monotone across a negative start); a loop whose
// threads already agree on everything.
// CHECK-LABEL: func.func @not_uniformized(
// CHECK-NOT: arith.cmpi
// CHECK: return
func.func @not_uniformized(%p: !llvm.ptr, %n: i64, %s: i64, %n32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c8i = llvm.mlir.constant(8 : i32) : i32
  %c0i = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %t32 = arith.index_castui %t : index to i32
      %start = llvm.zext %t32 : i32 to i64
      %r0 = scf.while (%i = %start) : (i64) -> i64 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %s : i64
        %lt = llvm.icmp "slt" %next, %n : i64
        scf.condition(%lt) %next : i64
      } do {
      ^bb0(%i: i64):
        scf.yield %i : i64
      }
      %mine = llvm.load %p : !llvm.ptr -> i64
      %r1 = scf.while (%i = %start) : (i64) -> i64 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %c8 : i64
        %lt = llvm.icmp "slt" %next, %mine : i64
        scf.condition(%lt) %next : i64
      } do {
      ^bb0(%i: i64):
        scf.yield %i : i64
      }
      %shifted = llvm.sub %start, %c8 : i64
      %r3 = scf.while (%i = %shifted) : (i64) -> i64 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %c8 : i64
        %lt = llvm.icmp "slt" %next, %n : i64
        scf.condition(%lt) %next : i64
      } do {
      ^bb0(%i: i64):
        scf.yield %i : i64
      }
      %from = llvm.add %s, %start : i64
      %r5 = scf.while (%i = %from) : (i64) -> i64 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %c8 : i64
        %lt = llvm.icmp "ult" %next, %n : i64
        scf.condition(%lt) %next : i64
      } do {
      ^bb0(%i: i64):
        scf.yield %i : i64
      }
      %r4 = scf.while (%i = %c0i) : (i64) -> i64 {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %one, %q : f32, !llvm.ptr
        %next = llvm.add %i, %c8 : i64
        %lt = llvm.icmp "slt" %next, %n : i64
        scf.condition(%lt) %next : i64
      } do {
      ^bb0(%i: i64):
        scf.yield %i : i64
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Left alone: a triangular loop (`for (j = tid + 1; j < n; ++j)`, a
// correlation matrix's row): the 256 threads' trip counts differ by up to
// 255 rounds, which a shared counter would run with most threads guarded
// off; the thread vectorizer's masked loop runs it instead. The same loop
// with a step of 128 (trip counts at most two rounds apart) is rewritten.
// CHECK-LABEL: func.func @triangular(
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i64, f32) -> (i64, f32) {
// CHECK: llvm.add %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (f32, i64) -> (f32, i64) {
// CHECK: arith.cmpi slt
func.func @triangular(%p: !llvm.ptr, %n32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %one = llvm.mlir.constant(1 : i64) : i64
  %half = llvm.mlir.constant(128 : i64) : i64
  %n = llvm.sext %n32 : i32 to i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %t32 = arith.index_castui %t : index to i32
      %t64 = llvm.zext nneg %t32 : i32 to i64
      %start = llvm.add %t64, %one overflow<nsw, nuw> : i64
      %r:2 = scf.while (%j = %start, %acc = %zero) : (i64, f32) -> (i64, f32) {
        %q = llvm.getelementptr %p[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        %s = llvm.fadd %acc, %v : f32
        %next = llvm.add %j, %one overflow<nsw, nuw> : i64
        %lt = llvm.icmp "slt" %next, %n : i64
        scf.condition(%lt) %next, %s : i64, f32
      } do {
      ^bb0(%j: i64, %acc: f32):
        scf.yield %j, %acc : i64, f32
      }
      %r2:2 = scf.while (%j = %start, %acc = %r#1) : (i64, f32) -> (i64, f32) {
        %q = llvm.getelementptr %p[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        %s = llvm.fadd %acc, %v : f32
        %next = llvm.add %j, %half overflow<nsw, nuw> : i64
        %lt = llvm.icmp "slt" %next, %n : i64
        scf.condition(%lt) %next, %s : i64, f32
      } do {
      ^bb0(%j: i64, %acc: f32):
        scf.yield %j, %acc : i64, f32
      }
      %ti = arith.index_cast %t : index to i64
      %o = llvm.getelementptr %p[%ti] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %r2#1, %o : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
