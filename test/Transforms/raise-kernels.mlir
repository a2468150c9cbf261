// RUN: %respec-opt --respec-raise-kernels -split-input-file -verify-diagnostics %s | FileCheck %s

// The main rewrite on a 1-D kernel: the kernel becomes the internal,
// always-inline per-thread function with twelve i32 geometry parameters and
// the shared base in front of its own parameters; the launch function loads
// each parameter once and runs a grid loop containing a thread loop, both
// over (z, y, x).

// CHECK-LABEL: module
// CHECK: llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func internal @__respec_thread.saxpy(
// CHECK-SAME: %[[TIDX:[^:]*]]: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32,
// CHECK-SAME: %[[NTIDX:[^:]*]]: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32,
// CHECK-SAME: %[[CTAIDX:[^:]*]]: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32,
// CHECK-SAME: %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32,
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr, %[[X:[^:]*]]: !llvm.ptr {llvm.noalias}, %[[N:[^:]*]]: i32 {llvm.noundef})
// CHECK-SAME: attributes {always_inline, {{.*}}respec.thread_function_of = "saxpy"}
// CHECK-NOT: nvvm.read.ptx.sreg
// CHECK: %[[MUL:.*]] = llvm.mul %[[CTAIDX]], %[[NTIDX]] : i32
// CHECK: %[[I:.*]] = llvm.add %[[MUL]], %[[TIDX]] : i32
// CHECK: llvm.icmp "slt" %[[I]], %[[N]] : i32
// CHECK: llvm.getelementptr inbounds %[[X]]

// CHECK-LABEL: llvm.func @__respec_launch.saxpy(
// CHECK-SAME: %[[GX:[^:]*]]: i32, %[[GY:[^:]*]]: i32, %[[GZ:[^:]*]]: i32, %[[BX:[^:]*]]: i32, %[[BY:[^:]*]]: i32, %[[BZ:[^:]*]]: i32, %{{[^:]*}}: i64, %[[ARGS:[^:]*]]: !llvm.ptr)
// CHECK-SAME: respec.kernel_name = "saxpy", respec.param_sizes = array<i64: 8, 4>, respec.static_shared_bytes = 0 : i64
// CHECK: %[[SLOT0:.*]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P0:.*]] = llvm.load %[[SLOT0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[XV:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SLOT1:.*]] = llvm.getelementptr %[[ARGS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P1:.*]] = llvm.load %[[SLOT1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[NV:.*]] = llvm.load %[[P1]] : !llvm.ptr -> i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[GZI:.*]] = arith.index_castui %[[GZ]] : i32 to index
// CHECK-DAG: %[[GYI:.*]] = arith.index_castui %[[GY]] : i32 to index
// CHECK-DAG: %[[GXI:.*]] = arith.index_castui %[[GX]] : i32 to index
// CHECK-DAG: %[[BZI:.*]] = arith.index_castui %[[BZ]] : i32 to index
// CHECK-DAG: %[[BYI:.*]] = arith.index_castui %[[BY]] : i32 to index
// CHECK-DAG: %[[BXI:.*]] = arith.index_castui %[[BX]] : i32 to index
// CHECK: scf.parallel (%[[CZ:.*]], %[[CY:.*]], %[[CX:.*]]) = (%[[C0]], %[[C0]], %[[C0]]) to (%[[GZI]], %[[GYI]], %[[GXI]]) step (%[[C1]], %[[C1]], %[[C1]]) {
// No shared memory: the shared base is a null pointer, nothing is allocated.
// CHECK-NOT: __respec_shared_memory
// CHECK: %[[SHARED:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[CXI:.*]] = arith.index_castui %[[CX]] : index to i32
// CHECK-DAG: %[[CYI:.*]] = arith.index_castui %[[CY]] : index to i32
// CHECK-DAG: %[[CZI:.*]] = arith.index_castui %[[CZ]] : index to i32
// CHECK: scf.parallel (%[[TZ:.*]], %[[TY:.*]], %[[TX:.*]]) = (%[[C0]], %[[C0]], %[[C0]]) to (%[[BZI]], %[[BYI]], %[[BXI]]) step (%[[C1]], %[[C1]], %[[C1]]) {
// CHECK-DAG: %[[TXI:.*]] = arith.index_castui %[[TX]] : index to i32
// CHECK-DAG: %[[TYI:.*]] = arith.index_castui %[[TY]] : index to i32
// CHECK-DAG: %[[TZI:.*]] = arith.index_castui %[[TZ]] : index to i32
// CHECK: llvm.call @__respec_thread.saxpy(%[[TXI]], %[[TYI]], %[[TZI]], %[[BX]], %[[BY]], %[[BZ]], %[[CXI]], %[[CYI]], %[[CZI]], %[[GX]], %[[GY]], %[[GZ]], %[[SHARED]], %[[XV]], %[[NV]])
// CHECK: } {respec.parallel_level = "block"}
// CHECK: } {respec.parallel_level = "grid"}
// CHECK: llvm.return
llvm.func ptx_kernelcc @saxpy(%x: !llvm.ptr {llvm.noalias}, %n: i32 {llvm.noundef}) attributes {convergent, no_inline} {
  %cta = nvvm.read.ptx.sreg.ctaid.x : i32
  %ntid = nvvm.read.ptx.sreg.ntid.x : i32
  %mul = llvm.mul %cta, %ntid : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = llvm.add %mul, %tid : i32
  %cmp = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %cmp, ^bb1, ^bb2
^bb1:
  %idx = llvm.sext %i : i32 to i64
  %p = llvm.getelementptr inbounds %x[%idx] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %p : !llvm.ptr -> f32
  %w = llvm.fadd %v, %v : f32
  llvm.store %w, %p : f32, !llvm.ptr
  llvm.br ^bb2
^bb2:
  llvm.return
}

// -----

// A kernel that reads the grid workspace (cooperative groups' grid barrier),
// here through a helper function, synchronizes its grid: its launch
// function is marked respec.syncs_grid. A kernel that does not is not, nor
// one whose read of the workspace is dead (this_grid() for the grid's size
// only, before LLVM removes the read).
// CHECK-LABEL: llvm.func @__respec_launch.waits(
// CHECK-SAME: respec.syncs_grid
// CHECK-LABEL: llvm.func @__respec_launch.plain(
// CHECK-NOT: respec.syncs_grid
// CHECK-LABEL: llvm.func @__respec_launch.dead_read(
// CHECK-NOT: respec.syncs_grid
// CHECK: llvm.return
llvm.func @__respec_grid_workspace() -> !llvm.ptr
llvm.func internal @grid_barrier_address() -> !llvm.ptr {
  %w = llvm.call @__respec_grid_workspace() : () -> !llvm.ptr
  llvm.return %w : !llvm.ptr
}
llvm.func ptx_kernelcc @waits(%out: !llvm.ptr<1>) {
  %w = llvm.call @grid_barrier_address() : () -> !llvm.ptr
  llvm.store %w, %out : !llvm.ptr, !llvm.ptr<1>
  llvm.return
}
llvm.func ptx_kernelcc @plain(%out: !llvm.ptr<1>) {
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.store %c, %out : i32, !llvm.ptr<1>
  llvm.return
}
llvm.func ptx_kernelcc @dead_read(%out: !llvm.ptr<1>) {
  %w = llvm.call @__respec_grid_workspace() : () -> !llvm.ptr
  %a = llvm.ptrtoint %w : !llvm.ptr to i64
  %h = llvm.trunc %a : i64 to i32
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.store %c, %out : i32, !llvm.ptr<1>
  llvm.return
}

// -----

// `asm("mov.u32 %0, %%laneid;")` (cooperative groups' headers) is the lane
// id too; other inline assembly is left alone.
// CHECK-LABEL: llvm.func internal @__respec_thread.asm_lane(
// CHECK-SAME: %[[TX:[^:]*]]: i32,
// CHECK: %[[LIN:.*]] = llvm.add %[[TX]], %{{.*}} : i32
// CHECK: %[[LANE:.*]] = llvm.urem %[[LIN]], %{{.*}} : i32
// CHECK: llvm.store %[[LANE]]
// CHECK: llvm.inline_asm {{.*}}"mov.u32 $0, %warpid;"
llvm.func ptx_kernelcc @asm_lane(%out: !llvm.ptr<1>) {
  %lane = llvm.inline_asm "mov.u32 $0, %laneid;", "=r" : () -> i32
  llvm.store %lane, %out : i32, !llvm.ptr<1>
  %warp = llvm.inline_asm "mov.u32 $0, %warpid;", "=r" : () -> i32
  llvm.store %warp, %out : i32, !llvm.ptr<1>
  llvm.return
}

// -----

// Every special register of the 3-D launch maps to its parameter; laneid and
// warpid derive from the linear thread id (x + ntid.x * (y + ntid.y * z));
// warpsize is the constant 32.

// CHECK-LABEL: llvm.func internal @__respec_thread.ids(
// CHECK-SAME: %[[TX:[^:]*]]: i32, %[[TY:[^:]*]]: i32, %[[TZ:[^:]*]]: i32,
// CHECK-SAME: %[[NX:[^:]*]]: i32, %[[NY:[^:]*]]: i32, %[[NZ:[^:]*]]: i32,
// CHECK-SAME: %[[CX:[^:]*]]: i32, %[[CY:[^:]*]]: i32, %[[CZ:[^:]*]]: i32,
// CHECK-SAME: %[[GX:[^:]*]]: i32, %[[GY:[^:]*]]: i32, %[[GZ:[^:]*]]: i32,
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr)
// CHECK-NOT: nvvm.read.ptx.sreg
// CHECK: %[[M1:.*]] = llvm.mul %[[NY]], %[[TZ]] : i32
// CHECK: %[[A1:.*]] = llvm.add %[[TY]], %[[M1]] : i32
// CHECK: %[[M2:.*]] = llvm.mul %[[NX]], %[[A1]] : i32
// CHECK: %[[LIN:.*]] = llvm.add %[[TX]], %[[M2]] : i32
// CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[LANE:.*]] = llvm.urem %[[LIN]], %[[C32]] : i32
// CHECK: %[[WLIN:.*]] = llvm.add %[[TX]], %{{.*}} : i32
// CHECK: %[[WARP:.*]] = llvm.udiv %[[WLIN]], %{{.*}} : i32
// CHECK: %[[WS:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: llvm.insertvalue %[[TX]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[TY]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[TZ]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[NX]], %{{.*}}[3]
// CHECK: llvm.insertvalue %[[NY]], %{{.*}}[4]
// CHECK: llvm.insertvalue %[[NZ]], %{{.*}}[5]
// CHECK: llvm.insertvalue %[[CX]], %{{.*}}[6]
// CHECK: llvm.insertvalue %[[CY]], %{{.*}}[7]
// CHECK: llvm.insertvalue %[[CZ]], %{{.*}}[8]
// CHECK: llvm.insertvalue %[[GX]], %{{.*}}[9]
// CHECK: llvm.insertvalue %[[GY]], %{{.*}}[10]
// CHECK: llvm.insertvalue %[[GZ]], %{{.*}}[11]
// CHECK: llvm.insertvalue %[[LANE]], %{{.*}}[12]
// CHECK: llvm.insertvalue %[[WARP]], %{{.*}}[13]
// CHECK: llvm.insertvalue %[[WS]], %{{.*}}[14]
// CHECK: llvm.store %{{.*}}, %[[OUT]]
// CHECK-LABEL: llvm.func @__respec_launch.ids(
// CHECK-SAME: respec.param_sizes = array<i64: 8>
llvm.func ptx_kernelcc @ids(%out: !llvm.ptr) {
  %tx = nvvm.read.ptx.sreg.tid.x : i32
  %ty = nvvm.read.ptx.sreg.tid.y : i32
  %tz = nvvm.read.ptx.sreg.tid.z : i32
  %bx = nvvm.read.ptx.sreg.ntid.x : i32
  %by = nvvm.read.ptx.sreg.ntid.y : i32
  %bz = nvvm.read.ptx.sreg.ntid.z : i32
  %cx = nvvm.read.ptx.sreg.ctaid.x : i32
  %cy = nvvm.read.ptx.sreg.ctaid.y : i32
  %cz = nvvm.read.ptx.sreg.ctaid.z : i32
  %gx = nvvm.read.ptx.sreg.nctaid.x : i32
  %gy = nvvm.read.ptx.sreg.nctaid.y : i32
  %gz = nvvm.read.ptx.sreg.nctaid.z : i32
  %lane = nvvm.read.ptx.sreg.laneid : i32
  %warp = nvvm.read.ptx.sreg.warpid : i32
  %ws = nvvm.read.ptx.sreg.warpsize : i32
  %v = llvm.mlir.undef : !llvm.array<15 x i32>
  %v0 = llvm.insertvalue %tx, %v[0] : !llvm.array<15 x i32>
  %v1 = llvm.insertvalue %ty, %v0[1] : !llvm.array<15 x i32>
  %v2 = llvm.insertvalue %tz, %v1[2] : !llvm.array<15 x i32>
  %v3 = llvm.insertvalue %bx, %v2[3] : !llvm.array<15 x i32>
  %v4 = llvm.insertvalue %by, %v3[4] : !llvm.array<15 x i32>
  %v5 = llvm.insertvalue %bz, %v4[5] : !llvm.array<15 x i32>
  %v6 = llvm.insertvalue %cx, %v5[6] : !llvm.array<15 x i32>
  %v7 = llvm.insertvalue %cy, %v6[7] : !llvm.array<15 x i32>
  %v8 = llvm.insertvalue %cz, %v7[8] : !llvm.array<15 x i32>
  %v9 = llvm.insertvalue %gx, %v8[9] : !llvm.array<15 x i32>
  %v10 = llvm.insertvalue %gy, %v9[10] : !llvm.array<15 x i32>
  %v11 = llvm.insertvalue %gz, %v10[11] : !llvm.array<15 x i32>
  %v12 = llvm.insertvalue %lane, %v11[12] : !llvm.array<15 x i32>
  %v13 = llvm.insertvalue %warp, %v12[13] : !llvm.array<15 x i32>
  %v14 = llvm.insertvalue %ws, %v13[14] : !llvm.array<15 x i32>
  llvm.store %v14, %out : !llvm.array<15 x i32>, !llvm.ptr
  llvm.return
}

// -----

// Shared memory: static variables are laid out in first-use order at their
// alignment (i8[3] at 0, double[4] aligned to 8 at 8, 40 bytes in all); the
// dynamic array follows at a 16-byte boundary (48), and the block allocates
// 48 + the launch's dynamic bytes. Device variables are left alone, the
// shared globals are erased.

// CHECK-LABEL: module
// CHECK-NOT: @small
// CHECK-NOT: @wide
// CHECK-NOT: @dyn(
// CHECK: llvm.mlir.global external @dev(0 : i32)
// CHECK-LABEL: llvm.func internal @__respec_thread.shared_kernel(
// CHECK-SAME: %[[BASE:[^:]*]]: !llvm.ptr, %{{[^:]*}}: !llvm.ptr, %[[N:[^:]*]]: i32)
// CHECK: %[[O0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[SMALL:.*]] = llvm.getelementptr %[[BASE]][%[[O0]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[O8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[WIDE:.*]] = llvm.getelementptr %[[BASE]][%[[O8]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[O48:.*]] = llvm.mlir.constant(48 : i64) : i64
// CHECK: %[[DYN:.*]] = llvm.getelementptr %[[BASE]][%[[O48]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[DEV:.*]] = llvm.mlir.addressof @dev : !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[SMALL]] : i8, !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[WIDE]] : f64, !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[DYN]] : i32, !llvm.ptr
// CHECK: llvm.store %[[N]], %[[DEV]] : i32, !llvm.ptr
// CHECK-LABEL: llvm.func @__respec_launch.shared_kernel(
// CHECK-SAME: %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[DYNBYTES:[^:]*]]: i64, %{{[^:]*}}: !llvm.ptr)
// CHECK-SAME: respec.static_shared_bytes = 40 : i64
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(48 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.add %[[OFF]], %[[DYNBYTES]] : i64
// CHECK: scf.parallel
// CHECK-NEXT: %[[ALLOC:.*]] = llvm.call @__respec_shared_memory(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK: scf.parallel
// CHECK: llvm.call @__respec_thread.shared_kernel({{.*}}, %[[ALLOC]], {{.*}})
// CHECK: {respec.parallel_level = "block"}
// CHECK: {respec.parallel_level = "grid"}
module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr = dense<64> : vector<4xi64>, i1 = dense<8> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i16 = dense<16> : vector<2xi64>, i32 = dense<32> : vector<2xi64>, i64 = dense<64> : vector<2xi64>, f64 = dense<64> : vector<2xi64>>} {
llvm.mlir.global internal @small() {alignment = 2 : i64, respec.address_space = 3 : i32} : !llvm.array<3 x i8> {
  %0 = llvm.mlir.undef : !llvm.array<3 x i8>
  llvm.return %0 : !llvm.array<3 x i8>
}
llvm.mlir.global internal @wide() {alignment = 8 : i64, respec.address_space = 3 : i32} : !llvm.array<4 x f64> {
  %0 = llvm.mlir.undef : !llvm.array<4 x f64>
  llvm.return %0 : !llvm.array<4 x f64>
}
llvm.mlir.global external @dyn() {alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<0 x i32>
llvm.mlir.global external @dev(0 : i32) {alignment = 4 : i64, respec.address_space = 1 : i32} : i32
llvm.func ptx_kernelcc @shared_kernel(%x: !llvm.ptr, %n: i32) {
  %s = llvm.mlir.addressof @small : !llvm.ptr
  %w = llvm.mlir.addressof @wide : !llvm.ptr
  %d = llvm.mlir.addressof @dyn : !llvm.ptr
  %g = llvm.mlir.addressof @dev : !llvm.ptr
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c = llvm.mlir.constant(1 : i8) : i8
  llvm.store %c, %s : i8, !llvm.ptr
  %f = llvm.mlir.constant(1.0 : f64) : f64
  llvm.store %f, %w : f64, !llvm.ptr
  llvm.store %tid, %d : i32, !llvm.ptr
  llvm.store %n, %g : i32, !llvm.ptr
  llvm.return
}
}

// -----

// Only static shared memory: a constant-size allocation per block. Two
// extern __shared__ arrays alias the same address after the statics; an
// over-aligned one raises the dynamic alignment (4 static bytes -> 32).

// CHECK-LABEL: llvm.func internal @__respec_thread.static_only(
// CHECK: llvm.mlir.constant(0 : i64)
// CHECK-LABEL: llvm.func internal @__respec_thread.two_dynamic(
// CHECK-SAME: %[[BASE:[^:]*]]: !llvm.ptr)
// CHECK: %[[O0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.getelementptr %[[BASE]][%[[O0]]]
// CHECK: %[[OA:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[A:.*]] = llvm.getelementptr %[[BASE]][%[[OA]]]
// CHECK: %[[OB:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[B:.*]] = llvm.getelementptr %[[BASE]][%[[OB]]]
// CHECK: llvm.store %{{.*}}, %[[A]]
// CHECK: llvm.store %{{.*}}, %[[B]]
// CHECK-LABEL: llvm.func @__respec_launch.static_only(
// CHECK-SAME: respec.static_shared_bytes = 12 : i64
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK: scf.parallel
// CHECK-NEXT: llvm.call @__respec_shared_memory(%[[BYTES]])
// CHECK-LABEL: llvm.func @__respec_launch.two_dynamic(
// CHECK-SAME: respec.param_sizes = array<i64>, respec.static_shared_bytes = 4 : i64
// CHECK: llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.add
module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr = dense<64> : vector<4xi64>, i1 = dense<8> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i16 = dense<16> : vector<2xi64>, i32 = dense<32> : vector<2xi64>, i64 = dense<64> : vector<2xi64>, f64 = dense<64> : vector<2xi64>>} {
llvm.mlir.global internal @tile() {alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<3 x i32> {
  %0 = llvm.mlir.undef : !llvm.array<3 x i32>
  llvm.return %0 : !llvm.array<3 x i32>
}
llvm.mlir.global internal @flag() {alignment = 4 : i64, respec.address_space = 3 : i32} : i32 {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.mlir.global external @dyn_a() {alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<0 x i32>
llvm.mlir.global external @dyn_b() {alignment = 32 : i64, respec.address_space = 3 : i32} : !llvm.array<0 x f32>
llvm.func ptx_kernelcc @static_only(%x: i32) {
  %t = llvm.mlir.addressof @tile : !llvm.ptr
  llvm.store %x, %t : i32, !llvm.ptr
  llvm.return
}
// A kernel with no parameters.
llvm.func ptx_kernelcc @two_dynamic() {
  %f = llvm.mlir.addressof @flag : !llvm.ptr
  %a = llvm.mlir.addressof @dyn_a : !llvm.ptr
  %b = llvm.mlir.addressof @dyn_b : !llvm.ptr
  %one = llvm.mlir.constant(1 : i32) : i32
  %fone = llvm.mlir.constant(1.0 : f32) : f32
  llvm.store %one, %f : i32, !llvm.ptr
  llvm.store %one, %a : i32, !llvm.ptr
  llvm.store %fone, %b : f32, !llvm.ptr
  llvm.return
}
}

// -----

// By-value struct parameters: the launch passes the pointer to the host's
// argument copy (no load of the value). A read-only one is used in place; a
// written one is copied into a private alloca first. The parameter size is
// the struct's size.

// CHECK-LABEL: llvm.func internal @__respec_thread.byval(
// CHECK-SAME: %[[RO:[^:]*]]: !llvm.ptr {llvm.readonly}, %[[RW:[^:]*]]: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr)
// CHECK-NOT: llvm.byval
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[COPY:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(i32, f32, f64)> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK: %[[VAL:.*]] = llvm.load %[[RW]] : !llvm.ptr -> !llvm.struct<(i32, f32, f64)>
// CHECK: llvm.store %[[VAL]], %[[COPY]]
// CHECK-NOT: alloca
// CHECK: llvm.load %[[RO]] : !llvm.ptr -> i32
// CHECK: llvm.store %{{.*}}, %[[COPY]] : i32, !llvm.ptr
// CHECK: llvm.load %[[COPY]] : !llvm.ptr -> i32
// CHECK-LABEL: llvm.func @__respec_launch.byval(
// CHECK-SAME: %[[ARGS:[^:]*]]: !llvm.ptr)
// CHECK-SAME: respec.param_sizes = array<i64: 8, 16, 8>
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[ARGS]][0]
// CHECK: %[[P0:.*]] = llvm.load %[[S0]] {respec.byval_param = !llvm.struct<(i32, i32)>} : !llvm.ptr -> !llvm.ptr
// CHECK-NOT: llvm.load %[[P0]]
// CHECK: %[[S1:.*]] = llvm.getelementptr %[[ARGS]][1]
// CHECK: %[[P1:.*]] = llvm.load %[[S1]] {respec.byval_param = !llvm.struct<(i32, f32, f64)>} : !llvm.ptr -> !llvm.ptr
// CHECK-NOT: llvm.load %[[P1]]
// CHECK: %[[S2:.*]] = llvm.getelementptr %[[ARGS]][2]
// CHECK: %[[P2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[OUTV:.*]] = llvm.load %[[P2]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @__respec_thread.byval({{.*}}, %[[P0]], %[[P1]], %[[OUTV]])
module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr = dense<64> : vector<4xi64>, i1 = dense<8> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i16 = dense<16> : vector<2xi64>, i32 = dense<32> : vector<2xi64>, i64 = dense<64> : vector<2xi64>, f64 = dense<64> : vector<2xi64>>} {
llvm.func ptx_kernelcc @byval(%ro: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.readonly}, %rw: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32, f64)>}, %out: !llvm.ptr) {
  %a = llvm.load %ro : !llvm.ptr -> i32
  llvm.store %a, %rw : i32, !llvm.ptr
  %b = llvm.load %rw : !llvm.ptr -> i32
  llvm.store %b, %out : i32, !llvm.ptr
  llvm.return
}
}

// -----

// Several kernels, each with its own thread and launch function; device
// functions the kernels call and kernel declarations are not touched.

// CHECK-LABEL: llvm.func @helper(%{{.*}}: i32) -> i32
// CHECK-LABEL: llvm.func internal @__respec_thread.first(
// CHECK: llvm.call @helper
// CHECK-LABEL: llvm.func internal @__respec_thread.second(
// CHECK: llvm.func ptx_kernelcc @declared(!llvm.ptr)
// CHECK-LABEL: llvm.func @__respec_launch.first(
// CHECK-SAME: respec.kernel_name = "first"
// CHECK: llvm.call @__respec_thread.first
// CHECK-LABEL: llvm.func @__respec_launch.second(
// CHECK-SAME: respec.kernel_name = "second"
// CHECK: llvm.call @__respec_thread.second
// CHECK-NOT: __respec_launch.declared
llvm.func @helper(%v: i32) -> i32 {
  llvm.return %v : i32
}
llvm.func ptx_kernelcc @first(%p: !llvm.ptr) {
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %r = llvm.call @helper(%t) : (i32) -> i32
  llvm.store %r, %p : i32, !llvm.ptr
  llvm.return
}
llvm.func ptx_kernelcc @second(%p: !llvm.ptr) {
  %t = nvvm.read.ptx.sreg.ctaid.y : i32
  llvm.store %t, %p : i32, !llvm.ptr
  llvm.return
}
llvm.func ptx_kernelcc @declared(!llvm.ptr)

// -----

// A module without kernels is left unchanged: no launch functions, no
// shared-memory allocator declaration.

// CHECK-LABEL: module
// CHECK-NOT: __respec
// CHECK: llvm.func @device_only(
// CHECK-NOT: __respec
llvm.func @device_only(%v: i32) -> i32 {
  llvm.return %v : i32
}

// -----

llvm.func @not_inlined() -> i32 {
  // expected-error @below {{device function 'not_inlined' uses threadIdx/blockIdx/blockDim/gridDim but could not be inlined into its kernel (recursion or indirect call); respec does not support this yet}}
  %t = nvvm.read.ptx.sreg.tid.x : i32
  llvm.return %t : i32
}
llvm.func ptx_kernelcc @caller(%p: !llvm.ptr) {
  %r = llvm.call @not_inlined() : () -> i32
  llvm.store %r, %p : i32, !llvm.ptr
  llvm.return
}

// -----

llvm.func @lane_helper() -> i32 {
  // expected-error @below {{device function 'lane_helper' uses threadIdx/blockIdx/blockDim/gridDim}}
  %t = nvvm.read.ptx.sreg.laneid : i32
  llvm.return %t : i32
}

// -----

llvm.mlir.global internal @buf() {respec.address_space = 3 : i32} : !llvm.array<4 x i32>
llvm.func @shared_helper() -> !llvm.ptr {
  // expected-error @below {{device function 'shared_helper' uses __shared__ memory but could not be inlined into its kernel}}
  %p = llvm.mlir.addressof @buf : !llvm.ptr
  llvm.return %p : !llvm.ptr
}


// -----

// The front end's shared-window base (PTX shared addresses are offsets from
// it: cvta.to.shared, cp.async, ld.shared [%r]) becomes the block's shared
// allocation, the same base the shared variables are laid out from.

// CHECK-LABEL: module
// CHECK-NOT: __respec_shared_window
// CHECK-LABEL: llvm.func internal @__respec_thread.window_kernel(
// CHECK-SAME: %[[BASE:[^:]*]]: !llvm.ptr, %[[OFF:[^:]*]]: i64)
// CHECK-NOT: __respec_shared_window
// CHECK: %[[O0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[TILE:.*]] = llvm.getelementptr %[[BASE]][%[[O0]]]
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[AT]] : i32, !llvm.ptr
// CHECK-LABEL: llvm.func @__respec_launch.window_kernel(
// CHECK-SAME: respec.static_shared_bytes = 64 : i64
llvm.func @__respec_shared_window() -> !llvm.ptr
llvm.mlir.global internal @tile() {alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<16 x i32> {
  %0 = llvm.mlir.undef : !llvm.array<16 x i32>
  llvm.return %0 : !llvm.array<16 x i32>
}
llvm.func ptx_kernelcc @window_kernel(%offset: i64) {
  %t = llvm.mlir.addressof @tile : !llvm.ptr
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.store %c, %t : i32, !llvm.ptr
  %w = llvm.call @__respec_shared_window() : () -> !llvm.ptr
  %p = llvm.getelementptr %w[%offset] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.store %c, %p : i32, !llvm.ptr
  llvm.return
}

// -----

llvm.func @__respec_shared_window() -> !llvm.ptr
llvm.func @window_helper() -> !llvm.ptr {
  // expected-error @below {{device function 'window_helper' uses __shared__ memory but could not be inlined into its kernel}}
  %w = llvm.call @__respec_shared_window() : () -> !llvm.ptr
  llvm.return %w : !llvm.ptr
}

// -----

// respec's own shared variables (the wmma scratch area) are allocated with
// the block's shared memory but not counted in the static shared memory the
// program sees: 16 of the 1040 bytes.

// CHECK-LABEL: llvm.func @__respec_launch.scratch_kernel(
// CHECK-SAME: respec.static_shared_bytes = 16 : i64
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(1040 : i64) : i64
// CHECK: llvm.call @__respec_shared_memory(%[[BYTES]])
llvm.mlir.global internal @__respec_wmma_scratch() {alignment = 16 : i64, respec.address_space = 3 : i32} : !llvm.array<1024 x i8> {
  %0 = llvm.mlir.undef : !llvm.array<1024 x i8>
  llvm.return %0 : !llvm.array<1024 x i8>
}
llvm.mlir.global internal @user_tile() {alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<4 x i32> {
  %0 = llvm.mlir.undef : !llvm.array<4 x i32>
  llvm.return %0 : !llvm.array<4 x i32>
}
llvm.func ptx_kernelcc @scratch_kernel() {
  %s = llvm.mlir.addressof @__respec_wmma_scratch : !llvm.ptr
  %t = llvm.mlir.addressof @user_tile : !llvm.ptr
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.store %c, %s : i32, !llvm.ptr
  llvm.store %c, %t : i32, !llvm.ptr
  llvm.return
}
