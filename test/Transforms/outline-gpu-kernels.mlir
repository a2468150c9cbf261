// RUN: %respec-opt --respec-outline-gpu-kernels -split-input-file -verify-diagnostics %s | FileCheck %s

// A grid loop becomes an NVVM kernel with the CUDA name: block and thread
// induction variables come from %ctaid / %tid (x is the last dimension),
// values from the launch function become parameters (index ones as i64),
// constants are cloned, the block's shared memory is a static .shared
// array, barriers are the hardware's. The launch function (host code) is
// gone.

// CHECK-NOT: __respec_launch
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr, %[[BX:[^:]*]]: i64) attributes {nvvm.kernel, respec.shared_bytes = 256 : i64}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[BXI:.*]] = arith.index_cast %[[BX]] : i64 to index
// CHECK: %[[CX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %[[CXI:.*]] = arith.index_castui %[[CX]] : i32 to index
// CHECK: %[[B:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK: %[[SH:.*]] = llvm.mlir.addressof @__respec_shared_k : !llvm.ptr<3>
// CHECK: %[[SHG:.*]] = llvm.addrspacecast %[[SH]] : !llvm.ptr<3> to !llvm.ptr
// CHECK: nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[T:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK: func.call @store(%[[P]], %[[SHG]], %[[B]], %[[T]])
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%{{.*}}) : (i32) -> ()
// CHECK: %[[RED:.*]] = llvm.call_intrinsic "llvm.nvvm.barrier.cta.red.or.aligned.all"(%{{.*}}, %{{.*}}) : (i32, i1) -> i1
// CHECK: llvm.zext %[[RED]] : i1 to i32
// CHECK: llvm.return
// CHECK: llvm.mlir.global internal @__respec_shared_k() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<256 x i8>

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func private @store(!llvm.ptr, !llvm.ptr, index, index) -> i1
llvm.func @sink(i32)
llvm.func @__respec_launch.k(%gx32: i32, %bx32: i32, %p: !llvm.ptr) attributes {respec.kernel_name = "k"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = llvm.mlir.constant(256 : i64) : i64
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %flag = func.call @store(%p, %sh, %b, %t) : (!llvm.ptr, !llvm.ptr, index, index) -> i1
      respec.barrier(%t)
      %any = respec.reduce_barrier "or" %flag(%t)
      llvm.call @sink(%any) : (i32) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Thread coarsening's launch-invariant choice is unswitched out of the grid
// loop: one kernel per branch, the first keeping the CUDA name. A second
// grid loop (a block-coarsening epilogue) is a kernel of its own whose
// lower bound is a parameter.

// CHECK-LABEL: llvm.func @two(
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.call @half(
// CHECK-LABEL: llvm.func @two_respec1(
// CHECK: llvm.call @full(
// CHECK-LABEL: llvm.func @two_respec2(
// CHECK-SAME: %{{[^:]*}}: i64, %[[LB:[^:]*]]: i64)
// CHECK: %[[LBI:.*]] = arith.index_cast %[[LB]] : i64 to index
// CHECK: arith.addi %[[LBI]],
// CHECK: llvm.call @epilogue(

llvm.func @half(i32)
llvm.func @full(i32)
llvm.func @epilogue(i32)
llvm.func @__respec_launch.two(%gx32: i32, %bx32: i32, %even: i1, %start32: i32) attributes {respec.kernel_name = "two"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  %start = arith.index_castui %start32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.if %even {
      scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
        llvm.call @half(%bx32) : (i32) -> ()
        scf.reduce
      } {respec.parallel_level = "block"}
    } else {
      scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
        llvm.call @full(%bx32) : (i32) -> ()
        scf.reduce
      } {respec.parallel_level = "block"}
    }
    scf.reduce
  } {respec.parallel_level = "grid"}
  scf.parallel (%b) = (%start) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      llvm.call @epilogue(%bx32) : (i32) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Code that runs once per block outside its threads (here a store) has no
// GPU form yet.

llvm.func @__respec_launch.blockwork(%gx32: i32, %bx32: i32, %p: !llvm.ptr) attributes {respec.kernel_name = "blockwork"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = llvm.mlir.constant(1 : i32) : i32
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    // expected-error @below {{kernel 'blockwork': code that runs once per block outside its threads is not supported by the NVPTX back end yet}}
    llvm.store %v, %p : i32, !llvm.ptr
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}
