// RUN: respec-opt --respec-interleave-warp-lanes --split-input-file %s | FileCheck %s

// Full warps run as 32 interleaved lanes: lane-varying arithmetic becomes
// one vector op, a shuffle with constant operands one permutation, a ballot
// the predicate vector reinterpreted as i32; the lane-dependent `if` runs
// per lane after its pure operations were hoisted into vector code. The
// load of consecutive elements is one vector load. The partial last warp
// runs the same code with the missing lanes masked off: their loads and
// stores are masked, a shuffle reading one of them gives zero (as NVIDIA
// GPUs do), the ballot counts only existing lanes.
// CHECK-LABEL: func.func @xor_shuffle(
// CHECK: %[[WARPS:.*]] = arith.divui %{{.*}}, %c32
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %[[WARPS]]
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<32xf32>
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: llvm.shufflevector %[[V:.*]], %[[V]] [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30] : vector<32xf32>
// CHECK: llvm.fcmp "ogt" %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: llvm.bitcast %{{.*}} : vector<32xi1> to i32
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-COUNT-32: scf.if
// CHECK: %[[REST:.*]] = arith.subi
// CHECK: %[[PARTIAL:.*]] = arith.cmpi ne, %[[REST]], %{{.*}} : index
// CHECK: scf.if %[[PARTIAL]] {
// CHECK: %[[LAST:.*]] = arith.cmpi ult, %c31{{.*}}, %[[REST]] : index
// CHECK: llvm.intr.masked.load %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : (!llvm.ptr, vector<32xi1>, vector<32xf32>) -> vector<32xf32>
// CHECK: %[[SHUFFLED:.*]] = llvm.shufflevector %[[V:.*]], %[[V]] [1, 0, 3, 2
// CHECK: %[[EXISTS:.*]] = llvm.shufflevector %[[EXISTING:.*]], %[[EXISTING]] [1, 0, 3, 2
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : vector<32xf32>
// CHECK: %[[ELSE:.*]] = arith.select %[[EXISTS]], %[[V]], %[[ZERO]] : vector<32xi1>, vector<32xf32>
// CHECK: %[[PERM:.*]] = llvm.shufflevector %[[ACTIVE:.*]], %[[ACTIVE]] [1, 0, 3, 2
// CHECK: arith.select %[[PERM]], %[[SHUFFLED]], %[[ELSE]] : vector<32xi1>, vector<32xf32>
// CHECK: llvm.bitcast %{{.*}} : vector<32xi1> to i32
// CHECK: arith.andi
// CHECK-NOT: llvm.call_intrinsic
// CHECK-NOT: scf.parallel {{.*}} {respec.parallel_level = "block"}
func.func @xor_shuffle(%n: index, %in: !llvm.ptr, %out: !llvm.ptr, %limit: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %p = llvm.getelementptr %in[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%m, %w, %one, %c31) : (i32, f32, i32, i32) -> f32
      %pred = llvm.fcmp "ogt" %s, %w : f32
      %bal = llvm.call_intrinsic "llvm.nvvm.vote.ballot.sync"(%m, %pred) : (i32, i1) -> i32
      %in_range = llvm.icmp "slt" %ti, %limit : i32
      scf.if %in_range {
        %r = llvm.fmul %s, %w : f32
        %q = llvm.getelementptr %out[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        llvm.store %r, %q : f32, !llvm.ptr
        %bp = llvm.getelementptr %out[%bal] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        llvm.store %r, %bp : f32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A shuffle inside a uniform loop: the loop is emitted once, its carried
// value is a vector; a shuffle whose source lane is the loop's induction
// variable computes the source lanes as one vector and permutes the value
// by a gather from a stack copy (no code per lane).
// CHECK-LABEL: func.func @uniform_loop(
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x vector<32xf32>
// CHECK: scf.for
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<32xf32>)
// CHECK: %[[VALID:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: %[[SOURCE:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: llvm.store %[[ACC]], %[[SLOT]] : vector<32xf32>, !llvm.ptr
// CHECK: %[[ADDRS:.*]] = llvm.getelementptr %[[SLOT]][%[[SOURCE]]] : (!llvm.ptr, vector<32xi32>) -> vector<32x!llvm.ptr>, f32
// CHECK: %[[PERM:.*]] = llvm.intr.masked.gather %[[ADDRS]]
// CHECK: arith.select %[[VALID]], %[[PERM]], %[[ACC]] : vector<32xi1>, vector<32xf32>
// CHECK-NOT: llvm.extractelement
// CHECK: scf.yield %{{.*}} : vector<32xf32>
func.func @uniform_loop(%n: index, %io: !llvm.ptr, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %p = llvm.getelementptr %io[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %sum = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %v) -> (f32) {
        %src = arith.index_castui %i : index to i32
        %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.f32"(%m, %acc, %src, %c31) : (i32, f32, i32, i32) -> f32
        %next = llvm.fadd %acc, %s : f32
        scf.yield %next : f32
      }
      llvm.store %sum, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A shuffle under a lane-dependent branch: the branch is emitted in line
// with the lanes that take it as the active ones; its load of consecutive
// elements is a vector load masked by the lanes' conditions; its result is
// selected per lane.
// CHECK-LABEL: func.func @masked_branch(
// CHECK: scf.for
// CHECK: %[[COND:.*]] = llvm.icmp "slt" %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: llvm.intr.masked.load %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : (!llvm.ptr, vector<32xi1>, vector<32xi32>) -> vector<32xi32>
// CHECK: llvm.shufflevector
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<32xi1>, vector<32xi32>
func.func @masked_branch(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %c0_i32 = llvm.mlir.constant(0 : i32) : i32
      %c8 = llvm.mlir.constant(8 : i32) : i32
      %low = llvm.icmp "slt" %ti, %c8 : i32
      %r = scf.if %low -> (i32) {
        %q = llvm.getelementptr %p[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
        %v = llvm.load %q : !llvm.ptr -> i32
        %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"(%m, %v, %one, %c31) : (i32, i32, i32, i32) -> i32
        scf.yield %s : i32
      } else {
        scf.yield %c0_i32 : i32
      }
      llvm.store %r, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A loop around a shuffle whose trip count differs between lanes runs while
// any lane still runs it, carrying the running lanes and each lane's exit
// value; a lane that leaves keeps the value it left with.
// CHECK-LABEL: func.func @masked_loop(
// CHECK: scf.for
// CHECK: %[[LOOP:.*]]:3 = scf.while (%{{.*}} = %{{.*}}, %[[RUNNING:.*]] = %{{.*}}, %[[EXIT:.*]] = %{{.*}}) : (vector<32xi32>, vector<32xi1>, vector<32xi32>) -> (vector<32xi32>, vector<32xi1>, vector<32xi32>)
// CHECK: %[[LEAVING:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXIT]] : vector<32xi1>, vector<32xi32>
// CHECK: %[[STAYING:.*]] = llvm.bitcast %{{.*}} : vector<32xi1> to i32
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[STAYING]]
// CHECK: scf.condition(%[[ANY]])
// CHECK: } do {
// CHECK: llvm.shufflevector
// CHECK: scf.yield
// CHECK: llvm.extractelement %[[LOOP]]#2
func.func @masked_loop(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %r = scf.while (%i = %ti) : (i32) -> i32 {
        %more = llvm.icmp "slt" %i, %c31 : i32
        scf.condition(%more) %i : i32
      } do {
      ^bb0(%i: i32):
        %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"(%m, %i, %one, %c31) : (i32, i32, i32, i32) -> i32
        %next = llvm.add %s, %one : i32
        scf.yield %next : i32
      }
      llvm.store %r, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Not interleaved: a block barrier in the thread loop, and a shuffle in a
// `for` loop whose bounds differ between lanes (both keep the barrier-based
// emulation).
// CHECK-LABEL: func.func @not_eligible(
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK: respec.barrier
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK: scf.for
// CHECK: llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
func.func @not_eligible(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %v = llvm.load %p : !llvm.ptr -> i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      respec.barrier(%t)
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%m, %v, %v, %c31) : (i32, i32, i32, i32) -> i32
      llvm.store %s, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %c5 = llvm.mlir.constant(5 : i32) : i32
      %bound = arith.index_castui %ti : i32 to index
      scf.for %i = %c0 to %bound step %c1 {
        %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%m, %ti, %ti, %c31) : (i32, i32, i32, i32) -> i32
        llvm.store %s, %p : i32, !llvm.ptr
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A lane-dependent `if` without side effects (clang keeps small ones as
// branches) is if-converted: both branches run as vector code and the
// result is selected; no per-lane branches remain.
// CHECK-LABEL: func.func @pure_branch(
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: llvm.fdiv %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<32xi1>, vector<32xf32>
// CHECK: llvm.shufflevector
func.func @pure_branch(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %x = llvm.sitofp %ti : i32 to f32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %c7 = llvm.mlir.constant(7 : i32) : i32
      %low = llvm.icmp "slt" %ti, %c7 : i32
      %v = scf.if %low -> (f32) {
        %d = llvm.fdiv %x, %x : f32
        scf.yield %d : f32
      } else {
        %e = llvm.fmul %x, %x : f32
        scf.yield %e : f32
      }
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%m, %v, %one, %c31) : (i32, f32, i32, i32) -> f32
      llvm.store %s, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// __match_any_sync / __match_all_sync on interleaved lanes: for each lane,
// one comparison of its value (broadcast) with the vector of all lanes'
// values, reinterpreted as i32 and restricted to the participating lanes;
// match_all builds its {mask, predicate} from the same bits. No exchange
// through memory, no barrier.
// CHECK-LABEL: func.func @match(
// CHECK: scf.for
// CHECK-COUNT-32: llvm.icmp "eq" %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: llvm.bitcast %{{.*}} : vector<32xi1> to i32
// CHECK: arith.cmpi eq
// CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i32, i1)>
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.match
// CHECK-NOT: respec.barrier
func.func @match(%n: index, %in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %p = llvm.getelementptr %in[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %any = llvm.call_intrinsic "llvm.nvvm.match.any.sync.i32"(%m, %v) : (i32, i32) -> i32
      %all = llvm.call_intrinsic "llvm.nvvm.match.all.sync.i32p"(%m, %v) : (i32, i32) -> !llvm.struct<(i32, i1)>
      %allMask = llvm.extractvalue %all[0] : !llvm.struct<(i32, i1)>
      %sum = llvm.add %any, %allMask : i32
      %q = llvm.getelementptr %out[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %sum, %q : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// A counted loop that clang rotated into a `while` whose condition is the
// same in every lane: emitted once for all lanes with its counter as one
// scalar (no lane mask, no running lanes carried). The counter-indexed
// store to each lane's row of 9 elements keeps known lane distances (36
// bytes) and is one scatter; the shuffle by the counter gathers.
// CHECK-LABEL: func.func @rotated_loop(
// CHECK: scf.for
// CHECK: scf.while (%[[K:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK: llvm.intr.masked.gather
// CHECK: %[[DIST:.*]] = llvm.mlir.constant(dense<[0, 36, 72, 108, 144, 180, 216, 252, 288, 324, 360, 396, 432, 468, 504, 540, 576, 612, 648, 684, 720, 756, 792, 828, 864, 900, 936, 972, 1008, 1044, 1080, 1116]> : vector<32xi64>)
// CHECK: %[[ADDRS:.*]] = llvm.getelementptr %{{.*}}[%[[DIST]]] : (!llvm.ptr, vector<32xi64>) -> vector<32x!llvm.ptr>, i8
// CHECK: llvm.intr.masked.scatter %{{.*}}, %[[ADDRS]], %{{.*}} {alignment = 4 : i32} : vector<32xi32>, vector<32xi1> into vector<32x!llvm.ptr>
// CHECK: %[[NEXT:.*]] = llvm.add %[[K]], %{{.*}} : i32
// CHECK: %[[MORE:.*]] = llvm.icmp "slt" %[[NEXT]], %{{.*}} : i32
// CHECK: scf.condition(%[[MORE]]) %[[NEXT]] : i32
// CHECK-NOT: llvm.store %{{.*}} : i32, !llvm.ptr
func.func @rotated_loop(%n: index, %in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %p = llvm.getelementptr %in[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %eight = llvm.mlir.constant(8 : i32) : i32
      %c9 = arith.constant 9 : index
      %rowIndex = arith.muli %t, %c9 : index
      %row = arith.index_castui %rowIndex : index to i64
      %r = llvm.getelementptr %out[%row] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %last = scf.while (%k = %zero) : (i32) -> i32 {
        %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%m, %v, %k, %c31) : (i32, i32, i32, i32) -> i32
        %q = llvm.getelementptr %r[%k] : (!llvm.ptr, i32) -> !llvm.ptr, i32
        llvm.store %s, %q : i32, !llvm.ptr
        %next = llvm.add %k, %one : i32
        %more = llvm.icmp "slt" %next, %eight : i32
        scf.condition(%more) %next : i32
      } do {
      ^bb0(%k: i32):
        scf.yield %k : i32
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Lane addresses that follow no known pattern (an index loaded from
// memory): the address computation is one GEP giving the lanes' pointers,
// the load through them one gather, the store one scatter.
// CHECK-LABEL: func.func @loaded_index(
// CHECK: scf.for
// CHECK: %[[IDX:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<32xi32>
// CHECK: %[[ADDRS:.*]] = llvm.getelementptr %{{.*}}[%[[IDX]]] : (!llvm.ptr, vector<32xi32>) -> vector<32x!llvm.ptr>, f32
// CHECK: %[[V:.*]] = llvm.intr.masked.gather %[[ADDRS]], %{{.*}}, %{{.*}} {alignment = 4 : i32}
// CHECK: %[[S:.*]] = llvm.shufflevector %[[V]], %[[V]] [1, 0
// CHECK: llvm.intr.masked.scatter %[[S]], %[[ADDRS]], %{{.*}} {alignment = 4 : i32} : vector<32xf32>, vector<32xi1> into vector<32x!llvm.ptr>
// CHECK-NOT: llvm.extractelement
// CHECK: scf.if
func.func @loaded_index(%n: index, %idx: !llvm.ptr, %data: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %ti = arith.index_castui %t : index to i32
      %ip = llvm.getelementptr %idx[%ti] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %i = llvm.load %ip : !llvm.ptr -> i32
      %p = llvm.getelementptr %data[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%m, %v, %one, %c31) : (i32, f32, i32, i32) -> f32
      llvm.store %s, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
