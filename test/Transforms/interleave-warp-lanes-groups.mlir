// RUN: respec-opt --respec-interleave-warp-lanes="vector-bits=512" --split-input-file %s | FileCheck %s --check-prefix=AUTO
// RUN: respec-opt --respec-interleave-warp-lanes="lanes=16" --split-input-file %s | FileCheck %s --check-prefix=PACK
// RUN: respec-opt --respec-interleave-warp-lanes --split-input-file %s | FileCheck %s --check-prefix=WARP

// Groups of 8 threads, one problem each (a block of 64 threads): problem =
// tid / 8, lane = tid % 8, row `problem` of a matrix with 16 columns, a
// broadcast from lane 3 of the group (width 8: c = 24 << 8 | 31).
//
// Straight-line code on a known target runs in groups of 8 lanes (the
// shuffle's width): the problem index is computed once per group, the row
// is one 8-element vector load and one vector store, the shuffle one
// permutation.
// AUTO-LABEL: func.func @groups_of_8(
// AUTO: arith.divui %{{.*}}, %c8 : index
// AUTO: scf.for
// AUTO: %[[PROBLEM:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
// AUTO-NOT: llvm.lshr
// AUTO: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xi32>
// AUTO: llvm.shufflevector %[[V:.*]], %[[V]] [3, 3, 3, 3, 3, 3, 3, 3] : vector<8xi32>
// AUTO: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<8xi32>, !llvm.ptr
// AUTO-NOT: llvm.load
//
// Packed two problems to a group of 16 lanes (lanes=16): the rows are two
// runs of 8 consecutive elements, loaded and stored in two halves; the
// broadcast reads lane 3 of each half.
// PACK-LABEL: func.func @groups_of_8(
// PACK: arith.divui %{{.*}}, %c16 : index
// PACK: %[[LO:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xi32>
// PACK: %[[HI:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xi32>
// PACK: %[[ROW:.*]] = llvm.shufflevector %[[LO]], %[[HI]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi32>
// PACK: llvm.shufflevector %{{.*}}, %{{.*}} [3, 3, 3, 3, 3, 3, 3, 3, 11, 11, 11, 11, 11, 11, 11, 11] : vector<16xi32>
// PACK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<8xi32>, !llvm.ptr
//
// Without a target or a request: whole warps, as before.
// WARP-LABEL: func.func @groups_of_8(
// WARP: arith.divui %{{.*}}, %c32 : index
// WARP: vector<32xi32>
func.func @groups_of_8(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %c3 = llvm.mlir.constant(3 : i32) : i32
      %c7 = llvm.mlir.constant(7 : i32) : i32
      %c4 = llvm.mlir.constant(4 : i32) : i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %width8 = llvm.mlir.constant(6175 : i32) : i32
      %problem = llvm.lshr %ti, %c3 : i32
      %lane = llvm.and %ti, %c7 : i32
      %row = llvm.shl %problem, %c4 : i32
      %index = llvm.add %row, %lane : i32
      %p = llvm.getelementptr %in[%index] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%m, %v, %c3, %width8) : (i32, i32, i32, i32) -> i32
      %sum = llvm.add %s, %v : i32
      %q = llvm.getelementptr %out[%index] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %sum, %q : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Exchanges that leave a group of 8 keep wider groups: a butterfly over 16
// lanes within width 32 needs 16 lanes, a ballot the whole warp. A stride-2
// load is one gather: lane 0's address plus the lanes' byte distances.
// AUTO-LABEL: func.func @wider_exchanges(
// AUTO: arith.divui %{{.*}}, %c16 : index
// AUTO: llvm.shufflevector %{{.*}}, %{{.*}} [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7] : vector<16xi32>
// AUTO-LABEL: func.func @ballot(
// AUTO: arith.divui %{{.*}}, %c32 : index
// AUTO: %[[DIST:.*]] = llvm.mlir.constant(dense<[0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248]> : vector<32xi64>)
// AUTO: %[[ADDRS:.*]] = llvm.getelementptr %{{.*}}[%[[DIST]]] : (!llvm.ptr, vector<32xi64>) -> vector<32x!llvm.ptr>, i8
// AUTO: llvm.intr.masked.gather %[[ADDRS]], %{{.*}}, %{{.*}} {alignment = 4 : i32} : (vector<32x!llvm.ptr>, vector<32xi1>, vector<32xi32>) -> vector<32xi32>
// AUTO-NOT: llvm.load
// PACK-LABEL: func.func @ballot(
// PACK: arith.divui %{{.*}}, %c32 : index
func.func @wider_exchanges(%in: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c8 = llvm.mlir.constant(8 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %p = llvm.getelementptr %in[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"(%m, %v, %c8, %c31) : (i32, i32, i32, i32) -> i32
      llvm.store %s, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

func.func @ballot(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c2 = llvm.mlir.constant(2 : i32) : i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %twice = llvm.mul %ti, %c2 : i32
      %p = llvm.getelementptr %in[%twice] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %pred = llvm.icmp "sgt" %v, %zero : i32
      %bal = llvm.call_intrinsic "llvm.nvvm.vote.ballot.sync"(%m, %pred) : (i32, i1) -> i32
      %q = llvm.getelementptr %out[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %bal, %q : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A loop around shuffles (a chain of dependent exchanges per iteration)
// runs whole warps on a known target. A block of unknown size: the partial
// last group loads with a mask.
// AUTO-LABEL: func.func @loop_around_shuffles(
// AUTO: arith.divui %{{.*}}, %c32 : index
// AUTO: scf.for {{.*}} -> (vector<32xi32>)
// AUTO: scf.if
// AUTO: llvm.intr.masked.load {{.*}} -> vector<32xi32>
func.func @loop_around_shuffles(%n: index, %io: !llvm.ptr, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %p = llvm.getelementptr %io[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %width4 = llvm.mlir.constant(7199 : i32) : i32
      %sum = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %v) -> (i32) {
        %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"(%m, %acc, %one, %width4) : (i32, i32, i32, i32) -> i32
        %next = llvm.add %acc, %s : i32
        scf.yield %next : i32
      }
      llvm.store %sum, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Control flow without primitives in an interleaved warp: a branch whose
// condition is the same in every lane (the problem index of a group) is one
// branch for all lanes with a vector store inside; a while loop whose exit
// differs between lanes is one vector loop that runs while any lane does,
// with the lanes' exit values selected as they leave.
// WARP-LABEL: func.func @control_without_primitives(
// WARP: scf.for
// WARP: %[[P:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
// WARP: %[[IN:.*]] = llvm.icmp "slt" %[[P]], %{{.*}} : i32
// WARP: scf.if %[[IN]] {
// WARP: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<32xi32>, !llvm.ptr
// WARP: scf.while {{.*}} -> (vector<32xi32>, vector<32xi1>, vector<32xi32>)
// WARP: llvm.bitcast %{{.*}} : vector<32xi1> to i32
// WARP: scf.condition
func.func @control_without_primitives(%io: !llvm.ptr, %limit: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c5 = llvm.mlir.constant(5 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %p = llvm.getelementptr %io[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"(%m, %v, %one, %c31) : (i32, i32, i32, i32) -> i32
      %warp = llvm.lshr %ti, %c5 : i32
      %in = llvm.icmp "slt" %warp, %limit : i32
      scf.if %in {
        llvm.store %s, %p : i32, !llvm.ptr
      }
      %r = scf.while (%x = %v) : (i32) -> i32 {
        %more = llvm.icmp "sgt" %x, %one : i32
        scf.condition(%more) %x : i32
      } do {
      ^bb0(%y: i32):
        %half = llvm.lshr %y, %one : i32
        scf.yield %half : i32
      }
      llvm.store %r, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A 64-bit value shuffled as its two 32-bit halves (CUDA's __shfl_sync for
// double): each half's shuffle permutes the 64-bit vector and cuts out its
// half, so that LLVM can merge the two permutations and fold the join.
// WARP-LABEL: func.func @double_halves(
// WARP: %[[WIDE:.*]] = llvm.bitcast %{{.*}} : vector<32xf64> to vector<32xi64>
// WARP: %[[PLO:.*]] = llvm.shufflevector %[[WIDE]], %[[WIDE]] [5, 5, 5, {{.*}}] : vector<32xi64>
// WARP: llvm.trunc %[[PLO]] : vector<32xi64> to vector<32xi32>
// WARP: %[[PHI:.*]] = llvm.shufflevector %[[WIDE]], %[[WIDE]] [5, 5, 5, {{.*}}] : vector<32xi64>
// WARP: %[[SHIFTED:.*]] = llvm.lshr %[[PHI]], %{{.*}} : vector<32xi64>
// WARP: llvm.trunc %[[SHIFTED]] : vector<32xi64> to vector<32xi32>
func.func @double_halves(%io: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c5 = llvm.mlir.constant(5 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %c32 = llvm.mlir.constant(32 : i64) : i64
      %p = llvm.getelementptr %io[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, f64
      %v = llvm.load %p : !llvm.ptr -> f64
      %w = llvm.fadd %v, %v : f64
      %bits = llvm.bitcast %w : f64 to i64
      %lo = llvm.trunc %bits : i64 to i32
      %hiwide = llvm.lshr %bits, %c32 : i64
      %hi = llvm.trunc %hiwide : i64 to i32
      %slo = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%m, %lo, %c5, %c31) : (i32, i32, i32, i32) -> i32
      %shi = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%m, %hi, %c5, %c31) : (i32, i32, i32, i32) -> i32
      %zlo = llvm.zext %slo : i32 to i64
      %zhi = llvm.zext %shi : i32 to i64
      %up = llvm.shl %zhi, %c32 : i64
      %joined = llvm.or disjoint %up, %zlo : i64
      %r = llvm.bitcast %joined : i64 to f64
      llvm.store %r, %p : f64, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
