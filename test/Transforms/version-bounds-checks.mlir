// RUN: %respec-opt --respec-version-bounds-checks --split-input-file %s | FileCheck %s

// `if (base + r * 256 + tid < n)` in a loop over r: the largest index any
// thread reaches, base + 7 * 256 + 255 in 128 bits, is compared with n once
// per block; below it, a copy of the thread loop runs with the branch
// taken, the loop as it was otherwise. The additions carry no unsigned
// no-wrap flag, so their intervals must also fit 64 bits.
// CHECK-LABEL: func.func @rounds(
// CHECK-SAME: %[[P:[^:]+]]: !llvm.ptr, %[[BASE:[^:]+]]: i64, %[[N:[^:]+]]: i64
// CHECK: %[[WBASE:.+]] = arith.extui %[[BASE]] : i64 to i128
// CHECK: %[[MAX64:.+]] = arith.constant 18446744073709551615 : i128
// CHECK: arith.cmpi sle, %{{.+}}, %[[MAX64]] : i128
// CHECK: %[[WN:.+]] = arith.extui %[[N]] : i64 to i128
// CHECK: %[[BELOW:.+]] = arith.cmpi slt, %{{.+}}, %[[WN]] : i128
// CHECK: %[[ALL:.+]] = arith.andi %{{.+}}, %[[BELOW]] : i1
// CHECK: scf.if %[[ALL]] {
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.if %[[TRUE]] {
// CHECK: } else {
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[IN:.+]] = llvm.icmp "ult" %{{.+}}, %[[N]] : i64
// CHECK: scf.if %[[IN]] {
func.func @rounds(%p: !llvm.ptr, %base: i64, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
    %t = arith.index_castui %tx : index to i64
    %c256_i64 = llvm.mlir.constant(256 : i64) : i64
    scf.for %r = %c0 to %c8 step %c1 {
      %ri = arith.index_castui %r : index to i64
      %off = llvm.mul %ri, %c256_i64 : i64
      %row = llvm.add %base, %off : i64
      %i = llvm.add %row, %t : i64
      %in = llvm.icmp "ult" %i, %n : i64
      scf.if %in {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
        %v = llvm.load %q : !llvm.ptr -> i8
        %w = llvm.add %v, %v : i8
        llvm.store %w, %q : i8, !llvm.ptr
      }
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// -----

// The counter of a loop as lifting leaves it (a rotated scf.while from 0
// stepping by one without wrapping until 64): its values are 0 to 63.
// The counter's interval, read unsigned by its exit test, must fit a
// signed 64-bit reading too.
// CHECK-LABEL: func.func @rotated(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr, %[[BX:[^:]+]]: i32, %[[N:[^:]+]]: i64
// CHECK: %[[C64:.+]] = arith.constant 64 : i128
// CHECK: arith.subi %[[C64]], %{{.+}} : i128
// CHECK: %[[WN:.+]] = arith.extui %[[N]] : i64 to i128
// CHECK: arith.cmpi slt, %{{.+}}, %[[WN]] : i128
// CHECK: scf.if
// CHECK: scf.while
// CHECK: scf.if %true
func.func @rotated(%p: !llvm.ptr, %bx: i32, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
    %t32 = arith.index_castui %tx : index to i32
    %zero = llvm.mlir.constant(0 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    %sixtyfour = llvm.mlir.constant(64 : i64) : i64
    %eight = llvm.mlir.constant(8 : i64) : i64
    %fourteen = llvm.mlir.constant(14 : i64) : i64
    %t = llvm.zext nneg %t32 : i32 to i64
    %b = llvm.zext nneg %bx : i32 to i64
    %bs = llvm.shl %b, %fourteen overflow<nsw, nuw> : i64
    %base = llvm.or disjoint %bs, %t : i64
    %last = scf.while (%r = %zero) : (i64) -> i64 {
      %off = llvm.shl %r, %eight overflow<nsw, nuw> : i64
      %i = llvm.add %base, %off overflow<nsw, nuw> : i64
      %in = llvm.icmp "ult" %i, %n : i64
      scf.if %in {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
        %v = llvm.load %q : !llvm.ptr -> i8
        llvm.store %v, %q : i8, !llvm.ptr
      }
      %next = llvm.add %r, %one overflow<nsw, nuw> : i64
      %go = arith.cmpi ne, %next, %sixtyfour : i64
      scf.condition(%go) %next : i64
    } do {
    ^bb0(%r: i64):
      scf.yield %r : i64
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// -----

// Left alone: the bound differs between threads; an equality; a product of
// two varying values.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: i128
// CHECK-NOT: scf.if %true
func.func @left_alone(%p: !llvm.ptr, %q: !llvm.ptr, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%tz, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
    %t = arith.index_castui %tx : index to i64
    %limitp = llvm.getelementptr %q[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    %limit = llvm.load %limitp : !llvm.ptr -> i64
    scf.for %r = %c0 to %c8 step %c1 {
      %ri = arith.index_castui %r : index to i64
      %i = llvm.add %ri, %t : i64
      %below = llvm.icmp "ult" %i, %limit : i64
      scf.if %below {
        llvm.store %i, %limitp : i64, !llvm.ptr
      }
      %same = llvm.icmp "eq" %i, %n : i64
      scf.if %same {
        llvm.store %i, %limitp : i64, !llvm.ptr
      }
      %sq = llvm.mul %ri, %t : i64
      %small = llvm.icmp "ult" %sq, %n : i64
      scf.if %small {
        llvm.store %sq, %limitp : i64, !llvm.ptr
      }
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
