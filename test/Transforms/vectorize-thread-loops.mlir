// RUN: %respec-opt --respec-vectorize-thread-loops %s | FileCheck %s
// RUN: %respec-opt --respec-vectorize-thread-loops=lanes=4 %s | FileCheck %s --check-prefix=FOUR

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
llvm.func @opaque(f32) -> f32

// A serial loop all threads run alike: the thread loop steps by 8 lanes,
// the per-thread accumulator is a vector carried by the loop, the tile
// element all lanes read is one scalar load, the per-thread slot a vector
// load and store, sqrt a vector intrinsic. Threads 96..99 run in the
// original loop.
// CHECK-LABEL: func.func @uniform_loop(
// CHECK-SAME: %[[ACC:[^:]*]]: !llvm.ptr, %[[TILE:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: index)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C100:.*]] = arith.constant 100 : index
// CHECK: %[[END:.*]] = arith.addi
// CHECK: scf.parallel (%[[X:.*]]) = (%{{.*}}) to (%[[END]]) step (%[[C8]]) {
// CHECK: %[[LANES:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK: %[[SLOTS:.*]] = llvm.getelementptr %{{.*}}[%[[LANES]]] : (vector<8x!llvm.ptr>, vector<8xi64>) -> vector<8x!llvm.ptr>, f32
// CHECK: %[[FIRST:.*]] = llvm.extractelement %[[SLOTS]]
// CHECK: %[[INIT:.*]] = llvm.load %[[FIRST]] {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[S:.*]] = %[[INIT]]) -> (vector<8xf32>) {
// CHECK: %[[TP:.*]] = llvm.getelementptr %[[TILE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[T:.*]] = llvm.load %[[TP]] : !llvm.ptr -> f32
// CHECK: %[[TV:.*]] = llvm.shufflevector
// CHECK: %[[D:.*]] = llvm.fsub %[[TV]], %[[INIT]] : vector<8xf32>
// CHECK: %[[SQ:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[D]]) : (vector<8xf32>) -> vector<8xf32>
// CHECK: %[[NEXT:.*]] = llvm.fadd %[[S]], %[[SQ]] : vector<8xf32>
// CHECK: scf.yield %[[NEXT]] : vector<8xf32>
// CHECK: llvm.store %[[SUM]], %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
// CHECK: } {respec.parallel_level = "block"}
// CHECK: scf.parallel (%{{.*}}) = (%[[END]]) to (%[[C100]]) step (%{{.*}}) {
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: } {respec.parallel_level = "block"}
// FOUR-LABEL: func.func @uniform_loop(
// FOUR: step (%c4)
// FOUR: vector<4xf32>
func.func @uniform_loop(%acc: !llvm.ptr, %tile: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%x) = (%c0) to (%c100) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %slot = llvm.getelementptr %acc[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %init = llvm.load %slot {alignment = 4 : i64} : !llvm.ptr -> f32
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%s = %init) -> (f32) {
      %ji = arith.index_castui %j : index to i64
      %tp = llvm.getelementptr %tile[%ji] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %t = llvm.load %tp : !llvm.ptr -> f32
      %d = llvm.fsub %t, %init : f32
      %sq = llvm.call_intrinsic "llvm.sqrt.f32"(%d) : (f32) -> f32
      %next = llvm.fadd %s, %sq : f32
      scf.yield %next : f32
    }
    llvm.store %sum, %slot : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// Each thread runs its own trip count: the loop runs while any lane is
// active; the counter all lanes share stays scalar, and each lane's result
// is the value it had when it left (selected into a carried vector). Lane
// conditions are frozen before they become masks (inactive lanes may hold
// poison).
// CHECK-LABEL: func.func @divergent_loop(
// CHECK: scf.parallel
// CHECK: %[[M:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<8xi32>
// CHECK: %[[ALL:.*]] = llvm.mlir.constant(dense<true> : vector<8xi1>)
// CHECK: %[[R:.*]]:5 = scf.while (%[[I:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %[[ACTIVE:.*]] = %[[ALL]], %{{.*}} = %{{.*}}, %[[KEPT:.*]] = %{{.*}}) : (i32, i32, vector<8xi1>, vector<8xi32>, vector<8xi32>)
// CHECK: %[[GO:.*]] = llvm.icmp "slt" %{{.*}}, %[[M]] : vector<8xi32>
// CHECK: %[[GOF:.*]] = llvm.freeze %[[GO]] : vector<8xi1>
// CHECK: %[[STAY:.*]] = llvm.and %[[ACTIVE]], %[[GOF]] : vector<8xi1>
// CHECK: %[[LEAVE:.*]] = llvm.and %[[ACTIVE]], %{{.*}} : vector<8xi1>
// CHECK: llvm.select %[[LEAVE]], %{{.*}}, %[[KEPT]]
// CHECK: %[[ANY:.*]] = "llvm.intr.vector.reduce.or"(%[[STAY]])
// CHECK: scf.condition(%[[ANY]])
// CHECK: } do {
// CHECK: llvm.add %{{.*}} : i32
// CHECK: llvm.store %[[R]]#4, %{{.*}} : vector<8xi32>, !llvm.ptr
// CHECK: } {respec.parallel_level = "block"}
func.func @divergent_loop(%count: !llvm.ptr, %out: !llvm.ptr, %nx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  scf.parallel (%x) = (%c0) to (%nx) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %cp = llvm.getelementptr %count[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %m = llvm.load %cp : !llvm.ptr -> i32
    %r:2 = scf.while (%i = %z, %a = %z) : (i32, i32) -> (i32, i32) {
      %go = llvm.icmp "slt" %i, %m : i32
      scf.condition(%go) %i, %a : i32, i32
    } do {
    ^bb0(%i: i32, %a: i32):
      %a2 = llvm.add %a, %i : i32
      %i2 = llvm.add %i, %one : i32
      scf.yield %i2, %a2 : i32, i32
    }
    %op = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    llvm.store %r#1, %op : i32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A branch on the thread index runs under a lane mask: the store becomes a
// masked store, the division by a value inactive lanes may not see gets 1
// in those lanes; a load with a stride of 4 elements is a gather. Only x
// is vectorized, y stays a scalar loop dimension.
// CHECK-LABEL: func.func @masked_branch(
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %c8)
// CHECK: llvm.intr.masked.gather %{{.*}} : (vector<8x!llvm.ptr>, vector<8xi1>) -> vector<8xi32>
// CHECK: %[[LT:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK: %[[MASK:.*]] = llvm.freeze %[[LT]] : vector<8xi1>
// CHECK: scf.for
// CHECK: %[[SAFE:.*]] = llvm.select %[[MASK]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi32>
// CHECK: llvm.sdiv %{{.*}}, %[[SAFE]] : vector<8xi32>
// CHECK: llvm.intr.masked.store %{{.*}}, %{{.*}}, %[[MASK]]
// CHECK-NOT: scf.if
// CHECK: } {respec.parallel_level = "block"}
func.func @masked_branch(%p: !llvm.ptr, %q: !llvm.ptr, %n: index, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %x3 = arith.muli %x, %c4 : index
    %xi = arith.index_castui %x3 : index to i64
    %src = llvm.getelementptr %q[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %v = llvm.load %src : !llvm.ptr -> i32
    %even = arith.cmpi ult, %x, %c4 : index
    scf.if %even {
      %w = scf.for %j = %c0 to %n step %c1 iter_args(%s = %v) -> (i32) {
        %d = llvm.sdiv %s, %k : i32
        scf.yield %d : i32
      }
      %yi = arith.index_castui %x : index to i64
      %dst = llvm.getelementptr %p[%yi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %w, %dst : i32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// Left alone: a call, a block-serial access that is not a whole localized
// atomic (a load and a store to the same address with only pure operations
// between them), no serial loop (LLVM vectorizes it), fewer threads than
// lanes.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: vector<
// CHECK-NOT: step (%c8
// CHECK: return
func.func @left_alone(%p: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %p[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    scf.for %j = %c0 to %n step %c1 {
      %v = llvm.load %a : !llvm.ptr -> f32
      %w = llvm.call @opaque(%v) : (f32) -> f32
      llvm.store %w, %a : f32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %p[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    scf.for %j = %c0 to %n step %c1 {
      %v = llvm.load %p {respec.block_serial} : !llvm.ptr -> i32
      llvm.store %v, %a {respec.block_serial} : i32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %p[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %a : !llvm.ptr -> f32
    %w = llvm.fadd %v, %v : f32
    llvm.store %w, %a : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  scf.parallel (%x) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %ji = arith.index_castui %j : index to i64
      llvm.store %ji, %p : i64, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// Flags (i1) take a byte each in memory, but LLVM packs a vector of i1
// into bits: consecutive flags are stored as a vector of i8.
// CHECK-LABEL: func.func @flags(
// CHECK: %[[WIDE:.*]] = llvm.zext %{{.*}} : vector<8xi1> to vector<8xi8>
// CHECK: llvm.store %[[WIDE]], %{{.*}} : vector<8xi8>, !llvm.ptr
func.func @flags(%p: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %w = scf.for %j = %c0 to %n step %c1 iter_args(%s = %x) -> (index) {
      %t = arith.addi %s, %j : index
      scf.yield %t : index
    }
    %odd = arith.cmpi ult, %w, %n : index
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %p[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i1
    llvm.store %odd, %a : i1, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// 32-bit index arithmetic (`int i = base + threadIdx.x`): the lanes are
// consecutive unless the index wraps around between them, which is checked
// at run time from the first and last lanes of the extended index; a wrap
// takes the gather.
// CHECK-LABEL: func.func @narrow_index(
// CHECK: %[[EXT:.*]] = llvm.sext %{{.*}} : vector<8xi32> to vector<8xi64>
// CHECK: %[[F:.*]] = llvm.extractelement %[[EXT]]
// CHECK: %[[L:.*]] = llvm.extractelement %[[EXT]]
// CHECK: %[[SPAN:.*]] = llvm.sub %[[L]], %[[F]] : i64
// CHECK: %[[SEVEN:.*]] = llvm.mlir.constant(7 : i64) : i64
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[SPAN]], %[[SEVEN]] : i64
// CHECK: %[[OK:.*]] = llvm.freeze %[[EQ]] : i1
// CHECK: scf.for
// CHECK: scf.if %[[OK]] -> (vector<8xf32>) {
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xf32>
// CHECK: } else {
// CHECK: llvm.intr.masked.gather
// CHECK: scf.if %[[OK]] {
// CHECK: llvm.store %{{.*}} : vector<8xf32>, !llvm.ptr
// CHECK: } else {
// CHECK: llvm.intr.masked.scatter
func.func @narrow_index(%p: !llvm.ptr, %q: !llvm.ptr, %base: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i32
    %i = llvm.add %base, %xi : i32
    %i64 = llvm.sext %i : i32 to i64
    %a = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = llvm.load %a : !llvm.ptr -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      scf.yield %acc2 : f32
    }
    %b = llvm.getelementptr %q[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %s, %b : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A loop counter that starts at the thread index and steps by a uniform
// amount (`for (k = threadIdx.x; k < n; k += 64)`) keeps the lanes
// consecutive: masked vector loads, not gathers.
// CHECK-LABEL: func.func @strided_loop(
// CHECK: scf.while
// CHECK: } do {
// CHECK: llvm.intr.masked.load %{{.*}} : (!llvm.ptr, vector<8xi1>) -> vector<8xf32>
// CHECK-NOT: masked.gather
// CHECK: return
func.func @strided_loop(%p: !llvm.ptr, %q: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %r:2 = scf.while (%k = %x, %acc = %zero) : (index, f32) -> (index, f32) {
      %go = arith.cmpi ult, %k, %n : index
      scf.condition(%go) %k, %acc : index, f32
    } do {
    ^bb0(%k: index, %acc: f32):
      %ki = arith.index_castui %k : index to i64
      %a = llvm.getelementptr %p[%ki] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %a : !llvm.ptr -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      %k2 = arith.addi %k, %c64 : index
      scf.yield %k2, %acc2 : index, f32
    }
    %xi = arith.index_castui %x : index to i64
    %b = llvm.getelementptr %q[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %r#1, %b : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A math intrinsic of lane-invariant operands runs once, as a scalar, and
// does not keep the loop from being vectorized.
// CHECK-LABEL: func.func @uniform_call(
// CHECK: step (%c8)
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%{{.*}}) : (f32) -> f32
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
func.func @uniform_call(%p: !llvm.ptr, %n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %r = llvm.call_intrinsic "llvm.sqrt.f32"(%f) : (f32) -> f32
    %xi = arith.index_castui %x : index to i64
    %a = llvm.getelementptr %p[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %a : !llvm.ptr -> f32
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %v) -> (f32) {
      %acc2 = llvm.fadd %acc, %r : f32
      scf.yield %acc2 : f32
    }
    llvm.store %s, %a : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// The rotated form clang gives `for (int k = tid; k < n; k += 256)`: the
// counter is a 32-bit thread index extended to 64 bits (consecutive under a
// run-time no-wrap check computed before the loop), the condition is tested
// at the bottom, and CFG structuring forwards it through an `if` whose exit
// side yields poison. The counter keeps its stride through that `if` and
// into the after region, so the loads are vector loads under the check,
// with gathers only as the fallback.
// CHECK-LABEL: func.func @rotated_strided_loop(
// CHECK: %[[OK:.*]] = llvm.freeze %{{.*}} : i1
// CHECK: scf.while
// CHECK: scf.if %[[OK]] -> (vector<8xf32>) {
// CHECK: llvm.intr.masked.load
// CHECK: } else {
// CHECK: llvm.intr.masked.gather
// CHECK: scf.condition
// CHECK: return
func.func @rotated_strided_loop(%p: !llvm.ptr, %q: !llvm.ptr, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %step = llvm.mlir.constant(256 : i64) : i64
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %poison_i = llvm.mlir.poison : i64
  %poison_f = llvm.mlir.poison : f32
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
    %xi = arith.index_castui %x : index to i32
    %k0 = llvm.zext nneg %xi : i32 to i64
    %r:3 = scf.while (%k = %k0, %acc = %zero, %out = %poison_f)
        : (i64, f32, f32) -> (i64, f32, f32) {
      %a = llvm.getelementptr inbounds|nuw %p[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %a : !llvm.ptr -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      %k2 = llvm.add %k, %step overflow<nsw, nuw> : i64
      %more = llvm.icmp "slt" %k2, %n : i64
      %next:4 = scf.if %more -> (i64, f32, f32, i32) {
        scf.yield %k2, %acc2, %poison_f, %c1_i32 : i64, f32, f32, i32
      } else {
        scf.yield %poison_i, %poison_f, %acc2, %c0_i32 : i64, f32, f32, i32
      }
      %go = arith.trunci %next#3 : i32 to i1
      scf.condition(%go) %next#0, %next#1, %next#2 : i64, f32, f32
    } do {
    ^bb0(%k: i64, %acc: f32, %out: f32):
      scf.yield %k, %acc, %out : i64, f32, f32
    }
    %xo = arith.index_castui %x : index to i64
    %b = llvm.getelementptr %q[%xo] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %r#2, %b : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A localized shared-memory atomic (`atomicAdd(&bins[best], 1)` turned into
// a block-serial load, add and store) after the vectorized work runs once
// per lane in lane order, each lane's read-modify-write whole and guarded by
// its lane of the mask; the old values are gathered into a vector. An
// atomic on an address all lanes share still runs once per lane.
// CHECK-LABEL: func.func @serial_atomics(
// CHECK: scf.parallel ({{.*}}) step (%c8)
// CHECK: scf.for {{.*}} -> (vector<8xi32>)
// CHECK-COUNT-8: scf.if %{{.*}} -> (i32) {
// CHECK-NEXT: llvm.load %{{.*}} {respec.block_serial} : !llvm.ptr -> i32
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.store %{{.*}} {respec.block_serial} : i32, !llvm.ptr
// CHECK: llvm.insertelement
// CHECK-COUNT-8: llvm.store %{{.*}}, %[[TOTAL:.*]] {respec.block_serial} : i32, !llvm.ptr
// CHECK: scf.reduce
func.func @serial_atomics(%p: !llvm.ptr, %q: !llvm.ptr, %n: index, %limit: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %bytes = llvm.mlir.constant(64 : i64) : i64
  %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i32
    %best = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %c0_i32) -> (i32) {
      %s = llvm.add %acc, %xi : i32
      %m = llvm.and %s, %one : i32
      scf.yield %m : i32
    }
    %inside = llvm.icmp "slt" %xi, %limit : i32
    scf.if %inside {
      %slot = llvm.getelementptr %shared[%best] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %old = llvm.load %slot {respec.block_serial} : !llvm.ptr -> i32
      %new = llvm.add %old, %one : i32
      llvm.store %new, %slot {respec.block_serial} : i32, !llvm.ptr
      %xo = arith.index_castui %x : index to i64
      %out = llvm.getelementptr %q[%xo] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %old, %out : i32, !llvm.ptr
    }
    %total = llvm.load %p {respec.block_serial} : !llvm.ptr -> i32
    %sum = llvm.add %total, %one : i32
    llvm.store %sum, %p {respec.block_serial} : i32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// A serial loop with per-thread state (the thread's edge index) that only
// moves integers between scattered addresses (a graph walk: each edge's
// target, then its cost, then a store back) is left scalar: gathers and
// scatters without floating-point work cost more than they save.
// CHECK-LABEL: func.func @graph_walk(
// CHECK-NOT: vector<
// CHECK: return
func.func @graph_walk(%start: !llvm.ptr, %adj: !llvm.ptr, %cost: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %xi = arith.index_castui %x : index to i64
    %s = llvm.getelementptr %start[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    %first = llvm.load %s : !llvm.ptr -> i64
    %mine = llvm.getelementptr %cost[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %c = llvm.load %mine : !llvm.ptr -> i32
    %next = llvm.add %c, %one : i32
    %step = llvm.mlir.constant(1 : i64) : i64
    %last = scf.for %j = %c0 to %n step %c1 iter_args(%e = %first) -> (i64) {
      %ea = llvm.getelementptr %adj[%e] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      %w = llvm.load %ea : !llvm.ptr -> i64
      %wa = llvm.getelementptr %cost[%w] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %next, %wa : i32, !llvm.ptr
      %e2 = llvm.add %e, %step : i64
      scf.yield %e2 : i64
    }
    llvm.store %last, %s : i64, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// Register-cache style indexing: the threads of a group of 16 work on one
// problem (`tid / 16`, or `tid & -16` as clang writes `tid / 16 * 16`) and
// lane `tid % 16` (or `tid & 15`) of it. Within a vector of 8 threads the
// lanes are consecutive unless they cross a group boundary, which a check
// of every lane against lane 0 plus its offset decides at run time; a
// crossing takes the gather.
// CHECK-LABEL: func.func @group_lanes(
// CHECK: %[[REM:.*]] = llvm.urem %{{.*}} : vector<8xi32>
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[REM]], %{{.*}} : vector<8xi32>
// CHECK: %[[ALL:.*]] = "llvm.intr.vector.reduce.and"(%[[EQ]]) : (vector<8xi1>) -> i1
// CHECK: llvm.freeze %[[ALL]] : i1
// CHECK: llvm.udiv %{{.*}} : vector<8xi32>
// CHECK: "llvm.intr.vector.reduce.and"
// CHECK: scf.for
// CHECK: scf.if %{{.*}} -> (vector<8xf32>) {
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xf32>
// CHECK: } else {
// CHECK: llvm.intr.masked.gather
// CHECK: llvm.and %{{.*}} : vector<8xi32>
// CHECK: "llvm.intr.vector.reduce.and"
// CHECK: llvm.and %{{.*}} : vector<8xi32>
// CHECK: "llvm.intr.vector.reduce.and"
// CHECK: scf.if %{{.*}} {
// CHECK: llvm.store %{{.*}} : vector<8xf32>, !llvm.ptr
// CHECK: } else {
// CHECK: llvm.intr.masked.scatter
// A mask that keeps neither only low nor only high bits has no stride.
// CHECK: llvm.and %{{.*}} : vector<8xi32>
// CHECK-NOT: "llvm.intr.vector.reduce.and"
// CHECK: llvm.intr.masked.scatter
// CHECK: return
func.func @group_lanes(%p: !llvm.ptr, %q: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %low = llvm.mlir.constant(15 : i32) : i32
  %high = llvm.mlir.constant(-16 : i32) : i32
  %odd = llvm.mlir.constant(5 : i32) : i32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
    %t = arith.index_castui %x : index to i32
    %lane = llvm.urem %t, %c16 : i32
    %problem = llvm.udiv %t, %c16 : i32
    %row0 = llvm.shl %problem, %c4 : i32
    %i = llvm.add %row0, %lane : i32
    %i64 = llvm.zext %i : i32 to i64
    %a = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = llvm.load %a : !llvm.ptr -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      scf.yield %acc2 : f32
    }
    %lane2 = llvm.and %t, %low : i32
    %base = llvm.and %t, %high : i32
    %k = llvm.or disjoint %base, %lane2 : i32
    %k64 = llvm.zext %k : i32 to i64
    %b = llvm.getelementptr %q[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %s, %b : f32, !llvm.ptr
    %m = llvm.and %t, %odd : i32
    %m64 = llvm.zext %m : i32 to i64
    %c = llvm.getelementptr %q[%m64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %s, %c : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// Localized shared atomics inside a serial loop without floating-point work
// (a byte histogram: each thread's loop adds its values' bins) are left
// scalar: one scalar read-modify-write per lane per iteration costs more
// than the vector loop saves.
// CHECK-LABEL: func.func @histogram_loop(
// CHECK-NOT: vector<
// CHECK: return
func.func @histogram_loop(%data: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  %mask = llvm.mlir.constant(255 : i32) : i32
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %row = arith.muli %j, %c64 : index
      %k = arith.addi %row, %x : index
      %k64 = arith.index_castui %k : index to i64
      %a = llvm.getelementptr %data[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %a : !llvm.ptr -> i32
      %bin = llvm.and %v, %mask : i32
      %slot = llvm.getelementptr %shared[%bin] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %old = llvm.load %slot {respec.block_serial} : !llvm.ptr -> i32
      %new = llvm.add %old, %one : i32
      llvm.store %new, %slot {respec.block_serial} : i32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// `tid | 1` marked disjoint under `if (tid % 32 == 0)`: the flag holds only
// in the active lane, and an inactive odd lane 0 breaks the sequence, so the
// stride of the `or` is checked on every lane like the other bit operations
// (extrapolating from lane 0 without the check loaded the wrong element).
// CHECK-LABEL: func.func @masked_disjoint_or(
// CHECK: %[[OR:.*]] = llvm.or disjoint %{{.*}} : vector<8xi32>
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[OR]], %{{.*}} : vector<8xi32>
// CHECK: "llvm.intr.vector.reduce.and"(%[[EQ]])
// CHECK: scf.if %{{.*}} -> (vector<8xi32>) {
// CHECK: llvm.intr.masked.load
// CHECK: } else {
// CHECK: llvm.intr.masked.gather
func.func @masked_disjoint_or(%p: !llvm.ptr, %q: !llvm.ptr, %base: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %low = llvm.mlir.constant(31 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  scf.parallel (%x) = (%c0) to (%c64) step (%c1) {
    %tid = arith.addi %base, %x : index
    %t = arith.index_castui %tid : index to i32
    %m = llvm.and %t, %low : i32
    %first = llvm.icmp "eq" %m, %zero : i32
    scf.if %first {
      %j = llvm.or disjoint %t, %one : i32
      %j64 = llvm.zext %j : i32 to i64
      %a = llvm.getelementptr %p[%j64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
        %v = llvm.load %a : !llvm.ptr -> i32
        %acc2 = llvm.add %acc, %v : i32
        scf.yield %acc2 : i32
      }
      %t64 = llvm.zext %t : i32 to i64
      %b = llvm.getelementptr %q[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %s, %b : i32, !llvm.ptr
    }
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
