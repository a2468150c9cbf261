// RUN: %respec-opt --respec-outline-large-blocks=min-loops=2 %s | FileCheck %s
// RUN: %respec-opt --respec-outline-large-blocks %s | FileCheck %s --check-prefix=DEFAULT

// A block body with two loops moves into a function of its own: block
// indices and index values are passed as i64, pointers and integers as
// they are; constants are recomputed inside.
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: i32, %{{.*}}: i32
// CHECK: %[[W:.*]] = arith.index_castui
// CHECK: %[[S:.*]] = llvm.call @__respec_block_scratch(
// CHECK: scf.parallel (%[[BX:.*]]) =
// CHECK-NEXT: %[[BX64:.*]] = arith.index_castui %[[BX]] : index to i64
// CHECK-NEXT: %[[W64:.*]] = arith.index_castui %[[W]] : index to i64
// CHECK-NEXT: llvm.call @kernel.block(%[[BX64]], %[[S]], %[[N]], %[[W64]], %[[P]]) : (i64, !llvm.ptr, i32, i64, !llvm.ptr) -> ()
// CHECK-NEXT: scf.reduce
// CHECK: llvm.func internal @kernel.block(%[[A0:.*]]: i64, %[[A1:.*]]: !llvm.ptr, %[[A2:.*]]: i32, %[[A3:.*]]: i64, %[[A4:.*]]: !llvm.ptr)
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-DAG: %[[B:.*]] = arith.index_castui %[[A0]] : i64 to index
// CHECK-DAG: %[[WI:.*]] = arith.index_castui %[[A3]] : i64 to index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for
// CHECK: llvm.getelementptr %[[A1]]
// CHECK: llvm.store %[[A2]]
// CHECK: scf.for
// CHECK: arith.muli %[[B]], %[[C16]]
// CHECK: arith.muli %[[WI]], %[[C16]]
// CHECK: llvm.getelementptr %[[A4]]
// CHECK: llvm.return

// DEFAULT-NOT: .block
// DEFAULT: scf.parallel
// DEFAULT: scf.for
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr

llvm.func @kernel(%p: !llvm.ptr, %n: i32, %gx: i32) {
  %w = arith.index_castui %gx : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(64 : i64) : i64
  %scratch = llvm.call @__respec_block_scratch(%bytes) : (i64) -> !llvm.ptr
  scf.parallel (%bx) = (%c0) to (%w) step (%c1) {
    scf.for %t = %c0 to %c16 step %c1 {
      %i = arith.index_cast %t : index to i64
      %q = llvm.getelementptr %scratch[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %n, %q : i32, !llvm.ptr
    }
    scf.for %t = %c0 to %c16 step %c1 {
      %base = arith.muli %bx, %c16 : index
      %row = arith.muli %w, %c16 : index
      %g0 = arith.addi %base, %t : index
      %g = arith.addi %g0, %row : index
      %i = arith.index_cast %g : index to i64
      %q = llvm.getelementptr %scratch[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %q : !llvm.ptr -> i32
      %r = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %r : i32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// Grid loops with results stay as they are.
// CHECK-LABEL: llvm.func @with_result(
// CHECK-NOT: llvm.call @with_result.block
llvm.func @with_result(%gx: i32) -> i32 {
  %w = arith.index_castui %gx : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %sum = scf.parallel (%bx) = (%c0) to (%w) step (%c1) init (%zero) -> i32 {
    scf.for %t = %c0 to %c1 step %c1 {
    }
    scf.for %t = %c0 to %c1 step %c1 {
    }
    %one = arith.constant 1 : i32
    scf.reduce(%one : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  } {respec.parallel_level = "grid"}
  llvm.return %sum : i32
}
