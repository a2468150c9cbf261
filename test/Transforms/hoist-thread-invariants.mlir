// RUN: respec-opt --respec-hoist-thread-invariants %s | FileCheck %s

llvm.func @opaque(f32) -> f32

// A thread loop that runs: the coefficient's load and the arithmetic on it
// move to block scope; the per-thread load and the load after the store
// stay.
// CHECK-LABEL: func.func @hoisted(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr, %[[Q:[^:]*]]: !llvm.ptr
// CHECK: %[[COEF:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK: %[[TWICE:.*]] = llvm.fadd %[[COEF]], %[[COEF]] : f32
// CHECK: scf.parallel
// CHECK: %[[MINE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.fmul %[[MINE]], %[[TWICE]] : f32
// CHECK: llvm.store
// CHECK: llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK: scf.reduce
func.func @hoisted(%p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %q[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %coef = llvm.load %p : !llvm.ptr -> f32
    %twice = llvm.fadd %coef, %coef : f32
    %v = llvm.load %a : !llvm.ptr -> f32
    %w = llvm.fmul %v, %twice : f32
    llvm.store %w, %a : f32, !llvm.ptr
    %again = llvm.load %p : !llvm.ptr -> f32
    llvm.store %again, %a : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// Left in the loop: a load after a call (which might write the location,
// or not return), volatile and atomic loads, a localized shared-memory
// atomic's load.
// CHECK-LABEL: func.func @kept(
// CHECK: scf.parallel
// CHECK: llvm.load volatile
// CHECK: llvm.load %{{.*}} atomic monotonic
// CHECK: llvm.load %{{.*}} {respec.block_serial}
// CHECK: llvm.call @opaque
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: scf.reduce
func.func @kept(%p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %q[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load volatile %p : !llvm.ptr -> f32
    %m = llvm.load %p atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> f32
    %s = llvm.load %q {respec.block_serial} : !llvm.ptr -> i32
    llvm.store %s, %q {respec.block_serial} : i32, !llvm.ptr
    %c = llvm.call @opaque(%v) : (f32) -> f32
    %after = llvm.load %p : !llvm.ptr -> f32
    %sum = llvm.fadd %c, %after : f32
    %sum2 = llvm.fadd %sum, %m : f32
    llvm.store %sum2, %a : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A loop whose thread count is not known to be positive: loads and
// divisions stay (they would run for an empty block), other pure
// operations move.
// CHECK-LABEL: func.func @maybe_empty(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr, %{{[^:]*}}: !llvm.ptr, %[[N:[^:]*]]: index, %[[K:[^:]*]]: i32
// CHECK: %[[SUM:.*]] = llvm.add %[[K]], %[[K]] : i32
// CHECK: scf.parallel
// CHECK: llvm.load %[[P]]
// CHECK: llvm.sdiv %{{.*}}, %[[K]] : i32
// CHECK: scf.reduce
func.func @maybe_empty(%p: !llvm.ptr, %q: !llvm.ptr, %n: index, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%x) = (%c0) to (%n) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %q[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %v = llvm.load %p : !llvm.ptr -> i32
    %sum = llvm.add %k, %k : i32
    %quot = llvm.sdiv %sum, %k : i32
    %w = llvm.add %v, %quot : i32
    llvm.store %w, %a : i32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
