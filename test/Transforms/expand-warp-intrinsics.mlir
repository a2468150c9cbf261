// RUN: respec-opt --respec-expand-warp-intrinsics %s | FileCheck %s

// A shuffle stores the lane's value, synchronizes, reads the source lane
// PTX's b/c operands select (own lane when out of the segment; zero, as on
// NVIDIA GPUs, when the source lane is past the end of the block), and
// synchronizes again before the slots are reused.
// A ballot combines the 32 lanes of the warp in a loop, counting only lanes
// whose participation flag is set (zeroed per block, set before the first
// barrier, cleared after the second, so that exited lanes do not vote);
// __syncwarp is a barrier. All barriers are marked as warp synchronization.
// CHECK-LABEL: func.func @shuffle(
// CHECK: %[[SLOTS:.*]] = llvm.call @__respec_block_scratch(
// CHECK: %[[VOTES:.*]] = llvm.call @__respec_block_scratch(
// CHECK: %[[FLAGS:.*]] = llvm.call @__respec_block_scratch(
// CHECK: "llvm.intr.memset"(%[[FLAGS]]
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[V:.*]] = llvm.load
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK: %[[MINE:.*]] = llvm.getelementptr %[[SLOTS]][
// CHECK: llvm.store %[[V]], %[[MINE]]
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.warp_sync}
// CHECK: %[[SRC:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[OK:.*]] = arith.cmpi sle, %[[SRC]]
// CHECK: arith.select %[[OK]], %[[SRC]]
// CHECK: %[[READ:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK-NEXT: %[[SOURCE:.*]] = arith.addi
// CHECK-NEXT: %[[EXISTS:.*]] = arith.cmpi ult, %[[SOURCE]]
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.zero : i32
// CHECK-NEXT: %[[S:.*]] = arith.select %[[EXISTS]], %[[READ]], %[[ZERO]] : i32
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.warp_sync}
// CHECK: llvm.icmp "sgt" %[[S]]
// CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.warp_sync}
// CHECK: %[[BALLOT:.*]]:2 = scf.for {{.*}} -> (i32, i32) {
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i1
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: respec.barrier(%[[T]]) {respec.warp_sync}
// CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr
// CHECK-NEXT: respec.barrier(%[[T]]) {respec.warp_sync}
// CHECK-NEXT: llvm.store %[[BALLOT]]#0
// CHECK-NOT: llvm.call_intrinsic
func.func @shuffle(%n: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %v = llvm.load %p : !llvm.ptr -> i32
      %m = llvm.mlir.constant(-1 : i32) : i32
      %d = llvm.mlir.constant(1 : i32) : i32
      %c = llvm.mlir.constant(31 : i32) : i32
      %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%m, %v, %d, %c) : (i32, i32, i32, i32) -> i32
      %pred = llvm.icmp "sgt" %s, %d : i32
      %bal = llvm.call_intrinsic "llvm.nvvm.vote.ballot.sync"(%m, %pred) : (i32, i1) -> i32
      llvm.call_intrinsic "llvm.nvvm.bar.warp.sync"(%m) : (i32) -> ()
      llvm.store %bal, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// OpenCL C's work-group shuffle reads the slot of lane % (threads in the
// block), between two plain block barriers (not warp synchronization).
// CHECK-LABEL: func.func @work_group_shuffle(
// CHECK: %[[SLOTS:.*]] = llvm.call @__respec_block_scratch(
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: llvm.store %{{.*}}, %{{.*}} : i64, !llvm.ptr
// CHECK-NEXT: respec.barrier(%[[T]]){{$}}
// CHECK: %[[LANE:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: %[[SRC:.*]] = arith.remui %[[LANE]], %{{.*}} : index
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[SLOTS]][%{{.*}}]
// CHECK: %[[R:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> i64
// CHECK-NEXT: respec.barrier(%[[T]]){{$}}
// CHECK: llvm.store %[[R]], %{{.*}} : i64, !llvm.ptr
// CHECK-NOT: llvm.call @__respec_work_group_shuffle_i64(
func.func @work_group_shuffle(%n: index, %p: !llvm.ptr, %lane: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %v = llvm.load %p : !llvm.ptr -> i64
      %s = llvm.call @__respec_work_group_shuffle_i64(%v, %lane) : (i64, i32) -> i64
      llvm.store %s, %p : i64, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}
llvm.func @__respec_work_group_shuffle_i64(i64, i32) -> i64
