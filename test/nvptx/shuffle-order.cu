// Warp shuffles sit next to the arithmetic that uses them in the PTX
// (SinkWarpShuffles.cpp, and MachineSink off for NVPTX code generation).
// LLVM's pipeline sinks the multiply-adds of a register-cache kernel into
// the `if (active)` block of their stores, where the convergent shuffles
// cannot follow; the PTX then issued all 64 shuffles before the first
// multiply-add and ptxas kept their results live at once (79 registers per
// thread for this kernel instead of nvcc's 32; measured with ptxas 13.0).
//
// REQUIRES: cuda-toolkit
// RUN: %respec --target=nvptx --gpu-arch=sm_90 --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx
//
// CHECK-LABEL: .entry _Z4gemmPKfS0_Pfi(
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: shfl.sync
// CHECK: fma.rn.f32
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: shfl.sync
// CHECK: fma.rn.f32
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: shfl.sync
// CHECK: fma.rn.f32
//
// A shuffle does not move past another convergent operation (here a
// ballot) even when its result is used only after it.
// CHECK-LABEL: .entry _Z6votingPKiPii(
// CHECK: shfl.sync.down.b32
// CHECK: vote.sync.ballot.b32
// CHECK: ret;

#include <cuda_runtime.h>

#define G 8

__global__ void gemm(const float *A, const float *B, float *C, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  bool active = problem < batch;
  size_t base = (size_t)(active ? problem : batch - 1) * G * G;
  float a[G], b[G], c[G];
#pragma unroll
  for (int r = 0; r < G; ++r) {
    a[r] = A[base + r * G + lane];
    b[r] = B[base + r * G + lane];
    c[r] = 0;
  }
#pragma unroll
  for (int k = 0; k < G; ++k)
#pragma unroll
    for (int r = 0; r < G; ++r)
      c[r] += __shfl_sync(0xffffffffu, a[r], k, G) * b[k];
  if (active)
#pragma unroll
    for (int r = 0; r < G; ++r)
      C[base + r * G + lane] = c[r];
}

__global__ void voting(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int below = __shfl_down_sync(0xffffffffu, v, 1);
  unsigned big = __ballot_sync(0xffffffffu, v > 10);
  if (i < n)
    out[i] = below + (int)big;
}
