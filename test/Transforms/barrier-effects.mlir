// RUN: respec-opt --cse --canonicalize %s | FileCheck %s

// respec.barrier's memory effects are those of the code between it and the
// neighbouring barriers, minus thread-private memory. Upstream CSE and
// canonicalization use them.

// A load of shared memory written before the barrier is not merged with the
// same load after it.
// CHECK-LABEL: func.func @shared_not_cse(
// CHECK: %[[A:.*]] = llvm.load %[[S:[^ ]*]] : !llvm.ptr -> f32
// CHECK: respec.barrier
// CHECK: %[[B:.*]] = llvm.load %[[S]] : !llvm.ptr -> f32
// CHECK: llvm.store %[[B]]
func.func @shared_not_cse(%n: index, %s: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%t) = (%c0) to (%n) step (%c1) {
    %i = arith.index_cast %t : index to i64
    %p = llvm.getelementptr %s[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %a = llvm.load %s : !llvm.ptr -> f32
    llvm.store %a, %p : f32, !llvm.ptr
    respec.barrier(%t)
    %b = llvm.load %s : !llvm.ptr -> f32
    llvm.store %b, %out : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// The first barrier only separates accesses to the thread's own alloca: it
// orders nothing and is removed. The second orders the store to %out.
// CHECK-LABEL: func.func @private_barrier_removed(
// CHECK: llvm.alloca
// CHECK-NEXT: llvm.store
// CHECK-NEXT: llvm.load
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: llvm.store
// CHECK-NOT: respec.barrier
func.func @private_barrier_removed(%n: index, %x: f32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%t) = (%c0) to (%n) step (%c1) {
    %one = llvm.mlir.constant(1 : i64) : i64
    %priv = llvm.alloca %one x f32 : (i64) -> !llvm.ptr
    llvm.store %x, %priv : f32, !llvm.ptr
    respec.barrier(%t)
    %b = llvm.load %priv : !llvm.ptr -> f32
    respec.barrier(%t)
    llvm.store %b, %out : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A call with unknown effects next to the barrier makes it read and write
// everything: nothing moves across it.
// CHECK-LABEL: func.func @unknown_call(
// CHECK: llvm.load
// CHECK-NEXT: llvm.call @opaque()
// CHECK-NEXT: respec.barrier
// CHECK-NEXT: llvm.load
func.func @unknown_call(%n: index, %s: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%t) = (%c0) to (%n) step (%c1) {
    %a = llvm.load %s : !llvm.ptr -> f32
    llvm.call @opaque() : () -> ()
    respec.barrier(%t)
    %b = llvm.load %s : !llvm.ptr -> f32
    %c = llvm.fadd %a, %b : f32
    llvm.store %c, %s : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
llvm.func @opaque()
