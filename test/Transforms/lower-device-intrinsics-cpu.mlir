// RUN: %respec-opt --respec-lower-device-intrinsics-cpu -split-input-file -verify-diagnostics=only-expected %s | FileCheck %s
// RUN: not %respec-opt --respec-lower-device-intrinsics-cpu -split-input-file %s 2>&1 | FileCheck %s --check-prefix=ERR

// libdevice calls with an LLVM intrinsic of the same signature become that
// intrinsic (keeping fast-math flags); the others stay calls into respec's
// device math library. NVPTX function attributes and `convergent` go away;
// other passthrough attributes stay. vprintf and __assertfail are renamed
// to the runtime's implementations. Atomics lose their NVPTX syncscope,
// NVVM fences become seq_cst fences, clock and timer registers become
// runtime calls (clock truncated to its 32 bits).

// CHECK-LABEL: module
// CHECK-DAG: llvm.func @__respec_globaltimer_ns() -> i64
// CHECK-DAG: llvm.func @__respec_clock64() -> i64
// CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32{{$}}
// CHECK-DAG: llvm.func @__nv_erff(f32) -> f32
// CHECK-DAG: llvm.func @__respec_vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__respec_assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-NOT: @vprintf
// CHECK-NOT: @__assertfail
// CHECK-LABEL: llvm.func internal @__respec_thread.k(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[P:[^:]*]]: !llvm.ptr)
// CHECK-SAME: attributes {passthrough = ["mustprogress", ["uniform-work-group-size", "true"]], respec.thread_function_of = "k"}
// CHECK: %[[SIN:.*]] = llvm.call_intrinsic "llvm.sin.f32"(%[[X]]) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
// CHECK: %[[ERF:.*]] = llvm.call @__nv_erff(%[[SIN]]) : (f32) -> f32
// CHECK: %[[FMA:.*]] = llvm.call_intrinsic "llvm.fma.f32"(%[[SIN]], %[[ERF]], %[[X]]) : (f32, f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.ctpop.i32"
// CHECK: llvm.call_intrinsic "llvm.bitreverse.i64"
// CHECK: llvm.call_intrinsic "llvm.umin.i32"
// CHECK: llvm.atomicrmw add %[[P]], %{{.*}} monotonic : !llvm.ptr, i32
// CHECK: llvm.cmpxchg %[[P]], %{{.*}}, %{{.*}} acq_rel monotonic : !llvm.ptr, i32
// CHECK: llvm.fence acquire
// CHECK: llvm.load %[[P]] atomic monotonic
// CHECK: llvm.store %{{.*}}, %[[P]] atomic release
// CHECK: llvm.fence seq_cst
// CHECK-NOT: llvm.nvvm.membar
// CHECK: %[[CLK:.*]] = llvm.call @__respec_clock64() : () -> i64
// CHECK: %[[CLK32:.*]] = llvm.trunc %[[CLK]] : i64 to i32
// CHECK: %[[CLK64:.*]] = llvm.call @__respec_clock64() : () -> i64
// CHECK: %[[GT:.*]] = llvm.call @__respec_globaltimer_ns() : () -> i64
// CHECK: llvm.call @__respec_vprintf(%[[P]], %[[P]])
// CHECK: llvm.call @__respec_assertfail(%[[P]], %[[P]], %{{.*}}, %[[P]], %[[CLK64]])
// CHECK: llvm.store %[[FMA]], %[[P]]
// CHECK: llvm.store %[[CLK32]], %[[P]]
// CHECK: llvm.store %[[GT]], %[[P]]
// CHECK-NOT: syncscope
// CHECK-NOT: convergent
// CHECK-NOT: nvvm.
llvm.func @__nv_sinf(f32) -> f32 attributes {convergent, target_cpu = "sm_80"}
llvm.func @__nv_erff(f32) -> f32
llvm.func @__nv_fmaf(f32, f32, f32) -> f32
llvm.func @__nv_popc(i32) -> i32
llvm.func @__nv_brevll(i64) -> i64
llvm.func @__nv_umin(i32, i32) -> i32
llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
llvm.func internal @__respec_thread.k(%x: f32, %p: !llvm.ptr) attributes {convergent, target_cpu = "sm_80", target_features = #llvm.target_features<["+ptx88", "+sm_80"]>, passthrough = ["mustprogress", ["target-cpu", "sm_80"], ["uniform-work-group-size", "true"]], respec.thread_function_of = "k"} {
  %s = llvm.call @__nv_sinf(%x) {convergent, fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
  %e = llvm.call @__nv_erff(%s) {convergent} : (f32) -> f32
  %f = llvm.call @__nv_fmaf(%s, %e, %x) : (f32, f32, f32) -> f32
  %i = llvm.mlir.constant(7 : i32) : i32
  %c = llvm.call @__nv_popc(%i) : (i32) -> i32
  %l = llvm.mlir.constant(7 : i64) : i64
  %r = llvm.call @__nv_brevll(%l) : (i64) -> i64
  %u = llvm.call @__nv_umin(%i, %c) : (i32, i32) -> i32
  %old = llvm.atomicrmw add %p, %i syncscope("device") monotonic : !llvm.ptr, i32
  %pair = llvm.cmpxchg %p, %i, %c syncscope("block") acq_rel monotonic : !llvm.ptr, i32
  llvm.fence syncscope("device") acquire
  %ld = llvm.load %p atomic syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %ld, %p atomic syncscope("block") release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.call_intrinsic "llvm.nvvm.membar.gl"() : () -> ()
  %clk = nvvm.read.ptx.sreg.clock : i32
  %clk64 = nvvm.read.ptx.sreg.clock64 : i64
  %gt = nvvm.read.ptx.sreg.globaltimer : i64
  %n = llvm.call @vprintf(%p, %p) : (!llvm.ptr, !llvm.ptr) -> i32
  llvm.call @__assertfail(%p, %p, %i, %p, %clk64) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
  llvm.store %f, %p : f32, !llvm.ptr
  llvm.store %clk, %p : i32, !llvm.ptr
  llvm.store %gt, %p : i64, !llvm.ptr
  llvm.return
}

// -----

// Host-side definitions named like the runtime services are not renamed.
// CHECK-LABEL: llvm.func @vprintf(
// CHECK: llvm.func @user(
// CHECK: llvm.call @vprintf
llvm.func @vprintf(%a: !llvm.ptr, %b: !llvm.ptr) -> i32 {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.func @user(%p: !llvm.ptr) {
  %0 = llvm.call @vprintf(%p, %p) : (!llvm.ptr, !llvm.ptr) -> i32
  llvm.return
}

// -----

// Round-to-nearest IEEE operations (__fadd_rn, __fmaf_rn, ...) become the
// CPU's own operations, without fast-math flags so that nothing contracts
// them into fused multiply-adds; the other rounding modes stay calls into
// the runtime, which switches the FP environment around the operation.
// CHECK-LABEL: llvm.func @rounded(
// CHECK-SAME: %[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32, %[[C:[^:]*]]: f32, %[[D:[^:]*]]: f64, %[[E:[^:]*]]: f64)
// CHECK: %[[SUM:.*]] = llvm.fadd %[[A]], %[[B]] : f32
// CHECK: %[[PROD:.*]] = llvm.fmul %[[SUM]], %[[C]] : f32
// CHECK: %[[FMA:.*]] = llvm.intr.fma(%[[PROD]], %[[A]], %[[B]]) : (f32, f32, f32) -> f32
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: %[[RCP:.*]] = llvm.fdiv %[[ONE]], %[[FMA]] : f32
// CHECK: %[[SQRT:.*]] = llvm.intr.sqrt(%[[D]]) : (f64) -> f64
// CHECK: %[[QUO:.*]] = llvm.fdiv %[[SQRT]], %[[E]] : f64
// CHECK: %[[RZ:.*]] = llvm.call @__nv_fadd_rz(%[[RCP]], %[[A]]) : (f32, f32) -> f32
// CHECK-NOT: llvm.call @__nv_{{.*}}_rn
llvm.func @__nv_fadd_rn(f32, f32) -> f32
llvm.func @__nv_fmul_rn(f32, f32) -> f32
llvm.func @__nv_fmaf_rn(f32, f32, f32) -> f32
llvm.func @__nv_frcp_rn(f32) -> f32
llvm.func @__nv_dsqrt_rn(f64) -> f64
llvm.func @__nv_ddiv_rn(f64, f64) -> f64
llvm.func @__nv_fadd_rz(f32, f32) -> f32
llvm.func @rounded(%a: f32, %b: f32, %c: f32, %d: f64, %e: f64) -> f32 {
  %sum = llvm.call @__nv_fadd_rn(%a, %b) {fastmathFlags = #llvm.fastmath<contract>} : (f32, f32) -> f32
  %prod = llvm.call @__nv_fmul_rn(%sum, %c) : (f32, f32) -> f32
  %fma = llvm.call @__nv_fmaf_rn(%prod, %a, %b) : (f32, f32, f32) -> f32
  %rcp = llvm.call @__nv_frcp_rn(%fma) : (f32) -> f32
  %sqrt = llvm.call @__nv_dsqrt_rn(%d) : (f64) -> f64
  %quo = llvm.call @__nv_ddiv_rn(%sqrt, %e) : (f64, f64) -> f64
  %rz = llvm.call @__nv_fadd_rz(%rcp, %a) : (f32, f32) -> f32
  llvm.return %rz : f32
}

// -----

// A module with nothing device-specific passes through unchanged.
// CHECK-LABEL: llvm.func @plain(
// CHECK-NEXT: llvm.return
llvm.func @plain() {
  llvm.return
}

// -----

// Unsupported features are reported with the kernel's demangled name and,
// for warp primitives, the CUDA spelling; all of them in one run. Barriers
// reach this pass only in functions that were not inlined into a kernel
// (raising turns the others into respec.barrier).
llvm.func internal @__respec_thread._Z4kernPf(%p: !llvm.ptr, %v: i32, %m: i32) attributes {respec.thread_function_of = "_Z4kernPf"} {
  // expected-error @below {{'kern(float*)' uses a block barrier (__syncthreads) but could not be inlined into its kernel (recursion or a call through a pointer); respec lowers barriers only inside kernels}}
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%v) : (i32) -> ()
  // expected-error @below {{'kern(float*)' uses a block barrier (__syncthreads)}}
  nvvm.barrier0
  // expected-error @below {{kernel 'kern(float*)' uses a warp-level primitive (__shfl_down_sync) that the CPU back end does not support here (it supports __activemask only where warps run as interleaved lanes: no __syncthreads in the kernel, not in a for loop whose bounds differ between lanes; no shuffles with a validity predicate; no primitives in functions that could not be inlined into their kernel)}}
  %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%m, %v, %v, %v) : (i32, i32, i32, i32) -> i32
  // expected-error @below {{warp-level primitive (__ballot_sync)}}
  %b = llvm.call_intrinsic "llvm.nvvm.vote.ballot.sync"(%m, %v) : (i32, i32) -> i32
  // expected-error @below {{warp-level primitive (nvvm.shfl.sync)}}
  %s2 = nvvm.shfl.sync bfly %m, %v, %v, %v : i32 -> i32
  // expected-error @below {{warp-level primitive (__syncwarp)}}
  llvm.call_intrinsic "llvm.nvvm.bar.warp.sync"(%m) : (i32) -> ()
  // expected-error @below {{warp-level primitive (__activemask)}}
  %a = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
  // expected-error @below {{kernel 'kern(float*)' uses the device intrinsic 'llvm.nvvm.foo.bar', which respec does not support on the CPU}}
  %x = llvm.call_intrinsic "llvm.nvvm.foo.bar"(%v) : (i32) -> i32
  llvm.return
}

// -----

// A function that is not a kernel's thread function is named as it is.
llvm.func @device_fn(%v: i32) {
  // expected-error @below {{'device_fn' uses a block barrier}}
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%v) : (i32) -> ()
  llvm.return
}

// -----

// The diagnostic carries the user's source location from the import (checked
// by the second RUN line; -verify-diagnostics=only-expected ignores these).
// ERR: saxpy.cu:12:5: error: 'sync_kernel' uses a block barrier (__syncthreads) but could not be inlined into its kernel
// ERR: saxpy.cu:14:9: error: kernel 'sync_kernel' uses a warp-level primitive (__shfl_sync)
llvm.func internal @__respec_thread.sync_kernel(%v: i32) attributes {respec.thread_function_of = "sync_kernel"} {
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%v) : (i32) -> () loc(fused<#llvm.di_subprogram<recId = distinct[0]<>, isRecSelf = true>>["saxpy.cu":12:5])
  %s = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%v, %v, %v, %v) : (i32, i32, i32, i32) -> i32 loc("saxpy.cu":14:9)
  llvm.return
}

// -----

// Inline assembly without side effects whose result is unused does nothing
// and is dropped; used or side-effecting assembly is an error (above).
// CHECK-LABEL: llvm.func @unused_asm(
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
llvm.func @unused_asm() {
  %p = llvm.inline_asm "cvta.shared.u64 $0, 0;", "=l" : () -> i64
  llvm.return
}

// -----

// Assembly that clobbers memory is kept (and rejected, naming the first
// instruction the PTX translator does not know).
llvm.func @clobbering_asm() {
  // expected-error @below {{uses inline PTX assembly ('brkpt') that respec cannot translate for the CPU}}
  %p = llvm.inline_asm "mov.u64 $0, 0;\n\tbrkpt;", "=l,~{memory}" : () -> i64
  llvm.return
}
