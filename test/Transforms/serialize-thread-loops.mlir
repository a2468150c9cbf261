// RUN: %respec-opt --respec-serialize-thread-loops -split-input-file -verify-diagnostics %s | FileCheck %s

// The 3-D thread loop (z, y, x) becomes a nest of scf.for with its first
// dimension outermost, so x runs innermost; the grid loop around it and its
// shared allocation stay as they are. The loops carry LLVM loop metadata
// that disables unrolling (LLVM's loop vectorizer handles them instead).
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
// CHECK-NEXT: llvm.call @thread(%[[XI]], %[[YI]], %[[ZI]], %[[SH]], %[[P]])
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
