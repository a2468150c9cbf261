// RUN: respec-opt --convert-scf-to-openmp --respec-schedule-grid-loops %s | FileCheck %s
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=dynamic" %s | FileCheck %s
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=guided" %s | FileCheck %s

// A kernel that synchronizes its grid (respec.syncs_grid) runs on a team of
// as many threads as it has blocks, each of which must run exactly one
// block: it gets the static schedule (one contiguous run per thread, here of
// one block) even where its blocks look unbalanced and whatever schedule
// the command line asks for. A dynamic schedule could give a fast thread a
// second block while the first waits at a grid barrier for it.
// CHECK-LABEL: func.func @syncs_grid(
// CHECK-NOT: llvm.atomicrmw
// CHECK-NOT: omp.wsloop
// CHECK: omp.parallel {
// CHECK: llvm.call @omp_get_thread_num() : () -> i32
// CHECK: llvm.call @omp_get_num_threads() : () -> i32
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK-NOT: llvm.atomicrmw
// CHECK-NOT: omp.wsloop
// CHECK: omp.terminator
func.func @syncs_grid(%grid: index, %p: !llvm.ptr)
    attributes {respec.unbalanced_blocks, respec.syncs_grid} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %i = arith.index_cast %b : index to i64
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    llvm.store %v, %q : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// So do the slices of blocks that wait for each other at barriers
// (respec-parallelize-few-block-grids): each needs a thread of its own, in
// a function whose blocks otherwise look unbalanced.
// CHECK-LABEL: func.func @slices_meet(
// CHECK-NOT: llvm.atomicrmw
// CHECK-NOT: omp.wsloop
// CHECK: omp.parallel {
// CHECK: llvm.call @omp_get_thread_num() : () -> i32
// CHECK: llvm.call @omp_get_num_threads() : () -> i32
// CHECK-NOT: llvm.atomicrmw
// CHECK-NOT: omp.wsloop
// CHECK: llvm.call @__respec_slice_barrier
// CHECK: omp.terminator
llvm.func @__respec_slice_barrier(!llvm.ptr, i64)
func.func @slices_meet(%grid: index, %slices: index, %groups: !llvm.ptr,
                       %p: !llvm.ptr) attributes {respec.unbalanced_blocks} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b, %s) = (%c0, %c0) to (%grid, %slices) step (%c1, %c1) {
    %i = arith.index_cast %s : index to i64
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    %g = arith.index_cast %b : index to i64
    llvm.call @__respec_slice_barrier(%groups, %g) : (!llvm.ptr, i64) -> ()
    llvm.store %v, %q : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
