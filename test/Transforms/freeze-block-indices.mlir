// RUN: %respec-opt --respec-freeze-block-indices %s | FileCheck %s

// Every use of a block index inside the block goes through a frozen copy
// made once at the start of the block; thread indices are left alone.
// CHECK-LABEL: func.func @block_indices(
// CHECK: scf.parallel (%[[BY:.*]], %[[BX:.*]]) =
// CHECK-DAG: %[[WY:.*]] = arith.index_castui %[[BY]] : index to i64
// CHECK-DAG: %[[FY:.*]] = llvm.freeze %[[WY]] : i64
// CHECK-DAG: %[[Y:.*]] = arith.index_castui %[[FY]] : i64 to index
// CHECK-DAG: %[[WX:.*]] = arith.index_castui %[[BX]] : index to i64
// CHECK-DAG: %[[FX:.*]] = llvm.freeze %[[WX]] : i64
// CHECK-DAG: %[[X:.*]] = arith.index_castui %[[FX]] : i64 to index
// CHECK: scf.for %[[T:.*]] =
// CHECK: arith.muli %[[X]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[T]] : index
// CHECK: arith.addi %{{.*}}, %[[Y]] : index
func.func @block_indices(%p: !llvm.ptr, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%by, %bx) = (%c0, %c0) to (%gy, %gx) step (%c1, %c1) {
    scf.for %t = %c0 to %c16 step %c1 {
      %base = arith.muli %bx, %c16 : index
      %g = arith.addi %base, %t : index
      %h = arith.addi %g, %by : index
      %i = arith.index_cast %h : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store %v, %q : f32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
