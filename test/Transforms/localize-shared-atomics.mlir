// RUN: %respec-opt --respec-localize-shared-atomics %s | FileCheck %s

// Atomics on the block's shared memory become load, operation and store
// (one OS thread runs the whole block); cmpxchg's {old, success} result is
// rebuilt; the plain accesses are marked respec.block_serial (correct only
// while one thread of the block runs at a time). Atomics on other memory, volatile ones and operations without
// a plain equivalent here (nand) stay atomic.
// CHECK-LABEL: func.func @shared_and_global(
// CHECK-SAME: %[[G:[^:]*]]: !llvm.ptr, %[[I:[^:]*]]: i64, %[[V:[^:]*]]: i32, %[[F:[^:]*]]: f32)
// CHECK: %[[SH:.*]] = llvm.call @__respec_shared_memory
// CHECK: %[[BIN:.*]] = llvm.getelementptr %[[SH]][%[[I]]]
// CHECK: %[[OLD:.*]] = llvm.load %[[BIN]] {respec.block_serial} : !llvm.ptr -> i32
// CHECK: %[[SUM:.*]] = llvm.add %[[OLD]], %[[V]] : i32
// CHECK: llvm.store %[[SUM]], %[[BIN]] {respec.block_serial}
// CHECK: %[[OLD2:.*]] = llvm.load %[[BIN]] {respec.block_serial} : !llvm.ptr -> i32
// CHECK: %[[MAX:.*]] = llvm.intr.umax(%[[OLD2]], %[[V]])
// CHECK: llvm.store %[[MAX]], %[[BIN]] {respec.block_serial}
// CHECK: %[[FP:.*]] = llvm.getelementptr %[[SH]][%[[I]]]
// CHECK: %[[FOLD:.*]] = llvm.load %[[FP]] {respec.block_serial} : !llvm.ptr -> f32
// CHECK: %[[FSUM:.*]] = llvm.fadd %[[FOLD]], %[[F]] : f32
// CHECK: llvm.store %[[FSUM]], %[[FP]] {respec.block_serial}
// CHECK: %[[CUR:.*]] = llvm.load %[[BIN]] {respec.block_serial} : !llvm.ptr -> i32
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[CUR]], %[[V]] : i32
// CHECK: %[[NEW:.*]] = llvm.select %[[EQ]], %[[OLD]], %[[CUR]]
// CHECK: llvm.store %[[NEW]], %[[BIN]] {respec.block_serial}
// CHECK: llvm.insertvalue %[[CUR]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[EQ]], %{{.*}}[1]
// CHECK: llvm.atomicrmw add %[[G]], %[[V]] monotonic
// CHECK: llvm.atomicrmw volatile add %[[BIN]], %[[V]] monotonic
// CHECK: llvm.atomicrmw nand %[[BIN]], %[[V]] monotonic
// CHECK: return %[[OLD]], %[[OLD2]], %[[FOLD]]
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @shared_and_global(%g: !llvm.ptr, %i: i64, %v: i32, %f: f32) -> (i32, i32, f32, i1) {
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
  %bin = llvm.getelementptr %sh[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %old = llvm.atomicrmw add %bin, %v monotonic : !llvm.ptr, i32
  %m = llvm.atomicrmw umax %bin, %v monotonic : !llvm.ptr, i32
  %fp = llvm.getelementptr %sh[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %fo = llvm.atomicrmw fadd %fp, %f monotonic : !llvm.ptr, f32
  %pair = llvm.cmpxchg %bin, %v, %old acq_rel monotonic : !llvm.ptr, i32
  %ok = llvm.extractvalue %pair[1] : !llvm.struct<(i32, i1)>
  %gl = llvm.atomicrmw add %g, %v monotonic : !llvm.ptr, i32
  %vol = llvm.atomicrmw volatile add %bin, %v monotonic : !llvm.ptr, i32
  %nand = llvm.atomicrmw nand %bin, %v monotonic : !llvm.ptr, i32
  return %old, %m, %fo, %ok : i32, i32, f32, i1
}
