// RUN: respec-opt --respec-expand-reduce-barriers %s | FileCheck %s

// __syncthreads_count: each thread stores its vote, a barrier, thread 0 adds
// the votes of all threads, a barrier, every thread reads the count.
// CHECK-LABEL: func.func @count(
// CHECK: %[[VOTES:.*]] = llvm.call @__respec_block_scratch(
// CHECK: %[[RESULT:.*]] = llvm.call @__respec_block_scratch(
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[VOTE:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: %[[MINE:.*]] = llvm.getelementptr %[[VOTES]]
// CHECK: llvm.store %[[VOTE]], %[[MINE]]
// CHECK-NEXT: respec.barrier(%[[T]])
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]]
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK: %[[ONE:.*]] = llvm.load
// CHECK: arith.addi %[[ACC]], %[[ONE]] : i32
// CHECK: llvm.store %[[SUM]]
// CHECK: respec.barrier(%[[T]])
// CHECK: %[[R:.*]] = llvm.load
// CHECK-NEXT: llvm.store %[[R]], %{{.*}} : i32
// CHECK-NOT: respec.reduce_barrier
func.func @count(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %v = llvm.load %p : !llvm.ptr -> i1
      %r = respec.reduce_barrier "popc" %v(%t)
      llvm.store %r, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
