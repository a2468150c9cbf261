// wmma for the CPU: lane l of a fragment holds the E/32 consecutive
// elements of its matrix (row-major) from l * E/32 on, so load_matrix_sync
// and store_matrix_sync are each lane's loads and stores; mma_sync writes
// the lane's operands, as floats, to its warp's part of a shared scratch
// area (respec's own, not counted in the kernel's static shared memory),
// synchronizes the warp, computes the lane's part of a row of D in a loop
// over K, and synchronizes the warp again. __float_to_tf32 (cvt.rna.tf32.f32) keeps 10 fraction bits.
// REQUIRES: cuda-toolkit
// RUN: %respec --emit=llvm %s -o - | FileCheck %s
// RUN: not %respec -c -DSUBBYTE %s -o %t.sub.o 2>&1 | FileCheck %s --check-prefix=SUBBYTE

#include <mma.h>
using namespace nvcuda;

// CHECK: @__respec_wmma_scratch = internal addrspace(3) global [65536 x i8] undef, align 16
// CHECK-LABEL: define {{.*}}@_Z4gemmPK6__halfS1_Pf(
// CHECK-NOT: llvm.nvvm.wmma
// CHECK: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
// CHECK: load half, ptr
// CHECK: getelementptr i8, ptr addrspace(3) @__respec_wmma_scratch
// CHECK: fpext half %{{.*}} to float
// CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
// CHECK: [[K:[0-9]+]]:
// CHECK: fmul float
// CHECK: fadd float
// CHECK: br i1 %{{.*}}, label %[[K]], label
// CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
// CHECK-COUNT-8: store float
// CHECK: and i32 %{{.*}}, -8192
// CHECK-NOT: llvm.nvvm.wmma
// CHECK: ret void
__global__ void gemm(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  c[threadIdx.x] = wmma::__float_to_tf32(c[threadIdx.x]);
}

#ifdef SUBBYTE
// SUBBYTE: wmma.cu:[[@LINE+5]]:3: error: kernel 'subByte(void const*, int*)' uses the device intrinsic 'llvm.nvvm.wmma.m8n8k32.load.a.row.stride.s4
__global__ void subByte(const void *a, int *c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4,
                 wmma::row_major>
      fa;
  wmma::load_matrix_sync(fa, a, 32);
  c[0] = fa.x[0];
}
#endif
