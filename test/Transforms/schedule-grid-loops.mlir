// RUN: respec-opt --convert-scf-to-openmp --respec-schedule-grid-loops %s | FileCheck %s
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=guided" %s | FileCheck %s --check-prefix=GUIDED
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=dynamic" %s | FileCheck %s --check-prefix=DYNAMIC
// RUN: not respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=fast" %s 2>&1 | FileCheck %s --check-prefix=BAD

// A function marked by respec-find-unbalanced-grids gets a dynamic
// schedule, the others a static one; a schedule given applies to all.
// CHECK-LABEL: func.func @unbalanced(
// CHECK: omp.wsloop schedule(dynamic)
// CHECK-LABEL: func.func @balanced(
// CHECK: omp.wsloop schedule(static)
// GUIDED-COUNT-2: omp.wsloop schedule(guided)
// DYNAMIC-COUNT-2: omp.wsloop schedule(dynamic)
// BAD: unknown grid schedule 'fast' (expected auto, static, dynamic or guided)
func.func @unbalanced(%grid: index, %p: !llvm.ptr)
    attributes {respec.unbalanced_blocks} {
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

func.func @balanced(%grid: index, %p: !llvm.ptr) {
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
