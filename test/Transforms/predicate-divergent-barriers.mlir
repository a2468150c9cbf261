// RUN: respec-opt --respec-predicate-divergent-barriers %s | FileCheck %s
// RUN: respec-opt --respec-predicate-divergent-barriers=hoist-uniform=false %s | FileCheck %s --check-prefix=ALL

// An if whose condition depends on the thread is flattened: every thread
// executes the barrier, the code on each side runs under the thread's own
// condition, and the loaded value reaches the second half as a result
// (poison for threads that skip it, which never use it).
// CHECK-LABEL: func.func @divergent_if(
// CHECK: %[[COND:.*]] = arith.cmpi ult
// CHECK: %[[V:.*]] = scf.if %[[COND]] -> (i32) {
// CHECK-NEXT: llvm.load
// CHECK: } else {
// CHECK-NEXT: llvm.mlir.poison : i32
// CHECK: }
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: scf.if %[[COND]] {
// CHECK-NEXT: llvm.store %[[V]]
func.func @divergent_if(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %early = arith.cmpi ult, %t, %c8 : index
      scf.if %early {
        %v = llvm.load %p : !llvm.ptr -> i32
        respec.barrier(%t)
        llvm.store %v, %p : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A loop whose trip count is the same for all threads stays a loop; its
// carried value, which all threads agree on, stays an SSA value (barrier
// lowering keeps it once per block). With hoist-uniform=false it is masked
// like a divergent loop, its value demoted to thread-private memory.
// CHECK-LABEL: func.func @uniform_loop(
// CHECK-NOT: llvm.alloca
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (i32) -> i32 {
// CHECK-NOT: respec.reduce_barrier
// CHECK: scf.condition
// ALL-LABEL: func.func @uniform_loop(
// ALL-COUNT-2: llvm.alloca %{{.*}} x i32
// ALL: scf.while : () -> () {
// ALL: respec.reduce_barrier "or"
func.func @uniform_loop(%n: index, %p: !llvm.ptr, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %z = llvm.mlir.constant(0 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %r = scf.while (%i = %z) : (i32) -> i32 {
        respec.barrier(%t)
        %next = llvm.add %i, %one : i32
        %go = llvm.icmp "slt" %next, %k : i32
        scf.condition(%go) %next : i32
      } do {
      ^bb0(%j: i32):
        scf.yield %j : i32
      }
      llvm.store %r, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// The same loop also carrying a value that differs between threads: the
// loop stays (uniform control) and keeps its counter; only the per-thread
// sum goes to thread-private memory. The after region only passes the sum
// on, so both sides share one slot and the after region neither loads nor
// stores it.
// CHECK-LABEL: func.func @uniform_loop_thread_value(
// CHECK: llvm.alloca %{{.*}} x i32
// CHECK-NOT: llvm.alloca
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (i32) -> i32 {
// CHECK-NOT: respec.reduce_barrier
// CHECK: scf.condition(%{{.*}}) %{{.*}} : i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK-NEXT: scf.yield %{{.*}} : i32
func.func @uniform_loop_thread_value(%n: index, %p: !llvm.ptr, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %z = llvm.mlir.constant(0 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %tid = arith.index_cast %t : index to i32
      %r:2 = scf.while (%i = %z, %s = %tid) : (i32, i32) -> (i32, i32) {
        respec.barrier(%t)
        %next = llvm.add %i, %one : i32
        %sum = llvm.add %s, %next : i32
        %go = llvm.icmp "slt" %next, %k : i32
        scf.condition(%go) %next, %sum : i32, i32
      } do {
      ^bb0(%j: i32, %u: i32):
        scf.yield %j, %u : i32, i32
      }
      llvm.store %r#1, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A loop whose exit depends on memory (possibly different per thread) runs
// while any thread still iterates: the thread's active flag guards the body
// and the exit is the OR of the flags over the block.
// CHECK-LABEL: func.func @divergent_loop(
// CHECK: %[[ACTIVE:.*]] = llvm.alloca %{{.*}} x i1
// CHECK: llvm.store %true, %[[ACTIVE]]
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[A:.*]] = llvm.load %[[ACTIVE]] : !llvm.ptr -> i1
// CHECK-NEXT: scf.if %[[A]] -> (i32) {
// CHECK: respec.barrier
// CHECK: %[[GO:.*]] = scf.if %[[A]] -> (i1) {
// CHECK: %[[STILL:.*]] = arith.select %[[A]], %[[GO]], %false
// CHECK-NEXT: llvm.store %[[STILL]], %[[ACTIVE]]
// CHECK-NEXT: %[[ANY:.*]] = respec.reduce_barrier "or" %[[STILL]]
// CHECK-NEXT: %[[ANYBIT:.*]] = arith.trunci %[[ANY]]
// CHECK-NEXT: scf.condition(%[[ANYBIT]])
func.func @divergent_loop(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      scf.while : () -> () {
        %v = llvm.load %p : !llvm.ptr -> i32
        respec.barrier(%t)
        %z = llvm.mlir.constant(0 : i32) : i32
        %go = llvm.icmp "ne" %v, %z : i32
        scf.condition(%go)
      } do {
        scf.yield
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
