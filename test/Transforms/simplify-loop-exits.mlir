// RUN: %respec-opt --respec-simplify-loop-exits -split-input-file %s | FileCheck %s

// A rotated loop as the CFG lifting leaves it: the exit test goes through
// an scf.if that yields the next counter and sum (continue, constant 1) or
// the sum live after the loop (exit, constant 0), poison elsewhere. The
// terminator tests the comparison itself, the multiplexer goes, and the
// two positions that carry the sum become one.
// CHECK-LABEL: func.func @rotated_sum(
// CHECK: %[[R:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) : (i64, f32) -> (i64, f32) {
// CHECK: %[[S:.*]] = llvm.fadd %[[ACC]]
// CHECK: %[[NEXT:.*]] = llvm.add %[[I]]
// CHECK: %[[LT:.*]] = llvm.icmp "slt" %[[NEXT]]
// CHECK-NOT: scf.if
// CHECK: scf.condition(%[[LT]]) %[[NEXT]], %[[S]] : i64, f32
// CHECK: return %[[R]]#1 : f32
func.func @rotated_sum(%p: !llvm.ptr, %n: i64) -> f32 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %pi = llvm.mlir.poison : i64
  %pf = llvm.mlir.poison : f32
  %one = arith.constant 1 : i32
  %none = arith.constant 0 : i32
  %r:3 = scf.while (%i = %c0, %acc = %zero, %out = %pf) : (i64, f32, f32) -> (i64, f32, f32) {
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    %s = llvm.fadd %acc, %v : f32
    %next = llvm.add %i, %c1 : i64
    %lt = llvm.icmp "slt" %next, %n : i64
    %m:4 = scf.if %lt -> (i64, f32, f32, i32) {
      scf.yield %next, %s, %pf, %one : i64, f32, f32, i32
    } else {
      scf.yield %pi, %pf, %s, %none : i64, f32, f32, i32
    }
    %c = arith.trunci %m#3 : i32 to i1
    scf.condition(%c) %m#0, %m#1, %m#2 : i64, f32, f32
  } do {
  ^bb0(%i: i64, %acc: f32, %out: f32):
    scf.yield %i, %acc, %out : i64, f32, f32
  }
  return %r#2 : f32
}

// -----

// The loop continues on the else side: the terminator tests the inverse
// comparison.
// CHECK-LABEL: func.func @continues_on_else(
// CHECK: %[[NEXT:.*]] = llvm.add
// CHECK: llvm.icmp "sge" %[[NEXT]], %[[N:.*]] : i64
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : i64
// CHECK-NOT: scf.if
// CHECK: scf.condition(%[[LT]])
func.func @continues_on_else(%n: i64) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %pi = llvm.mlir.poison : i64
  %t = arith.constant true
  %f = arith.constant false
  %r:2 = scf.while (%i = %c0, %out = %pi) : (i64, i64) -> (i64, i64) {
    %next = llvm.add %i, %c1 : i64
    %ge = llvm.icmp "sge" %next, %n : i64
    %m:3 = scf.if %ge -> (i64, i64, i1) {
      scf.yield %pi, %next, %f : i64, i64, i1
    } else {
      scf.yield %next, %pi, %t : i64, i64, i1
    }
    scf.condition(%m#2) %m#0, %m#1 : i64, i64
  } do {
  ^bb0(%i: i64, %out: i64):
    scf.yield %i, %out : i64, i64
  }
  return %r#1 : i64
}

// -----

// An exit test that is no comparison (a loaded flag), continuing on the
// else side: the terminator tests its negation.
// CHECK-LABEL: func.func @negated_flag(
// CHECK: %[[STOP:.*]] = llvm.load
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[GO:.*]] = arith.xori %[[STOP]], %[[TRUE]] : i1
// CHECK-NOT: scf.if
// CHECK: scf.condition(%[[GO]])
func.func @negated_flag(%p: !llvm.ptr) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %pi = llvm.mlir.poison : i64
  %t = arith.constant true
  %f = arith.constant false
  %r:2 = scf.while (%i = %c0, %out = %pi) : (i64, i64) -> (i64, i64) {
    %next = llvm.add %i, %c1 : i64
    %stop = llvm.load %p : !llvm.ptr -> i1
    %m:3 = scf.if %stop -> (i64, i64, i1) {
      scf.yield %pi, %next, %f : i64, i64, i1
    } else {
      scf.yield %next, %pi, %t : i64, i64, i1
    }
    scf.condition(%m#2) %m#0, %m#1 : i64, i64
  } do {
  ^bb0(%i: i64, %out: i64):
    scf.yield %i, %out : i64, i64
  }
  return %r#1 : i64
}

// -----

// A value that differs between the two sides, neither poison, stays
// selected by the multiplexer (which stays); the others are bypassed.
// CHECK-LABEL: func.func @both_sides_live(
// CHECK: %[[LT:.*]] = llvm.icmp "slt"
// CHECK: %[[M:.*]]:3 = scf.if %[[LT]]
// CHECK: scf.condition(%[[LT]]) %{{.*}}, %[[M]]#1 : i64, i64
func.func @both_sides_live(%p: !llvm.ptr, %n: i64) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c7 = llvm.mlir.constant(7 : i64) : i64
  %one = arith.constant 1 : i32
  %none = arith.constant 0 : i32
  %r:2 = scf.while (%i = %c0, %x = %c0) : (i64, i64) -> (i64, i64) {
    llvm.store %x, %p : i64, !llvm.ptr
    %next = llvm.add %i, %c1 : i64
    %lt = llvm.icmp "slt" %next, %n : i64
    %m:3 = scf.if %lt -> (i64, i64, i32) {
      scf.yield %next, %next, %one : i64, i64, i32
    } else {
      scf.yield %next, %c7, %none : i64, i64, i32
    }
    %c = arith.trunci %m#2 : i32 to i1
    scf.condition(%c) %m#0, %m#1 : i64, i64
  } do {
  ^bb0(%i: i64, %x: i64):
    scf.yield %i, %x : i64, i64
  }
  return %r#1 : i64
}

// -----

// Left alone: the condition is not a multiplexer's constant (a loaded
// flag), and the constants of a multiplexer that agree in bit 0.
// CHECK-LABEL: func.func @not_multiplexed(
// CHECK: %[[FLAG:.*]] = llvm.load
// CHECK: scf.condition(%[[FLAG]])
// CHECK: %[[M:.*]]:2 = scf.if
// CHECK: %[[C:.*]] = arith.trunci %[[M]]#1
// CHECK: scf.condition(%[[C]])
func.func @not_multiplexed(%p: !llvm.ptr, %n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %two = arith.constant 2 : i32
  %four = arith.constant 4 : i32
  %r = scf.while (%i = %c0) : (i64) -> i64 {
    %flag = llvm.load %p : !llvm.ptr -> i1
    %next = llvm.add %i, %c1 : i64
    scf.condition(%flag) %next : i64
  } do {
  ^bb0(%i: i64):
    scf.yield %i : i64
  }
  %s = scf.while (%i = %c0) : (i64) -> i64 {
    %next = llvm.add %i, %c1 : i64
    %lt = llvm.icmp "slt" %next, %n : i64
    %m:2 = scf.if %lt -> (i64, i32) {
      scf.yield %next, %two : i64, i32
    } else {
      scf.yield %next, %four : i64, i32
    }
    %c = arith.trunci %m#1 : i32 to i1
    scf.condition(%c) %m#0 : i64
  } do {
  ^bb0(%i: i64):
    scf.yield %i : i64
  }
  return
}
