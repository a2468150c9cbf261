// RUN: %respec-opt --respec-build-alternatives="candidates=block=1;block=2;thread=2" %s 2>&1 | FileCheck %s

// A kernel that synchronizes its grid (respec.syncs_grid) gets no versions:
// a block-coarsened version would run, in one block, two blocks that wait
// for each other at a grid barrier. Its launch function stays as it is.
// CHECK-LABEL: llvm.func @__respec_launch.waits(
// CHECK-NOT: respec.alternatives
// CHECK-NOT: arith.divui
// CHECK: scf.parallel (%[[B:.*]]) =
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK-NEXT: func.call @work(%[[B]], %[[T]])
// CHECK-NEXT: respec.barrier(%[[T]])
// CHECK-NOT: respec.alternatives
// CHECK: llvm.return

func.func private @work(index, index)
llvm.func @__respec_launch.waits(%gx32: i32, %bx32: i32) attributes {respec.kernel_name = "waits", respec.syncs_grid} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @work(%b, %t) : (index, index) -> ()
      respec.barrier(%t)
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
