// RUN: %respec-opt --respec-vectorize-thread-loops=lanes=16 %s | FileCheck %s

// A serial loop with one value of state per thread (its accumulator):
// 16 lanes.
// CHECK-LABEL: func.func @small_state(
// CHECK: scf.for {{.*}} -> (vector<16xf32>)
func.func @small_state(%acc: !llvm.ptr, %tile: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %slot = llvm.getelementptr %acc[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %init = llvm.load %slot : !llvm.ptr -> f32
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%s = %init) -> (f32) {
      %ji = arith.index_castui %j : index to i64
      %tp = llvm.getelementptr %tile[%ji] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %t = llvm.load %tp : !llvm.ptr -> f32
      %next = llvm.fadd %s, %t : f32
      scf.yield %next : f32
    }
    llvm.store %sum, %slot : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A serial loop that keeps 17 floats of each thread (a feature vector)
// and its accumulator: 18 words a lane, 288 at 16 lanes, more than half
// of AVX-512's registers. 8 lanes.
// CHECK-LABEL: func.func @large_state(
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK-NOT: vector<16xf32>
func.func @large_state(%in: !llvm.ptr, %out: !llvm.ptr, %tile: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a0 = llvm.getelementptr %in[%xi, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f0 = llvm.load %a0 : !llvm.ptr -> f32
    %a1 = llvm.getelementptr %in[%xi, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f1 = llvm.load %a1 : !llvm.ptr -> f32
    %a2 = llvm.getelementptr %in[%xi, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f2 = llvm.load %a2 : !llvm.ptr -> f32
    %a3 = llvm.getelementptr %in[%xi, 3] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f3 = llvm.load %a3 : !llvm.ptr -> f32
    %a4 = llvm.getelementptr %in[%xi, 4] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f4 = llvm.load %a4 : !llvm.ptr -> f32
    %a5 = llvm.getelementptr %in[%xi, 5] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f5 = llvm.load %a5 : !llvm.ptr -> f32
    %a6 = llvm.getelementptr %in[%xi, 6] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f6 = llvm.load %a6 : !llvm.ptr -> f32
    %a7 = llvm.getelementptr %in[%xi, 7] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f7 = llvm.load %a7 : !llvm.ptr -> f32
    %a8 = llvm.getelementptr %in[%xi, 8] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f8 = llvm.load %a8 : !llvm.ptr -> f32
    %a9 = llvm.getelementptr %in[%xi, 9] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f9 = llvm.load %a9 : !llvm.ptr -> f32
    %a10 = llvm.getelementptr %in[%xi, 10] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f10 = llvm.load %a10 : !llvm.ptr -> f32
    %a11 = llvm.getelementptr %in[%xi, 11] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f11 = llvm.load %a11 : !llvm.ptr -> f32
    %a12 = llvm.getelementptr %in[%xi, 12] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f12 = llvm.load %a12 : !llvm.ptr -> f32
    %a13 = llvm.getelementptr %in[%xi, 13] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f13 = llvm.load %a13 : !llvm.ptr -> f32
    %a14 = llvm.getelementptr %in[%xi, 14] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f14 = llvm.load %a14 : !llvm.ptr -> f32
    %a15 = llvm.getelementptr %in[%xi, 15] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f15 = llvm.load %a15 : !llvm.ptr -> f32
    %a16 = llvm.getelementptr %in[%xi, 16] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
    %f16 = llvm.load %a16 : !llvm.ptr -> f32
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
      %ji = arith.index_castui %j : index to i64
      %tp = llvm.getelementptr %tile[%ji] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %t = llvm.load %tp : !llvm.ptr -> f32
      %m0 = llvm.fmul %f0, %t : f32
      %p0 = llvm.fadd %s, %m0 : f32
      %m1 = llvm.fmul %f1, %t : f32
      %p1 = llvm.fadd %p0, %m1 : f32
      %m2 = llvm.fmul %f2, %t : f32
      %p2 = llvm.fadd %p1, %m2 : f32
      %m3 = llvm.fmul %f3, %t : f32
      %p3 = llvm.fadd %p2, %m3 : f32
      %m4 = llvm.fmul %f4, %t : f32
      %p4 = llvm.fadd %p3, %m4 : f32
      %m5 = llvm.fmul %f5, %t : f32
      %p5 = llvm.fadd %p4, %m5 : f32
      %m6 = llvm.fmul %f6, %t : f32
      %p6 = llvm.fadd %p5, %m6 : f32
      %m7 = llvm.fmul %f7, %t : f32
      %p7 = llvm.fadd %p6, %m7 : f32
      %m8 = llvm.fmul %f8, %t : f32
      %p8 = llvm.fadd %p7, %m8 : f32
      %m9 = llvm.fmul %f9, %t : f32
      %p9 = llvm.fadd %p8, %m9 : f32
      %m10 = llvm.fmul %f10, %t : f32
      %p10 = llvm.fadd %p9, %m10 : f32
      %m11 = llvm.fmul %f11, %t : f32
      %p11 = llvm.fadd %p10, %m11 : f32
      %m12 = llvm.fmul %f12, %t : f32
      %p12 = llvm.fadd %p11, %m12 : f32
      %m13 = llvm.fmul %f13, %t : f32
      %p13 = llvm.fadd %p12, %m13 : f32
      %m14 = llvm.fmul %f14, %t : f32
      %p14 = llvm.fadd %p13, %m14 : f32
      %m15 = llvm.fmul %f15, %t : f32
      %p15 = llvm.fadd %p14, %m15 : f32
      %m16 = llvm.fmul %f16, %t : f32
      %p16 = llvm.fadd %p15, %m16 : f32
      scf.yield %p16 : f32
    }
    %slot = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %sum, %slot : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
