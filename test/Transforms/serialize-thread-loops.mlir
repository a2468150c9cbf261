// RUN: %respec-opt --respec-serialize-thread-loops -split-input-file -verify-diagnostics %s | FileCheck %s

// The 3-D thread loop (z, y, x) becomes a nest of scf.for with its first
// dimension outermost, so x runs innermost; the grid loop around it and its
// shared allocation stay as they are. The loops carry LLVM loop metadata
// that disables unrolling (LLVM's loop vectorizer handles them instead).
// The thread body is a call that takes x, which LLVM may inline into any
// access pattern, so its accesses are not declared parallel.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[NOUNROLL_DEF:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>

// CHECK-LABEL: llvm.func @__respec_launch.k(
// CHECK-SAME: %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[P:[^:]*]]: !llvm.ptr)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[GX:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-DAG: %[[BZ:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-DAG: %[[BY:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-DAG: %[[BX:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: scf.parallel (%[[B:.*]]) = (%[[C0]]) to (%[[GX]]) step (%[[C1]]) {
// CHECK-NEXT: %[[SH:.*]] = llvm.call @alloc()
// CHECK-NEXT: scf.for %[[Z:.*]] = %[[C0]] to %[[BZ]] step %[[C1]] {
// CHECK-NEXT: scf.for %[[Y:.*]] = %[[C0]] to %[[BY]] step %[[C1]] {
// CHECK-NEXT: scf.for %[[X:.*]] = %[[C0]] to %[[BX]] step %[[C1]] {
// CHECK-NEXT: %[[XI:.*]] = arith.index_castui %[[X]] : index to i32
// CHECK-NEXT: %[[YI:.*]] = arith.index_castui %[[Y]] : index to i32
// CHECK-NEXT: %[[ZI:.*]] = arith.index_castui %[[Z]] : index to i32
// CHECK-NEXT: llvm.call @thread(%[[XI]], %[[YI]], %[[ZI]], %[[SH]], %[[P]]) :
// CHECK-NEXT: } {loop_annotation = #[[NOUNROLL:.*]]}
// CHECK-NEXT: } {loop_annotation = #[[NOUNROLL]]}
// CHECK-NEXT: } {loop_annotation = #[[NOUNROLL]]}
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {respec.parallel_level = "grid"}
// CHECK-NOT: scf.parallel
// CHECK-NOT: "block"
llvm.func @alloc() -> !llvm.ptr
llvm.func @thread(i32, i32, i32, !llvm.ptr, !llvm.ptr)
llvm.func @__respec_launch.k(%gx32: i32, %bz32: i32, %by32: i32, %bx32: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bz = arith.index_castui %bz32 : i32 to index
  %by = arith.index_castui %by32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %sh = llvm.call @alloc() : () -> !llvm.ptr
    scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%bz, %by, %bx) step (%c1, %c1, %c1) {
      %xi = arith.index_castui %x : index to i32
      %yi = arith.index_castui %y : index to i32
      %zi = arith.index_castui %z : index to i32
      llvm.call @thread(%xi, %yi, %zi, %sh, %p) : (i32, i32, i32, !llvm.ptr, !llvm.ptr) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Bounds and steps other than 0 and 1 are kept per dimension; several thread
// loops in one function are all serialized. Parallel loops without the
// "block" level are not thread loops and stay parallel.

// CHECK-LABEL: func.func @bounds(
// CHECK-SAME: %[[LO:[^:]*]]: index, %[[HI:[^:]*]]: index, %[[ST:[^:]*]]: index)
// CHECK: scf.for %[[I:.*]] = %[[LO]] to %[[HI]] step %[[ST]] {
// CHECK-NEXT: func.call @use(%[[I]])
// CHECK-NEXT: }
// CHECK: scf.for %[[J:.*]] = %[[HI]] to %[[HI]] step %[[LO]] {
// CHECK-NEXT: scf.for %[[K:.*]] = %[[LO]] to %[[HI]] step %[[ST]] {
// CHECK-NEXT: func.call @use(%[[J]])
// CHECK-NEXT: func.call @use(%[[K]])
// CHECK: scf.parallel (%[[L:.*]]) = (%[[LO]]) to (%[[HI]]) step (%[[ST]]) {
// CHECK-NEXT: func.call @use(%[[L]])
// CHECK: scf.parallel
// CHECK: } {respec.parallel_level = "grid"}
func.func private @use(index)
func.func @bounds(%lo: index, %hi: index, %st: index) {
  scf.parallel (%i) = (%lo) to (%hi) step (%st) {
    func.call @use(%i) : (index) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%j, %k) = (%hi, %lo) to (%hi, %hi) step (%lo, %st) {
    func.call @use(%j) : (index) -> ()
    func.call @use(%k) : (index) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%l) = (%lo) to (%hi) step (%st) {
    func.call @use(%l) : (index) -> ()
    scf.reduce
  }
  scf.parallel (%m) = (%lo) to (%hi) step (%st) {
    func.call @use(%m) : (index) -> ()
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A thread loop with a reduction cannot run as plain sequential loops here.
func.func @reduction(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.parallel' op thread loop with reductions cannot be serialized}}
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%c0) -> index {
    scf.reduce(%i : index) {
    ^bb0(%a: index, %b: index):
      %s = arith.addi %a, %b : index
      scf.reduce.return %s : index
    }
  } {respec.parallel_level = "block"}
  return %sum : index
}

// -----

// Each thread loop gets its own access group, holding its loads, stores and
// calls, also inside nested control flow, next to groups an access already
// has. Atomics and volatile accesses stay out (their loop is then not
// parallel to LLVM). A loop with block-serial accesses (localized shared
// atomics, which rely on one thread at a time) and a loop without accesses
// get no group. Accesses must be the same for all threads or move with x
// (the innermost index) by their own size, through casts, sums, constant
// multiples and address arithmetic, also with a serial loop's counter
// whose start moves with x; a loop with a strided access (which LLVM
// would turn into gathers) is left alone. (Attributes printed in place:
// distinct ids are numbered in the order printed.)
// RUN: %respec-opt --respec-serialize-thread-loops -split-input-file -verify-diagnostics --mlir-print-local-scope %s | FileCheck %s --check-prefix=GROUPS
// GROUPS-LABEL: func.func @groups(
// GROUPS: scf.for
// GROUPS-NEXT: llvm.load %{{.*}} {access_groups = [#llvm.access_group<id = distinct[[[G1:[0-9]+]]]<>>]}
// GROUPS: llvm.store %{{.*}} {access_groups = [#llvm.access_group<id = distinct[[[OLD:[0-9]+]]]<>>, #llvm.access_group<id = distinct[[[G1]]]<>>]}
// GROUPS: llvm.atomicrmw add %{{[^{]*}} monotonic
// GROUPS: llvm.load volatile %{{[^{]*}} :
// GROUPS-NEXT: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>, parallelAccesses = <id = distinct[[[G1]]]<>>>}
// GROUPS: scf.for
// GROUPS-NEXT: llvm.call @bump(%{{.*}}) {access_groups = [#llvm.access_group<id = distinct[[[G2:[0-9]+]]]<>>]}
// GROUPS-NEXT: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>, parallelAccesses = <id = distinct[[[G2]]]<>>>}
// GROUPS: scf.for
// GROUPS: llvm.load %{{.*}} {access_groups = [#llvm.access_group<id = distinct[[[G3:[0-9]+]]]<>>]} : !llvm.ptr -> f32
// GROUPS: scf.for
// GROUPS: llvm.store %{{.*}} {access_groups = [#llvm.access_group<id = distinct[[[G3]]]<>>]} : f64, !llvm.ptr
// GROUPS: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>, parallelAccesses = <id = distinct[[[G3]]]<>>>}
// GROUPS: scf.for
// GROUPS: arith.muli %{{.*}}, %{{.*}} : index
// GROUPS-NEXT: arith.index_cast
// GROUPS-NEXT: llvm.getelementptr
// GROUPS-NEXT: llvm.load %{{[^{]*}} : !llvm.ptr -> f32
// GROUPS-NEXT: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// GROUPS: scf.for
// GROUPS-NEXT: llvm.load %{{.*}} {respec.block_serial}
// GROUPS-NEXT: arith.addi
// GROUPS-NEXT: llvm.store %{{.*}} {respec.block_serial}
// GROUPS-NEXT: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// GROUPS: scf.for
// GROUPS-NEXT: func.call @use
// GROUPS-NEXT: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
#old = #llvm.access_group<id = distinct[0]<>>
llvm.func @bump(!llvm.ptr)
func.func private @use(index)
func.func @groups(%p: !llvm.ptr, %q: !llvm.ptr, %n: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.parallel (%x) = (%c0) to (%n) step (%c1) {
    %v = llvm.load %p : !llvm.ptr -> i32
    scf.if %cond {
      llvm.store %v, %q {access_groups = [#old]} : i32, !llvm.ptr
    }
    %old = llvm.atomicrmw add %q, %one monotonic : !llvm.ptr, i32
    %w = llvm.load volatile %p : !llvm.ptr -> i32
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%n) step (%c1) {
    llvm.call @bump(%p) : (!llvm.ptr) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%y, %x) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %xi = arith.index_cast %x : index to i64
    %row = arith.muli %y, %n : index
    %rowi = arith.index_cast %row : index to i64
    %a = llvm.getelementptr %p[%rowi, %xi] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<16 x f32>
    %v = llvm.load %a : !llvm.ptr -> f32
    %x3 = arith.addi %x, %n : index
    scf.for %k = %x3 to %n step %c1 {
      %ki = arith.index_cast %k : index to i64
      %e = llvm.getelementptr %q[%ki] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %d = llvm.getelementptr %e[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %w = llvm.fpext %v : f32 to f64
      llvm.store %w, %d : f64, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%n) step (%c1) {
    %c17 = arith.constant 17 : index
    %s = arith.muli %x, %c17 : index
    %si = arith.index_cast %s : index to i64
    %a = llvm.getelementptr %p[%si] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %a : !llvm.ptr -> f32
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%n) step (%c1) {
    %v = llvm.load %p {respec.block_serial} : !llvm.ptr -> i32
    %s = arith.addi %v, %one : i32
    llvm.store %s, %p {respec.block_serial} : i32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%n) step (%c1) {
    func.call @use(%x) : (index) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// With parallel-accesses=false the loops only disable unrolling.
// RUN: %respec-opt --respec-serialize-thread-loops=parallel-accesses=false %s -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=OFF
// OFF-NOT: parallelAccesses
// OFF-LABEL: func.func @groups(
// OFF: llvm.load %{{[^{]*}} : !llvm.ptr -> i32
// OFF-NOT: parallelAccesses
