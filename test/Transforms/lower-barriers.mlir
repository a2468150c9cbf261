// RUN: respec-opt --respec-lower-barriers %s | FileCheck %s
// RUN: respec-opt --respec-lower-barriers=min-cut=false %s | FileCheck %s --check-prefix=NOMC
// RUN: respec-opt --respec-lower-barriers=mark-barriers %s | FileCheck %s --check-prefix=MARK

// Fission with a minimum cut: %v (4 bytes) is kept across the barrier and
// its zext, not the 8-byte zext; of the i64 chain a -> s -> s2 only %a is
// kept and s, s2 are recomputed after the barrier. Without the cut every
// value used after the barrier is kept.
// CHECK-LABEL: func.func @mincut(
// CHECK: llvm.call @__respec_block_scratch_reset()
// CHECK: %[[V_SLOTS:.*]] = llvm.call @__respec_block_scratch({{.*}}) {respec.barrier_spill, respec.thread_private}
// CHECK: %[[A_SLOTS:.*]] = llvm.call @__respec_block_scratch({{.*}}) {respec.barrier_spill, respec.thread_private}
// CHECK-NOT: @__respec_block_scratch(
// CHECK: scf.parallel
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[VADDR:.*]] = llvm.getelementptr %[[V_SLOTS]][
// CHECK: llvm.store %[[V]], %[[VADDR]] : i32, !llvm.ptr
// CHECK: %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: llvm.store %[[A]], %{{.*}} : i64, !llvm.ptr
// CHECK: } {respec.parallel_level = "block"}
// CHECK: scf.parallel
// CHECK: %[[V2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[A2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[X:.*]] = llvm.zext %[[V2]] : i32 to i64
// CHECK: %[[S:.*]] = llvm.add %[[A2]], %[[A2]] : i64
// CHECK: %[[S2:.*]] = llvm.mul %[[S]], %[[S]] : i64
// CHECK: llvm.store %[[X]]
// CHECK: llvm.store %[[S]]
// CHECK: llvm.store %[[S2]]
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: respec.barrier
// NOMC-LABEL: func.func @mincut(
// NOMC-COUNT-4: llvm.call @__respec_block_scratch({{.*}}) {respec.barrier_spill, respec.thread_private}
// NOMC: } {respec.parallel_level = "block"}
// NOMC-NOT: llvm.zext
// NOMC-NOT: llvm.add
// NOMC-NOT: llvm.mul
// NOMC: } {respec.parallel_level = "grid"}
func.func @mincut(%n: index, %p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %g : !llvm.ptr -> i32
      %x = llvm.zext %v : i32 to i64
      %h = llvm.getelementptr %q[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      %a = llvm.load %h : !llvm.ptr -> i64
      %s = llvm.add %a, %a : i64
      %s2 = llvm.mul %s, %s : i64
      respec.barrier(%t)
      llvm.store %x, %h : i64, !llvm.ptr
      llvm.store %s, %h : i64, !llvm.ptr
      llvm.store %s2, %h : i64, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// Interchange with scf.if: the (uniform) condition is evaluated once for
// the block; each branch holds its own thread loops, split at the barrier.
// The address computation left in front of the if only fed the branch: that
// loop has no effect and is erased.
// CHECK-LABEL: func.func @interchange_if(
// CHECK-SAME: %[[C:[^:]*]]: i1)
// CHECK-NOT: scf.parallel (%{{.*}}) = (%{{.*}}) to (%arg0)
// CHECK: scf.if %[[C]] {
// CHECK-NEXT: scf.parallel
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NEXT: scf.parallel
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NEXT: }
// CHECK-NOT: respec.barrier
func.func @interchange_if(%n: index, %p: !llvm.ptr, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      scf.if %c {
        %v = llvm.load %g : !llvm.ptr -> i32
        respec.barrier(%t)
        llvm.store %v, %p : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// Interchange with scf.for: the loop runs at block level around two thread
// loops; the thread-private alloca used on both sides of the barrier becomes
// each thread's 4-byte slice of a block-scope array.
// CHECK-LABEL: func.func @interchange_for(
// CHECK-SAME: %[[K:[^:]*]]: index)
// CHECK: %[[PRIV:.*]] = llvm.call @__respec_block_scratch({{.*}}) {respec.thread_private}
// CHECK-NOT: llvm.alloca
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]]
// CHECK-NEXT: scf.parallel (%[[T1:.*]]) =
// CHECK: %[[OFF1:.*]] = arith.muli %[[T1]], %{{.*}} : index
// CHECK: %[[OFF1_64:.*]] = arith.index_castui %[[OFF1]]
// CHECK: %[[SLICE1:.*]] = llvm.getelementptr %[[PRIV]][%[[OFF1_64]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.load %[[SLICE1]] : !llvm.ptr -> i32
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NEXT: scf.parallel
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NEXT: }
func.func @interchange_for(%n: index, %p: !llvm.ptr, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %priv = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
      scf.for %j = %c0 to %k step %c1 {
        %v = llvm.load %priv : !llvm.ptr -> i32
        respec.barrier(%t)
        llvm.store %v, %priv : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// Carried values (uniform: PredicateDivergentBarriers keeps only those)
// stay SSA values of the block-level loop. A yielded value that is a pure
// function of block-level values is recomputed at block level; any other is
// recorded by every thread and thread 0's is yielded (the load marked as
// reading thread 0's entry, which any other entry could replace). The loop's results
// are used directly after it, without per-thread copies.
// CHECK-LABEL: func.func @interchange_for_carried(
// CHECK: %[[MAXES:.*]] = llvm.call @__respec_block_scratch(
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[I:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}) -> (i32, i32) {
// CHECK: scf.parallel
// CHECK: llvm.getelementptr %{{.*}}[%[[I]]]
// CHECK: } {respec.parallel_level = "block"}
// CHECK: scf.parallel
// CHECK: %[[MAX:.*]] = llvm.intr.smax(%[[M]], %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.store %[[MAX]], %{{.*}} : i32, !llvm.ptr
// CHECK: } {respec.parallel_level = "block"}
// CHECK: %[[NEXT:.*]] = llvm.add %[[I]], %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[MAXES]][%{{.*}}]
// CHECK: %[[MAX0:.*]] = llvm.load %[[FIRST]] {respec.thread_zero_entry} : !llvm.ptr -> i32
// CHECK: scf.yield %[[NEXT]], %[[MAX0]] : i32, i32
// CHECK: scf.parallel
// CHECK: llvm.store %[[R]]#0, %{{.*}} : i32, !llvm.ptr
func.func @interchange_for_carried(%n: index, %p: !llvm.ptr, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %z = llvm.mlir.constant(0 : i32) : i32
      %four = llvm.mlir.constant(4 : i32) : i32
      %r:2 = scf.for %j = %c0 to %k step %c1 iter_args(%i = %z, %m = %z)
          -> (i32, i32) {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
        %v = llvm.load %q : !llvm.ptr -> i32
        respec.barrier(%t)
        llvm.store %v, %q : i32, !llvm.ptr
        %head = llvm.load %p : !llvm.ptr -> i32
        %max = llvm.intr.smax(%m, %head) : (i32, i32) -> i32
        %next = llvm.add %i, %four : i32
        scf.yield %next, %max : i32, i32
      }
      %tid = arith.index_cast %t : index to i64
      %out = llvm.getelementptr %p[%tid] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %r#0, %out : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// Interchange with scf.while: every thread records its exit condition, and
// thread 0's decides for the block (the condition is uniform).
// CHECK-LABEL: func.func @interchange_while(
// CHECK: %[[CONDS:.*]] = llvm.call @__respec_block_scratch(
// CHECK: scf.while : () -> () {
// CHECK: scf.parallel
// CHECK: } {respec.parallel_level = "block"}
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[C:.*]] = llvm.icmp "ne"
// CHECK: %[[MINE:.*]] = llvm.getelementptr %[[CONDS]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i1
// CHECK: llvm.store %[[C]], %[[MINE]] : i1, !llvm.ptr
// CHECK: } {respec.parallel_level = "block"}
// CHECK: %[[ZERO:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[CONDS]][%[[ZERO]]]
// CHECK: %[[C0:.*]] = llvm.load %[[FIRST]] {respec.thread_zero_entry} : !llvm.ptr -> i1
// CHECK: scf.condition(%[[C0]])
// CHECK: } do {
// CHECK-NEXT: scf.yield
func.func @interchange_while(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      scf.while : () -> () {
        %v = llvm.load %p : !llvm.ptr -> i32
        respec.barrier(%t)
        %z = llvm.mlir.constant(0 : i32) : i32
        %c = llvm.icmp "ne" %v, %z : i32
        scf.condition(%c)
      } do {
        scf.yield
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// The exit test of a rotated loop (`for (r = 0; r < rows; ++r)` with a
// barrier in its body): CFG structuring selects the next counter and the
// exit flag in a pure `scf.if` on the counter. It depends only on
// block-level values, so it is recomputed once at block level, `scf.if`
// included, instead of being recorded by every thread.
// CHECK-LABEL: func.func @interchange_rotated_while(
// CHECK: scf.while (%[[R:.*]] = %{{.*}}) : (i64) -> i64 {
// CHECK: scf.parallel
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: llvm.store
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: llvm.store
// CHECK: %[[NEXT:.*]] = llvm.add %[[R]], %{{.*}} : i64
// CHECK: %[[DONE:.*]] = llvm.icmp "eq" %[[NEXT]], %{{.*}} : i64
// CHECK: %[[SEL:.*]]:2 = scf.if %[[DONE]] -> (i64, i32) {
// CHECK: %[[GO:.*]] = arith.trunci %[[SEL]]#1 : i32 to i1
// CHECK-NOT: llvm.load
// CHECK: scf.condition(%[[GO]]) %{{.*}}#0 : i64
func.func @interchange_rotated_while(%n: index, %p: !llvm.ptr, %rows: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = llvm.mlir.constant(0 : i64) : i64
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %r = scf.while (%r = %zero) : (i64) -> i64 {
        %ti = arith.index_castui %t : index to i64
        %slot = llvm.getelementptr %p[%ti] : (!llvm.ptr, i64) -> !llvm.ptr, i64
        llvm.store %r, %slot : i64, !llvm.ptr
        respec.barrier(%t)
        %poison = llvm.mlir.poison : i64
        %one = llvm.mlir.constant(1 : i64) : i64
        %c1_i32 = arith.constant 1 : i32
        %c0_i32 = arith.constant 0 : i32
        %next = llvm.add %r, %one : i64
        %done = llvm.icmp "eq" %next, %rows : i64
        %sel:2 = scf.if %done -> (i64, i32) {
          scf.yield %poison, %c0_i32 : i64, i32
        } else {
          scf.yield %next, %c1_i32 : i64, i32
        }
        %go = arith.trunci %sel#1 : i32 to i1
        scf.condition(%go) %sel#0 : i64
      } do {
      ^bb0(%r: i64):
        scf.yield %r : i64
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// Interchange with scf.index_switch: the case value is uniform; each case
// holds its own thread loops.
// CHECK-LABEL: func.func @interchange_switch(
// CHECK-SAME: %[[K:[^:]*]]: index)
// CHECK: scf.index_switch %[[K]]
// CHECK-NEXT: case 1 {
// CHECK-NEXT: scf.parallel
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NEXT: scf.parallel
// CHECK: } {respec.parallel_level = "block"}
// CHECK: default {
// CHECK-NEXT: scf.parallel
// CHECK: llvm.store
// CHECK: } {respec.parallel_level = "block"}
func.func @interchange_switch(%n: index, %p: !llvm.ptr, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      scf.index_switch %k
      case 1 {
        %v = llvm.load %p : !llvm.ptr -> i32
        respec.barrier(%t)
        llvm.store %v, %p : i32, !llvm.ptr
        scf.yield
      }
      default {
        %z = llvm.mlir.constant(0 : i32) : i32
        llvm.store %z, %p : i32, !llvm.ptr
        scf.yield
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// With mark-barriers, in a grid synchronized only by barriers, each of the
// kernel's barriers leaves a call of __respec_barrier_point at block level
// where it was: after the first thread loop, and at the end of a serial
// loop's body (its second barrier). The barrier the interchange of serial
// loops put at the start of the body (respec.interchange) leaves none, nor
// do barriers of grids without the mark.
// MARK-LABEL: llvm.func @marked(
// MARK: scf.parallel
// MARK: {respec.parallel_level = "block"}
// MARK-NEXT: llvm.call @__respec_barrier_point() : () -> ()
// MARK-NOT: __respec_barrier_point
// MARK: scf.for
// MARK-NOT: __respec_barrier_point
// MARK: {respec.parallel_level = "block"}
// MARK-NEXT: llvm.call @__respec_barrier_point() : () -> ()
// MARK-NEXT: }
// MARK: } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
// MARK-LABEL: llvm.func @unmarked(
// MARK-NOT: __respec_barrier_point
// MARK: llvm.return
// MARK: llvm.func @__respec_barrier_point()
llvm.func @marked(%gx64: i64, %bx64: i64, %n64: i64, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  %n = arith.index_castui %n64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      respec.barrier(%t)
      scf.for %k = %c0 to %n step %c1 {
        respec.barrier(%t) {respec.interchange}
        %w = llvm.load %p : !llvm.ptr -> f32
        %x = llvm.fadd %w, %w : f32
        llvm.store %x, %p : f32, !llvm.ptr
        respec.barrier(%t)
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @unmarked(%gx64: i64, %bx64: i64, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      respec.barrier(%t)
      llvm.store %v, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
