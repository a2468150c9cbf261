// Warp shuffles sit next to the arithmetic that uses them in the PTX
// (SinkWarpShuffles.cpp, and MachineSink off for NVPTX code generation).
// LLVM's pipeline sinks the multiply-adds of a register-cache kernel into
// the `if (active)` block of their stores, where the convergent shuffles
// cannot follow; the PTX then issued all 64 shuffles before the first
// multiply-add and ptxas kept their results live at once (79 registers per
// thread for this kernel instead of nvcc's 32; measured with ptxas 13.0).
//
// The kernel is bench/core/gemm.cu's (groups of 8 lanes, float).
//
// REQUIRES: cuda-toolkit
// RUN: %respec --target=nvptx --gpu-arch=sm_90 --emit=ptx -DREAL=float %S/../../bench/core/gemm.cu -o %t.gemm.ptx
// RUN: FileCheck %s --input-file %t.gemm.ptx --check-prefix=GEMM
// RUN: %respec --target=nvptx --gpu-arch=sm_90 --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx
//
// GEMM-LABEL: .entry _Z4gemmIfLi8EEvPKT_S2_PS0_i(
// GEMM: shfl.sync.idx.b32
// GEMM-NOT: shfl.sync
// GEMM: fma.rn.f32
// GEMM: shfl.sync.idx.b32
// GEMM-NOT: shfl.sync
// GEMM: fma.rn.f32
// GEMM: shfl.sync.idx.b32
// GEMM-NOT: shfl.sync
// GEMM: fma.rn.f32
//
// A shuffle does not move past another convergent operation (here a
// ballot) even when its result is used only after it.
// CHECK-LABEL: .entry _Z6votingPKiPii(
// CHECK: shfl.sync.down.b32
// CHECK: vote.sync.ballot.b32
// CHECK: ret;

#include <cuda_runtime.h>

__global__ void voting(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int below = __shfl_down_sync(0xffffffffu, v, 1);
  unsigned big = __ballot_sync(0xffffffffu, v > 10);
  if (i < n)
    out[i] = below + (int)big;
}
