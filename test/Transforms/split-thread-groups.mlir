// RUN: %respec-opt --respec-split-thread-groups -split-input-file %s | FileCheck %s
// RUN: %respec-opt "--respec-split-thread-groups=min-group=32" -split-input-file %s | FileCheck %s --check-prefix=MIN32

// A group of 16 threads per item (batched 16x16 matrices, 256 threads per
// block): item = (g + tx) >> 4, lane = tx & 15, the item's first element
// (g + tx) & -16, with g = bx * 256. The loop over x becomes (q, l) over
// (16, 16); the lane is l, the item (g + 16 q) >> 4 and the first element
// g + 16 q, which depend on q only. Other uses of x read 16 q + l.
// MIN32 (groups of at least 32 threads): left alone.
// CHECK-LABEL: func.func @groups_of_16(
// CHECK-SAME: %[[BX:[^:]*]]: i32
// CHECK: %[[G:.*]] = llvm.mul %[[BX]], %{{.*}} : i32
// CHECK: scf.parallel (%[[Z:.*]], %[[Y:.*]], %[[Q:.*]], %[[L:.*]]) = (%c0, %c0, %c0, %c0) to (%c1, %c1, %{{.*}}, %{{.*}}) step (%c1, %c1, %c1, %c1) {
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[QC:.*]] = arith.muli %[[Q]], %[[C16]] : index
// CHECK: %[[X:.*]] = arith.addi %[[QC]], %[[L]] : index
// CHECK: %[[XI:.*]] = arith.index_castui %[[X]] : index to i32
// CHECK: %[[Q1:.*]] = arith.index_castui %[[Q]] : index to i32
// CHECK: %[[S1:.*]] = arith.shli %[[Q1]], %{{.*}} : i32
// CHECK: %[[B1:.*]] = arith.addi %[[G]], %[[S1]] : i32
// CHECK: %[[ITEM:.*]] = arith.shrui %[[B1]], %{{.*}} : i32
// CHECK: %[[LANE:.*]] = arith.index_castui %[[L]] : index to i32
// CHECK: %[[Q2:.*]] = arith.index_castui %[[Q]] : index to i32
// CHECK: %[[S2:.*]] = arith.shli %[[Q2]], %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = arith.addi %[[G]], %[[S2]] : i32
// CHECK: llvm.call @use(%[[ITEM]], %[[LANE]], %[[FIRST]], %[[XI]])
// CHECK: } {respec.parallel_level = "block"}
// MIN32-LABEL: func.func @groups_of_16(
// MIN32: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to
// MIN32: llvm.lshr
llvm.func @use(i32, i32, i32, i32)
func.func @groups_of_16(%bx: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c256_i32 = llvm.mlir.constant(256 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c15 = llvm.mlir.constant(15 : i32) : i32
  %cm16 = llvm.mlir.constant(-16 : i32) : i32
  %g = llvm.mul %bx, %c256_i32 : i32
  scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
    %xi = arith.index_castui %x : index to i32
    %v = llvm.add %g, %xi : i32
    %item = llvm.lshr %v, %c4 : i32
    %lane = llvm.and %xi, %c15 : i32
    %first = llvm.and %v, %cm16 : i32
    llvm.call @use(%item, %lane, %first, %xi) : (i32, i32, i32, i32) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// -----

// A warp per row (tx >> 5, tx % 32 as unsigned division and remainder) and
// a narrower mask of the lane (tx & 7): groups of 32, the narrower mask
// reads the low bits of l.
// CHECK-LABEL: func.func @warps(
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[Q:.*]], %[[L:.*]]) = {{.*}} to (%c1, %c1, %{{.*}}, %{{.*}})
// CHECK-NOT: llvm.udiv
// CHECK-NOT: llvm.urem
// CHECK: arith.shrui
// CHECK: %[[LANE:.*]] = arith.index_castui %[[L]] : index to i32
// CHECK: %[[L8:.*]] = arith.index_castui %[[L]] : index to i32
// CHECK: %[[LOW:.*]] = arith.andi %[[L8]], %{{.*}} : i32
// CHECK: llvm.call @use
llvm.func @use(i32, i32, i32, i32)
func.func @warps() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c128) step (%c1, %c1, %c1) {
    %xi = arith.index_castui %x : index to i32
    %warp = llvm.udiv %xi, %c32 : i32
    %lane = llvm.urem %xi, %c32 : i32
    %low = llvm.and %xi, %c7 : i32
    llvm.call @use(%warp, %lane, %low, %xi) : (i32, i32, i32, i32) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// -----

// Left alone: the base is not known to be a multiple of the group (g is an
// argument), the extent is not a multiple of the group (24 threads, groups
// of 16), and a loop whose x extent is not a constant.
// CHECK-LABEL: func.func @not_multiple(
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0)
// CHECK: llvm.lshr
// CHECK-LABEL: func.func @ragged(
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0)
// CHECK: llvm.and
// CHECK-LABEL: func.func @dynamic(
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0)
// CHECK: llvm.and
llvm.func @use1(i32)
func.func @not_multiple(%g: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c4 = llvm.mlir.constant(4 : i32) : i32
  scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
    %xi = arith.index_castui %x : index to i32
    %v = llvm.add %g, %xi : i32
    %item = llvm.lshr %v, %c4 : i32
    llvm.call @use1(%item) : (i32) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
func.func @ragged() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %c15 = llvm.mlir.constant(15 : i32) : i32
  scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c24) step (%c1, %c1, %c1) {
    %xi = arith.index_castui %x : index to i32
    %lane = llvm.and %xi, %c15 : i32
    llvm.call @use1(%lane) : (i32) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}
func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = llvm.mlir.constant(15 : i32) : i32
  scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %n) step (%c1, %c1, %c1) {
    %xi = arith.index_castui %x : index to i32
    %lane = llvm.and %xi, %c15 : i32
    llvm.call @use1(%lane) : (i32) -> ()
    scf.reduce
  } {respec.parallel_level = "block"}
  return
}

// -----

// Signed division and remainder (`int tid = blockIdx.x * blockDim.x +
// threadIdx.x; tid / 16, tid % 16`) where the operand is known not to be
// negative: a grid index times a constant and the thread index, summed
// without signed wrap. They read the group as the unsigned ones do. The
// same division of a value that may be negative (an argument added) is left
// as it is.
// CHECK-LABEL: func.func @signed_groups(
// CHECK: scf.parallel (%[[B:.*]]) =
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[Q:.*]], %[[L:.*]]) = {{.*}} to (%c1, %c1, %{{.*}}, %{{.*}})
// CHECK-NOT: llvm.srem
// CHECK: %[[ITEM:.*]] = arith.shrui
// CHECK-NOT: llvm.srem
// CHECK: %[[LANE:.*]] = arith.index_castui %[[L]] : index to i32
// CHECK-NOT: llvm.srem
// CHECK: %[[MAYBE:.*]] = llvm.sdiv
// CHECK: llvm.call @use(%[[ITEM]], %[[LANE]], %[[MAYBE]],
// CHECK: } {respec.parallel_level = "block"}
llvm.func @use(i32, i32, i32, i32)
func.func @signed_groups(%grid: index, %off: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c256_i32 = llvm.mlir.constant(256 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %bi = arith.index_castui %b : index to i32
    %g = llvm.mul %bi, %c256_i32 overflow<nsw> : i32
    scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c256) step (%c1, %c1, %c1) {
      %xi = arith.index_castui %x : index to i32
      %tid = llvm.add %g, %xi overflow<nsw> : i32
      %item = llvm.sdiv %tid, %c16 : i32
      %lane = llvm.srem %tid, %c16 : i32
      %shifted = llvm.add %off, %xi : i32
      %maybe = llvm.sdiv %shifted, %c16 : i32
      llvm.call @use(%item, %lane, %maybe, %xi) : (i32, i32, i32, i32) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
