// RUN: %respec-opt --respec-forward-shared-stores --split-input-file %s | FileCheck %s

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// A 1-D tile of 64 threads with a halo cell on each side. Each read after
// the barrier recomputes the writer's value: s[t] is in[i - 1], loaded by
// thread t - 1 or, for thread 0, by its halo branch `i > 0 ? in[i - 1] :
// 0`; s[t + 2] is in[i + 1], loaded by thread t + 1 or, for thread 63, by
// its halo branch. The halo branches compute the neighbours' values for
// every thread (`i > 0` holds for t > 0), so each read is the halo's
// computation for all threads, without tests on the thread index. The copy
// without the barrier and the tile runs when `in` and `out` lie in
// different allocations (tested once, in front of the grid loop); the
// original runs otherwise.
// CHECK-LABEL: func.func @halo(
// CHECK-SAME: %[[IN:[^:]+]]: !llvm.ptr, %[[OUT:[^:]+]]: !llvm.ptr
// CHECK: %[[D:.+]] = llvm.call @__respec_distinct_allocations(%[[IN]], %[[OUT]])
// CHECK: %[[OK:.+]] = llvm.icmp "ne" %[[D]]
// CHECK: scf.if %[[OK]] {
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[T:.+]]) =
// CHECK-NOT: respec.barrier
// CHECK-NOT: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
// CHECK-NOT: arith.cmpi
// CHECK: %[[SRC:.+]] = llvm.getelementptr inbounds %[[IN]]
// CHECK: %[[INSIDE:.+]] = llvm.icmp "sgt"
// CHECK: %[[L:.+]] = scf.if %[[INSIDE]] -> (f32) {
// CHECK: llvm.getelementptr %[[SRC]][-1]
// CHECK: } else {
// CHECK: %[[RP:.+]] = llvm.getelementptr %[[SRC]][1]
// CHECK: %[[R:.+]] = llvm.load %[[RP]]
// CHECK: llvm.fadd %[[L]], %[[R]]
// CHECK-NOT: respec.barrier
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
// CHECK: } else {
// CHECK: respec.barrier
func.func @halo(%in: !llvm.ptr, %out: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = llvm.mlir.constant(264 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i32
    scf.parallel (%tx) = (%c0) to (%c64) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %c6 = llvm.mlir.constant(6 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %fzero = llvm.mlir.constant(0.0 : f32) : f32
      %base = llvm.shl %b, %c6 overflow<nsw, nuw> : i32
      %i = llvm.add %base, %t overflow<nsw, nuw> : i32
      %i64 = llvm.sext %i : i32 to i64
      %src = llvm.getelementptr inbounds %in[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %t1 = llvm.add %t, %one overflow<nsw, nuw> : i32
      %t164 = llvm.zext nneg %t1 : i32 to i64
      %slot = llvm.getelementptr %shared[%t164] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %sel = arith.index_cast %t : i32 to index
      scf.index_switch %sel
      case 0 {
        %inside = llvm.icmp "sgt" %i, %zero : i32
        %h = scf.if %inside -> (f32) {
          %im1 = llvm.sub %i64, %i64 : i64
          %p = llvm.getelementptr %src[-1] : (!llvm.ptr) -> !llvm.ptr, f32
          %hv = llvm.load %p : !llvm.ptr -> f32
          scf.yield %hv : f32
        } else {
          scf.yield %fzero : f32
        }
        llvm.store %h, %shared : f32, !llvm.ptr
        scf.yield
      }
      case 63 {
        %p = llvm.getelementptr %src[1] : (!llvm.ptr) -> !llvm.ptr, f32
        %hv = llvm.load %p : !llvm.ptr -> f32
        %end = llvm.getelementptr %shared[65] : (!llvm.ptr) -> !llvm.ptr, f32
        llvm.store %hv, %end : f32, !llvm.ptr
        scf.yield
      }
      default {
      }
      respec.barrier(%tx)
      %tz = llvm.zext nneg %t : i32 to i64
      %left = llvm.getelementptr %shared[%tz] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %l = llvm.load %left : !llvm.ptr -> f32
      %right = llvm.getelementptr %left[2] : (!llvm.ptr) -> !llvm.ptr, f32
      %r = llvm.load %right : !llvm.ptr -> f32
      %sum = llvm.fadd %l, %r : f32
      %dst = llvm.getelementptr inbounds %out[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %sum, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// Left alone: the block writes the array it read (in place); recomputing
// a neighbour's value after the barrier could read what another thread
// already stored.
// CHECK-LABEL: func.func @in_place(
// CHECK-NOT: __respec_distinct_allocations
// CHECK: respec.barrier
func.func @in_place(%a: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = llvm.mlir.constant(256 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i64
    scf.parallel (%tx) = (%c0) to (%c64) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c64i = llvm.mlir.constant(64 : i64) : i64
      %base = llvm.mul %b, %c64i overflow<nsw, nuw> : i64
      %i = llvm.add %base, %t overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %slot = llvm.getelementptr %shared[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      respec.barrier(%tx)
      %c63 = llvm.mlir.constant(63 : i64) : i64
      %mirror = llvm.sub %c63, %t : i64
      %other = llvm.getelementptr %shared[%mirror] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %w = llvm.load %other : !llvm.ptr -> f32
      llvm.store %w, %src : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// Left alone: which thread wrote the location a read reads depends on data
// (`s[in[i] & 63]`), and a tile 16 threads wide whose halo column would
// split rows into pieces of 1, 14 and 1 threads.
// CHECK-LABEL: func.func @data_dependent(
// CHECK-NOT: __respec_distinct_allocations
// CHECK: respec.barrier
func.func @data_dependent(%in: !llvm.ptr, %out: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = llvm.mlir.constant(256 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i64
    scf.parallel (%tx) = (%c0) to (%c64) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c64i = llvm.mlir.constant(64 : i64) : i64
      %mask = llvm.mlir.constant(63 : i64) : i64
      %base = llvm.mul %b, %c64i overflow<nsw, nuw> : i64
      %i = llvm.add %base, %t overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      %v = llvm.load %src : !llvm.ptr -> i64
      %slot = llvm.getelementptr %shared[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      llvm.store %v, %slot : i64, !llvm.ptr
      respec.barrier(%tx)
      %k = llvm.and %v, %mask : i64
      %other = llvm.getelementptr %shared[%k] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      %w = llvm.load %other : !llvm.ptr -> i64
      %dst = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      llvm.store %w, %dst : i64, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// A 16-wide tile with a halo cell on the right: thread 15 loads in[i + 1]
// for its neighbour, which is what thread t + 1 loads for every other
// thread. The read is one load of in[i + 1] for all threads: no test on
// the thread index splits the narrow rows.
// CHECK-LABEL: func.func @narrow_halo(
// CHECK-SAME: %[[IN:[^:]+]]: !llvm.ptr, %[[OUT:[^:]+]]: !llvm.ptr
// CHECK: llvm.call @__respec_distinct_allocations
// CHECK: scf.parallel
// CHECK-NEXT: llvm.call @__respec_shared_memory
// CHECK-NEXT: arith.index_castui
// CHECK-NEXT: scf.parallel
// CHECK-NOT: respec.barrier
// CHECK-NOT: scf.if
// CHECK: %[[SRC:.+]] = llvm.getelementptr inbounds %[[IN]]
// CHECK: %[[NEXT:.+]] = llvm.getelementptr %[[SRC]][1]
// CHECK: %[[V:.+]] = llvm.load %[[NEXT]]
// CHECK: llvm.store %[[V]]
// CHECK: } else {
// CHECK: respec.barrier
func.func @narrow_halo(%in: !llvm.ptr, %out: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(68 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i64
    scf.parallel (%tx) = (%c0) to (%c16) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c16i = llvm.mlir.constant(16 : i64) : i64
      %base = llvm.mul %b, %c16i overflow<nsw, nuw> : i64
      %i = llvm.add %base, %t overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %slot = llvm.getelementptr %shared[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %sel = arith.index_cast %t : i64 to index
      scf.index_switch %sel
      case 15 {
        %p = llvm.getelementptr %src[1] : (!llvm.ptr) -> !llvm.ptr, f32
        %hv = llvm.load %p : !llvm.ptr -> f32
        %end = llvm.getelementptr %shared[16] : (!llvm.ptr) -> !llvm.ptr, f32
        llvm.store %hv, %end : f32, !llvm.ptr
        scf.yield
      }
      default {
      }
      respec.barrier(%tx)
      %next = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %w = llvm.load %next : !llvm.ptr -> f32
      %dst = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// A halo row stored through a pointer and a flag that clang merged out of
// `if (ty == 0) t[0][tx] = row > 0 ? in[k - 64] : self;`: the flag and the
// address come from a branch on a condition the block index decides
// (poison on the path that does not store). For thread row 0 both paths
// store to row 0 of the tile, so the read of t[ty][tx] is known: the halo
// branch for ty == 0, the row above otherwise. The halo branch along the
// path of row 0 (its index_switch case inlined) computes the row above for
// every thread (`row == 0` is false for ty > 0), so it serves all rows,
// without the flags that held only on that path (no inbounds on the
// recomputed address).
// CHECK-LABEL: func.func @merged_halo_store(
// CHECK: llvm.call @__respec_distinct_allocations
// CHECK: scf.parallel
// CHECK: scf.parallel (%{{.+}}, %[[TY:.+]], %{{.+}}) =
// CHECK-NOT: respec.barrier
// CHECK-NOT: arith.cmpi
// CHECK: %[[ROW:.+]] = llvm.add %{{.+}}, %{{.+}} overflow<nsw, nuw> : i64
// CHECK: %[[TOP:.+]] = llvm.icmp "eq" %[[ROW]]
// CHECK: %[[V:.+]]:3 = scf.if %[[TOP]] -> (!llvm.ptr, f32, i32) {
// CHECK: } else {
// CHECK: llvm.getelementptr %{{.+}}[-64] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: llvm.store %[[V]]#1
// CHECK: } else {
// CHECK: respec.barrier
func.func @merged_halo_store(%in: !llvm.ptr, %out: !llvm.ptr, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %bytes = llvm.mlir.constant(768 : i64) : i64
  scf.parallel (%by) = (%c0) to (%gy) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %by : index to i64
    scf.parallel (%z, %ty, %tx) = (%c0, %c0, %c0) to (%c1, %c2, %c64) step (%c1, %c1, %c1) {
      %x = arith.index_castui %tx : index to i64
      %y = arith.index_castui %ty : index to i64
      %c64i = llvm.mlir.constant(64 : i64) : i64
      %c2i = llvm.mlir.constant(2 : i64) : i64
      %zero = llvm.mlir.constant(0 : i64) : i64
      %one = llvm.mlir.constant(1 : i32) : i32
      %none = llvm.mlir.constant(0 : i32) : i32
      %pptr = llvm.mlir.poison : !llvm.ptr
      %pval = llvm.mlir.poison : f32
      %rb = llvm.mul %b, %c2i overflow<nsw, nuw> : i64
      %row = llvm.add %rb, %y overflow<nsw, nuw> : i64
      %rk = llvm.mul %row, %c64i overflow<nsw, nuw> : i64
      %k = llvm.add %rk, %x overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %in[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %self = llvm.load %src : !llvm.ptr -> f32
      %rowbase = llvm.getelementptr %shared[%y, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x f32>
      %mine = llvm.getelementptr %rowbase[1, %x] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x f32>
      llvm.store %self, %mine : f32, !llvm.ptr
      %r:3 = scf.index_switch %ty -> !llvm.ptr, f32, i32
      case 0 {
        %top = llvm.icmp "eq" %row, %zero : i64
        %v:3 = scf.if %top -> (!llvm.ptr, f32, i32) {
          scf.yield %shared, %self, %one : !llvm.ptr, f32, i32
        } else {
          %up = llvm.getelementptr inbounds %src[-64] : (!llvm.ptr) -> !llvm.ptr, f32
          %u = llvm.load %up : !llvm.ptr -> f32
          scf.yield %shared, %u, %one : !llvm.ptr, f32, i32
        }
        scf.yield %v#0, %v#1, %v#2 : !llvm.ptr, f32, i32
      }
      default {
        scf.yield %pptr, %pval, %none : !llvm.ptr, f32, i32
      }
      %flag = arith.index_castui %r#2 : i32 to index
      scf.index_switch %flag
      case 0 {
        scf.yield
      }
      default {
        %halo = llvm.getelementptr %r#0[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %r#1, %halo : f32, !llvm.ptr
      }
      respec.barrier(%z, %ty, %tx)
      %above = llvm.getelementptr %rowbase[0, %x] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x f32>
      %a = llvm.load %above : !llvm.ptr -> f32
      %dst = llvm.getelementptr inbounds %out[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %a, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// The halo cell of a 16-wide tile at the array's end: thread 15 stores
// `i < n - 1 ? in[i + 1] : in[i]`. For the other threads the condition
// may fail too (a block past the end of the array), where they still read
// their neighbour's in[i + 1]: the read is the halo's branch for every
// thread, taking its first region also where the condition fails outside
// thread 15. No shared memory, no barrier, no split of the row.
// CHECK-LABEL: func.func @edge_halo(
// CHECK: llvm.call @__respec_distinct_allocations
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[T:.+]]) =
// CHECK-NOT: respec.barrier
// CHECK: %[[SRC:.+]] = llvm.getelementptr inbounds
// CHECK: llvm.load %[[SRC]]
// CHECK: %[[BOX:.+]] = arith.cmpi uge, %[[T]], %c15
// CHECK: %[[LAST:.+]] = llvm.sub %{{.+}}, %{{.+}} : i64
// CHECK: %[[INSIDE:.+]] = llvm.icmp "slt" %{{.+}}, %[[LAST]]
// CHECK: %[[OUTSIDE:.+]] = arith.xori %[[BOX]], %true
// CHECK: %[[COND:.+]] = arith.ori %[[INSIDE]], %[[OUTSIDE]]
// CHECK: %[[V:.+]] = scf.if %[[COND]] -> (f32) {
// CHECK: llvm.getelementptr %[[SRC]][1]
// CHECK: } else {
// CHECK: llvm.store %[[V]]
// CHECK: } else {
// CHECK: respec.barrier
func.func @edge_halo(%in: !llvm.ptr, %out: !llvm.ptr, %gx: index, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(68 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i64
    scf.parallel (%tx) = (%c0) to (%c16) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c16i = llvm.mlir.constant(16 : i64) : i64
      %base = llvm.mul %b, %c16i overflow<nsw, nuw> : i64
      %i = llvm.add %base, %t overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %slot = llvm.getelementptr %shared[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %sel = arith.index_cast %t : i64 to index
      scf.index_switch %sel
      case 15 {
        %one = llvm.mlir.constant(1 : i64) : i64
        %last = llvm.sub %n, %one overflow<nsw> : i64
        %inside = llvm.icmp "slt" %i, %last : i64
        %h = scf.if %inside -> (f32) {
          %p = llvm.getelementptr %src[1] : (!llvm.ptr) -> !llvm.ptr, f32
          %hv = llvm.load %p : !llvm.ptr -> f32
          scf.yield %hv : f32
        } else {
          scf.yield %v : f32
        }
        %end = llvm.getelementptr %shared[16] : (!llvm.ptr) -> !llvm.ptr, f32
        llvm.store %h, %end : f32, !llvm.ptr
        scf.yield
      }
      default {
      }
      respec.barrier(%tx)
      %next = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %w = llvm.load %next : !llvm.ptr -> f32
      %dst = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// Left alone: thread 15 stores a constant in the halo cell, not what its
// neighbour would have loaded, so the read keeps a test on thread 15, which
// would split the 16-wide rows.
// CHECK-LABEL: func.func @constant_halo(
// CHECK-NOT: __respec_distinct_allocations
// CHECK: respec.barrier
func.func @constant_halo(%in: !llvm.ptr, %out: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(68 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i64
    scf.parallel (%tx) = (%c0) to (%c16) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c16i = llvm.mlir.constant(16 : i64) : i64
      %base = llvm.mul %b, %c16i overflow<nsw, nuw> : i64
      %i = llvm.add %base, %t overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %slot = llvm.getelementptr %shared[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %sel = arith.index_cast %t : i64 to index
      scf.index_switch %sel
      case 15 {
        %zero = llvm.mlir.constant(0.0 : f32) : f32
        %end = llvm.getelementptr %shared[16] : (!llvm.ptr) -> !llvm.ptr, f32
        llvm.store %zero, %end : f32, !llvm.ptr
        scf.yield
      }
      default {
      }
      respec.barrier(%tx)
      %next = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %w = llvm.load %next : !llvm.ptr -> f32
      %dst = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr

// Left alone: thread 15's halo value is its neighbour's in[i + 1] (the
// select's condition holds for every thread), but the select also loads
// other[i + 100], which only thread 15 loads: running the halo's
// computation for the other threads would load addresses the program never
// reads (possibly past an allocation's end). Without the merge, the test
// on thread 15 would split the 16-wide rows.
// CHECK-LABEL: func.func @speculative_halo_load(
// CHECK-NOT: __respec_distinct_allocations
// CHECK: respec.barrier
func.func @speculative_halo_load(%in: !llvm.ptr, %other: !llvm.ptr,
                                 %out: !llvm.ptr, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(68 : i64) : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %b = arith.index_castui %bx : index to i64
    scf.parallel (%tx) = (%c0) to (%c16) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c16i = llvm.mlir.constant(16 : i64) : i64
      %base = llvm.mul %b, %c16i overflow<nsw, nuw> : i64
      %i = llvm.add %base, %t overflow<nsw, nuw> : i64
      %src = llvm.getelementptr inbounds %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %src : !llvm.ptr -> f32
      %slot = llvm.getelementptr %shared[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %sel = arith.index_cast %t : i64 to index
      scf.index_switch %sel
      case 15 {
        %limit = llvm.mlir.constant(1000 : i64) : i64
        %small = llvm.icmp "slt" %t, %limit : i64
        %p = llvm.getelementptr %src[1] : (!llvm.ptr) -> !llvm.ptr, f32
        %a = llvm.load %p : !llvm.ptr -> f32
        %q = llvm.getelementptr %other[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %far = llvm.getelementptr %q[100] : (!llvm.ptr) -> !llvm.ptr, f32
        %o = llvm.load %far : !llvm.ptr -> f32
        %h = llvm.select %small, %a, %o : i1, f32
        %end = llvm.getelementptr %shared[16] : (!llvm.ptr) -> !llvm.ptr, f32
        llvm.store %h, %end : f32, !llvm.ptr
        scf.yield
      }
      default {
      }
      respec.barrier(%tx)
      %next = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %w = llvm.load %next : !llvm.ptr -> f32
      %dst = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
