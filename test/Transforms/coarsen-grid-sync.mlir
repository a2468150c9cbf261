// RUN: %respec-opt --respec-coarsen="factors=block=2,thread=2" %s -verify-diagnostics | FileCheck %s

// A kernel that synchronizes its grid (respec.syncs_grid) is not coarsened:
// a coarsened block would run two blocks that wait for each other at a grid
// barrier in one. The user asked for coarsening, so respec says why not.
// CHECK-LABEL: llvm.func @__respec_launch.waits(
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NEXT: llvm.call @__respec_shared_memory
// CHECK-NEXT: func.call @use_block(%[[B]], %{{.*}})
// CHECK-NEXT: scf.parallel
// CHECK-COUNT-1: func.call @before(
// CHECK-NOT: func.call @before(
// CHECK: llvm.return

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func private @use_block(index, !llvm.ptr)
func.func private @before(index)
func.func private @after(index)
// expected-warning @below {{kernel 'waits' synchronizes its grid; not coarsened}}
llvm.func @__respec_launch.waits(%gx32: i32, %bx32: i32) attributes {respec.kernel_name = "waits", respec.syncs_grid} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = llvm.mlir.constant(100 : i64) : i64
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    func.call @use_block(%b, %sh) : (index, !llvm.ptr) -> ()
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @before(%t) : (index) -> ()
      respec.barrier(%t)
      func.call @after(%t) : (index) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
