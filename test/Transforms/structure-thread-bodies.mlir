// RUN: respec-opt --respec-raise-kernels --respec-structure-thread-bodies %s | FileCheck %s

// A kernel with barriers is inlined into its thread loop, its branches
// become scf.if, and the barrier intrinsics become respec ops naming the
// thread loop's induction variables (__syncthreads_and's i1 result is the
// truncated i32 of the reduction).
// CHECK-LABEL: llvm.func @__respec_launch._Z3rowPi(
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[Z:[^,]+]], %[[Y:[^,]+]], %[[X:[^)]+]]) =
// CHECK-NOT: llvm.call @__respec_thread
// CHECK: %[[C:.*]] = llvm.icmp "eq"
// CHECK: scf.if %[[C]] {
// CHECK: llvm.store
// CHECK: respec.barrier(%[[Z]], %[[Y]], %[[X]])
// CHECK: %[[ALL:.*]] = respec.reduce_barrier "and" %{{.*}}(%[[Z]], %[[Y]], %[[X]])
// CHECK: llvm.trunc %[[ALL]] : i32 to i1
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NOT: @__respec_thread._Z3rowPi

// A kernel structured by the first run keeps its calls of device functions
// (which are no thread functions) in the second run below.
// BFK-LABEL: llvm.func @__respec_launch._Z6calledPi(
// BFK: respec.barrier
// BFK: llvm.call @_Z6helperi(
// BFK: } {respec.parallel_level = "block"}

// A kernel without barriers keeps its per-thread function; with
// barrier-free-kernels (the CPU pipeline's second run) it is inlined too.
// CHECK-LABEL: llvm.func @__respec_launch._Z4flatPi(
// CHECK: llvm.call @__respec_thread._Z4flatPi(
// RUN: respec-opt --respec-raise-kernels --respec-structure-thread-bodies --respec-structure-thread-bodies=barrier-free-kernels=true %s | FileCheck %s --check-prefix=BFK
// BFK-LABEL: llvm.func @__respec_launch._Z4flatPi(
// BFK: scf.parallel
// BFK-NOT: llvm.call
// BFK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// BFK: } {respec.parallel_level = "block"}
// BFK-NOT: @__respec_thread._Z4flatPi
module {
  llvm.func ptx_kernelcc @_Z3rowPi(%x: !llvm.ptr) {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %z = llvm.mlir.constant(0 : i32) : i32
    %i = llvm.sext %tid : i32 to i64
    %p = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %c = llvm.icmp "eq" %tid, %z : i32
    llvm.cond_br %c, ^bb1, ^bb2
  ^bb1:
    llvm.store %z, %p : i32, !llvm.ptr
    llvm.br ^bb2
  ^bb2:
    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%z) : (i32) -> ()
    %v = llvm.load %x : !llvm.ptr -> i32
    %pred = llvm.icmp "sgt" %v, %z : i32
    %all = llvm.call_intrinsic "llvm.nvvm.barrier.cta.red.and.aligned.all"(%z, %pred) : (i32, i1) -> i1
    %w = llvm.zext %all : i1 to i32
    llvm.store %w, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func @_Z6helperi(%v: i32) -> i32 attributes {no_inline} {
    %m = llvm.mul %v, %v : i32
    llvm.return %m : i32
  }
  llvm.func ptx_kernelcc @_Z6calledPi(%x: !llvm.ptr) {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %z = llvm.mlir.constant(0 : i32) : i32
    %i = llvm.sext %tid : i32 to i64
    %p = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%z) : (i32) -> ()
    %h = llvm.call @_Z6helperi(%tid) : (i32) -> i32
    llvm.store %h, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func ptx_kernelcc @_Z4flatPi(%x: !llvm.ptr) {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    llvm.store %tid, %x : i32, !llvm.ptr
    llvm.return
  }
}
