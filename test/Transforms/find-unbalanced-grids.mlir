// RUN: respec-opt --respec-find-unbalanced-grids %s | FileCheck %s

// Every block runs the same loop: static.
// CHECK-LABEL: func.func @same_work(
// CHECK-NOT: respec.unbalanced_blocks
// CHECK: return
func.func @same_work(%grid: index, %n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    scf.for %k = %c0 to %n step %c1 {
      %i = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A loop bound loaded from memory (a CSR row's extent): dynamic.
// CHECK-LABEL: func.func @loaded_bound(
// CHECK-SAME: attributes {respec.unbalanced_blocks}
func.func @loaded_bound(%grid: index, %rows: !llvm.ptr, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %bi = arith.index_cast %b : index to i64
    %r = llvm.getelementptr %rows[%bi] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    %end64 = llvm.load %r : !llvm.ptr -> i64
    %end = arith.index_cast %end64 : i64 to index
    scf.for %k = %c0 to %end step %c1 {
      %i = arith.index_cast %k : index to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A loop whose exit test depends on the block index through its carried
// value (an escape-time iteration): dynamic.
// CHECK-LABEL: func.func @exit_by_block_index(
// CHECK-SAME: attributes {respec.unbalanced_blocks}
func.func @exit_by_block_index(%grid: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %start = arith.index_cast %b : index to i64
    %limit = llvm.mlir.constant(1000 : i64) : i64
    %two = llvm.mlir.constant(2 : i64) : i64
    %last = scf.while (%x = %start) : (i64) -> i64 {
      %more = llvm.icmp "slt" %x, %limit : i64
      scf.condition(%more) %x : i64
    } do {
    ^bb0(%x: i64):
      %next = llvm.mul %x, %two : i64
      scf.yield %next : i64
    }
    llvm.store %last, %p : i64, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A bounds check on the block index around a loop: only the last blocks
// differ, static.
// CHECK-LABEL: func.func @bounds_check(
// CHECK-NOT: respec.unbalanced_blocks
// CHECK: return
func.func @bounds_check(%grid: index, %n: index, %m: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %in = arith.cmpi ult, %b, %n : index
    scf.if %in {
      scf.for %k = %c0 to %m step %c1 {
        %i = arith.index_cast %k : index to i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A loop under a lower bound on the global index by a kernel argument
// (`if (j > k)`, the columns right of a pivot): the leading blocks idle,
// dynamic. The same bound by a constant (a stencil's interior) stays
// static.
// CHECK-LABEL: func.func @lower_bound_by_argument(
// CHECK-SAME: attributes {respec.unbalanced_blocks}
func.func @lower_bound_by_argument(%grid: index, %k: i32, %n: i32,
                                   %m: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c1) step (%c1) {
      %bx = arith.index_castui %b : index to i32
      %tx = arith.index_castui %t : index to i32
      %c256 = llvm.mlir.constant(256 : i32) : i32
      %base = llvm.mul %bx, %c256 : i32
      %j = llvm.add %base, %tx : i32
      %right = llvm.icmp "sgt" %j, %k : i32
      %inside = llvm.icmp "slt" %j, %n : i32
      %both = llvm.and %right, %inside : i1
      scf.if %both {
        scf.for %i = %c0 to %m step %c1 {
          %q = llvm.getelementptr %p[%j] : (!llvm.ptr, i32) -> !llvm.ptr, f32
          %v = llvm.load %q : !llvm.ptr -> f32
          llvm.store %v, %q : f32, !llvm.ptr
        }
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// The same bound around straight-line code (LU's update of the trailing
// submatrix, `if (i > k && j > k)`): whole blocks idle, dynamic.
// CHECK-LABEL: func.func @lower_bound_straight_line(
// CHECK-SAME: attributes {respec.unbalanced_blocks}
func.func @lower_bound_straight_line(%grid: index, %k: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %bx = arith.index_castui %b : index to i32
    %below = llvm.icmp "slt" %k, %bx : i32
    scf.if %below {
      %q = llvm.getelementptr %p[%bx] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = llvm.fmul %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// CHECK-LABEL: func.func @constant_lower_bound(
// CHECK-NOT: respec.unbalanced_blocks
// CHECK: return
func.func @constant_lower_bound(%grid: index, %n: i32, %m: index,
                                %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %bx = arith.index_castui %b : index to i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %interior = llvm.icmp "sge" %bx, %one : i32
    %below = llvm.icmp "slt" %bx, %n : i32
    %both = llvm.and %interior, %below : i1
    scf.if %both {
      scf.for %i = %c0 to %m step %c1 {
        %q = llvm.getelementptr %p[%bx] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A loop under a branch on loaded data (a BFS frontier flag): dynamic;
// a branch on loaded data around straight-line code: static.
// CHECK-LABEL: func.func @loaded_branch(
// CHECK-SAME: attributes {respec.unbalanced_blocks}
// CHECK-LABEL: func.func @loaded_branch_no_loop(
// CHECK-NOT: respec.unbalanced_blocks
// CHECK: return
func.func @loaded_branch(%grid: index, %m: index, %flags: !llvm.ptr,
                         %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %bi = arith.index_cast %b : index to i64
    %f = llvm.getelementptr %flags[%bi] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    %flag = llvm.load %f : !llvm.ptr -> i1
    scf.if %flag {
      scf.for %k = %c0 to %m step %c1 {
        %i = arith.index_cast %k : index to i64
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        llvm.store %v, %q : f32, !llvm.ptr
      }
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

func.func @loaded_branch_no_loop(%grid: index, %flags: !llvm.ptr,
                                 %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %bi = arith.index_cast %b : index to i64
    %f = llvm.getelementptr %flags[%bi] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    %flag = llvm.load %f : !llvm.ptr -> i1
    scf.if %flag {
      %q = llvm.getelementptr %p[%bi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.store %v, %q : f32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
