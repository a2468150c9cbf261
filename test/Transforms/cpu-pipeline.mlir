// RUN: %respec-opt --respec-cpu-pipeline -split-input-file -verify-diagnostics=only-expected %s | FileCheck %s
// RUN: not %respec-opt --respec-cpu-pipeline -split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// The whole CPU pipeline on a kernel as clang's NVPTX output imports it:
// address spaces flattened, the kernel raised to a launch function whose
// grid loop is an OpenMP worksharing loop (collapsed over z, y, x) that
// allocates the block's shared memory and runs the threads as a serial
// x-innermost loop nest around the kernel's body (inlined from the
// per-thread function, also without barriers); libdevice mapped to
// intrinsics; the module table registered. Only the LLVM and OpenMP
// dialects remain.

// CHECK-LABEL: module
// CHECK-NOT: !llvm.ptr<
// CHECK-NOT: @tile
// CHECK: llvm.mlir.global external @scale(2.000000e+00 : f32) {{.*}}respec.address_space = 4
// CHECK-NOT: @__respec_thread
// CHECK-LABEL: llvm.func @__respec_launch._Z1kPfi(
// CHECK-SAME: respec.static_shared_bytes = 16 : i64
// CHECK: %[[N_SLOT:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[N_ADDR:.*]] = llvm.load %[[N_SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.load %[[N_ADDR]] : !llvm.ptr -> i32
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: omp.parallel {
// CHECK-NOT: omp.wsloop
// CHECK: llvm.call @omp_get_thread_num()
// CHECK: llvm.call @omp_get_num_threads()
// CHECK: llvm.intr.stacksave
// CHECK: %[[SHARED:.*]] = llvm.call @__respec_shared_memory(%[[BYTES]])
// CHECK: %[[TILE:.*]] = llvm.getelementptr %[[SHARED]]
// CHECK: llvm.icmp "slt"
// CHECK: llvm.icmp "slt"
// CHECK: llvm.icmp "slt"
// CHECK: llvm.icmp "slt" %{{.*}}, %[[N]] : i32
// CHECK: llvm.call_intrinsic "llvm.sin.f32"
// CHECK: llvm.store %{{.*}}, %[[TILE]]
// CHECK: llvm.intr.stackrestore
// CHECK: omp.terminator
// CHECK: llvm.mlir.global private constant @__respec_kernels.{{[0-9]+}}() {{.*}} : !llvm.array<1 x struct<(ptr, ptr, i64, i32, i16, i16, ptr)>>
// CHECK: llvm.mlir.addressof @__respec_launch._Z1kPfi
// CHECK: llvm.mlir.global private constant @__respec_vars.{{[0-9]+}}() {{.*}} : !llvm.array<1 x struct<(ptr, ptr, i64)>>
// CHECK: llvm.mlir.addressof @scale
// CHECK: llvm.mlir.global external constant @__respec_module_table()
// CHECK-NOT: scf.
// CHECK-NOT: arith.
// CHECK-NOT: nvvm.
// CHECK-NOT: convergent
// CHECK-NOT: ptx_kernelcc
module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr = dense<64> : vector<4xi64>, i32 = dense<32> : vector<2xi64>, i64 = dense<64> : vector<2xi64>>, llvm.target_triple = "nvptx64-nvidia-cuda"} {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x f32> {
    %0 = llvm.mlir.undef : !llvm.array<4 x f32>
    llvm.return %0 : !llvm.array<4 x f32>
  }
  llvm.mlir.global external @scale(2.0 : f32) {addr_space = 4 : i32, alignment = 4 : i64} : f32
  llvm.func ptx_kernelcc @_Z1kPfi(%x: !llvm.ptr<1>, %n: i32) attributes {convergent, no_inline, target_cpu = "sm_80"} {
    %t3 = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %t = llvm.addrspacecast %t3 : !llvm.ptr<3> to !llvm.ptr
    %s4 = llvm.mlir.addressof @scale : !llvm.ptr<4>
    %cta = nvvm.read.ptx.sreg.ctaid.x : i32
    %ntid = nvvm.read.ptx.sreg.ntid.x : i32
    %mul = llvm.mul %cta, %ntid : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %i = llvm.add %mul, %tid : i32
    %cmp = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %cmp, ^bb1, ^bb2
  ^bb1:
    %idx = llvm.sext %i : i32 to i64
    %p = llvm.getelementptr inbounds %x[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %sv = llvm.load %s4 : !llvm.ptr<4> -> f32
    %m = llvm.fmul %v, %sv : f32
    %r = llvm.call @__nv_sinf(%m) {convergent} : (f32) -> f32
    llvm.store %r, %t : f32, !llvm.ptr
    %back = llvm.load %t : !llvm.ptr -> f32
    llvm.store %back, %p : f32, !llvm.ptr<1>
    llvm.br ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @__nv_sinf(f32) -> f32 attributes {convergent}
}

// -----

// A 2-D kernel without shared memory reads blockIdx.y/threadIdx.y: they
// are the y indices of the block loop and of the thread loops (z, y, x);
// no shared memory is allocated. The first grid loop is the sliced
// version's, over (z, y, x, slice): the y index is the third digit of the
// linear block number, the slice varying fastest.
// CHECK-LABEL: llvm.func @__respec_launch.k2d(
// CHECK-NOT: __respec_shared_memory
// CHECK: llvm.call @omp_get_thread_num()
// CHECK: ^bb{{[0-9]+}}(%[[L:.*]]: i64):
// CHECK: llvm.urem %[[L]], %{{.*}} : i64
// CHECK-NEXT: %[[L1:.*]] = llvm.udiv %[[L]], %{{.*}} : i64
// CHECK-NEXT: llvm.urem %[[L1]], %{{.*}} : i64
// CHECK-NEXT: %[[L2:.*]] = llvm.udiv %[[L1]], %{{.*}} : i64
// CHECK-NEXT: %[[BY:.*]] = llvm.urem %[[L2]], %{{.*}} : i64
// CHECK: %[[BYF:.*]] = llvm.freeze %[[BY]] : i64
// CHECK: %[[BYI:.*]] = llvm.trunc %[[BYF]] : i64 to i32
// CHECK: ^bb{{[0-9]+}}(%{{.*}}: i64):
// CHECK: ^bb{{[0-9]+}}(%[[TY:.*]]: i64):
// CHECK: %[[TYI:.*]] = llvm.trunc %[[TY]] : i64 to i32
// CHECK: llvm.add %[[TYI]], %[[BYI]] : i32
// CHECK: llvm.mlir.global external constant @__respec_module_table()
llvm.func ptx_kernelcc @k2d(%out: !llvm.ptr<1>) {
  %ty = nvvm.read.ptx.sreg.tid.y : i32
  %cy = nvvm.read.ptx.sreg.ctaid.y : i32
  %s = llvm.add %ty, %cy : i32
  llvm.store %s, %out : i32, !llvm.ptr<1>
  llvm.return
}

// -----

// No kernels: only an empty table.
// CHECK-NOT: __respec_launch
// CHECK: llvm.mlir.global external constant @__respec_module_table()
llvm.func @host_side() {
  llvm.return
}

// -----

// A kernel with __syncthreads compiles: the barrier splits the thread loop
// in two serial loops inside the OpenMP loop over blocks.
// CHECK-LABEL: llvm.func @__respec_launch._Z12with_barrierPf(
// CHECK: llvm.call @omp_get_thread_num()
// CHECK: llvm.call @__respec_block_scratch_reset()
// CHECK: llvm.call @__respec_block_scratch(
// CHECK: llvm.store
// CHECK: llvm.load
// CHECK: llvm.intr.stackrestore
llvm.func ptx_kernelcc @_Z12with_barrierPf(%x: !llvm.ptr<1>) {
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %i = llvm.sext %t : i32 to i64
  %p = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %p : !llvm.ptr<1> -> f32
  %z = llvm.mlir.constant(0 : i32) : i32
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%z) : (i32) -> () loc("barrier.cu":7:3)
  %w = llvm.fadd %v, %v : f32
  llvm.store %w, %p : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// A barrier over part of the block is rejected at the user's line.
// ERR: barrier.cu:8:3: error: kernel 'partial_barrier(float*)' uses a barrier over part of the block (__barrier_sync_count
llvm.func ptx_kernelcc @_Z15partial_barrierPf(%x: !llvm.ptr<1>) {
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %c = llvm.mlir.constant(32 : i32) : i32
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%t, %c) : (i32, i32) -> () loc("barrier.cu":8:3)
  llvm.return
}

// -----

// A warp shuffle compiles (warps as interleaved lanes: a shuffle whose
// lane operand is computed reads an element of the warp's vector);
// __activemask in a kernel with a block barrier is rejected at the user's
// line.
// CHECK-LABEL: llvm.func @__respec_launch._Z7shufflePi(
// CHECK: llvm.call @omp_get_thread_num()
// CHECK: llvm.extractelement %{{.*}} : vector<32xi32>
// CHECK: llvm.intr.stackrestore
// ERR: shuffle.cu:10:13: error: kernel 'activemask(int*)' uses a warp-level primitive (__activemask) that the CPU back end does not support here (it supports __activemask only where warps run as interleaved lanes: no __syncthreads in the kernel, not in a for loop whose bounds differ between lanes; no shuffles with a validity predicate; no primitives in functions that could not be inlined into their kernel)
llvm.func ptx_kernelcc @_Z7shufflePi(%x: !llvm.ptr<1>) {
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %m = llvm.mlir.constant(-1 : i32) : i32
  %c = llvm.mlir.constant(31 : i32) : i32
  %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%m, %t, %t, %c) : (i32, i32, i32, i32) -> i32 loc("shuffle.cu":9:13)
  llvm.store %s, %x : i32, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func ptx_kernelcc @_Z10activemaskPi(%x: !llvm.ptr<1>) {
  %z = llvm.mlir.constant(0 : i32) : i32
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%z) : (i32) -> ()
  %m = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32 loc("shuffle.cu":10:13)
  llvm.store %m, %x : i32, !llvm.ptr<1>
  llvm.return
}
