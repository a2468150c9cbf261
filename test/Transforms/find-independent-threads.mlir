// RUN: %respec-opt --respec-find-independent-threads -split-input-file %s | FileCheck %s

// Threads that neither wait at a barrier nor exchange values through warp
// primitives are independent, also when they call functions without
// either: the grid loop is marked.
// CHECK-LABEL: llvm.func @independent(
// CHECK: } {respec.independent_threads, respec.parallel_level = "grid"}
llvm.func @square(%x: f32) -> f32 {
  %y = llvm.fmul %x, %x : f32
  llvm.return %y : f32
}
llvm.func @independent(%gx64: i64, %bx64: i64, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %v = arith.uitofp %i : i64 to f32
      %w = llvm.call @square(%v) : (f32) -> f32
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A block barrier orders the threads: not independent, but synchronized
// only at barriers, which gets the other mark.
// CHECK-LABEL: llvm.func @barrier(
// CHECK-NOT: respec.independent_threads
// CHECK: } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
// CHECK: llvm.return
llvm.func @barrier(%gx64: i64, %bx64: i64, %out: !llvm.ptr) {
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

// -----

// A warp shuffle exchanges registers between the lanes of a warp; so may a
// function that calls one, and an indirect call's unknown callee: none of
// the three grids is marked.
// They are not synchronized by barriers alone either.
// CHECK-LABEL: llvm.func @shuffle(
// CHECK-NOT: respec.{{independent|barrier_synchronized}}_threads
// CHECK-LABEL: llvm.func @calls_shuffle(
// CHECK-NOT: respec.{{independent|barrier_synchronized}}_threads
// CHECK-LABEL: llvm.func @indirect(
// CHECK-NOT: respec.{{independent|barrier_synchronized}}_threads
// CHECK: llvm.return
llvm.func @shuffle(%gx64: i64, %bx64: i64, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = llvm.mlir.constant(-1 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %c31 = llvm.mlir.constant(31 : i32) : i32
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %v = arith.uitofp %i : i64 to f32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%m, %v, %one, %c31) : (i32, f32, i32, i32) -> f32
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %s, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @exchange(%v: f32) -> f32 {
  %m = llvm.mlir.constant(-1 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %c31 = llvm.mlir.constant(31 : i32) : i32
  %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%m, %v, %one, %c31) : (i32, f32, i32, i32) -> f32
  llvm.return %s : f32
}
llvm.func @calls_shuffle(%gx64: i64, %bx64: i64, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %v = arith.uitofp %i : i64 to f32
      %s = llvm.call @exchange(%v) : (f32) -> f32
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %s, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @indirect(%gx64: i64, %bx64: i64, %f: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      llvm.call %f(%i) : !llvm.ptr, (i64) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A reducing barrier (`__syncthreads_or`) exchanges a predicate, and a
// barrier in a called function is not lowered where the grid is: neither
// grid is marked.
// CHECK-LABEL: llvm.func @reduce_barrier(
// CHECK-NOT: respec.{{independent|barrier_synchronized}}_threads
// CHECK-LABEL: llvm.func @calls_barrier(
// CHECK-NOT: respec.{{independent|barrier_synchronized}}_threads
// CHECK: llvm.return
llvm.func @reduce_barrier(%gx64: i64, %bx64: i64, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %pred = llvm.icmp "ne" %v, %zero : i32
      %w = respec.reduce_barrier "or" %pred(%t)
      llvm.store %w, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
llvm.func @sync() {
  %zero = llvm.mlir.constant(0 : i32) : i32
  llvm.call @llvm.nvvm.barrier.cta.sync.aligned.all(%zero) : (i32) -> ()
  llvm.return
}
llvm.func @calls_barrier(%gx64: i64, %bx64: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx64 : i64 to index
  %bx = arith.index_castui %bx64 : i64 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      llvm.call @sync() : () -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
