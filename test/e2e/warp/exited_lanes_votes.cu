// Votes after some lanes of each warp have returned: exited lanes do not
// take part (CUDA evaluates the non-exited threads of the mask), also in
// blocks that follow a block where every lane voted on the same CPU thread.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define BLOCKS 64
#define THREADS 64
#define N (BLOCKS * THREADS)
#define NR 4
#define SENT 0x5eed

__host__ __device__ int liveLanes(int warp) { return warp % 2 ? 1 : 16; }

__global__ void votes(int *out) {
  __shared__ int s[THREADS];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, odd = blockIdx.x % 2;
  // A block barrier first (which keeps respec from running the warps as
  // interleaved lanes: the barrier emulation of warp primitives is tested).
  s[threadIdx.x] = lane;
  __syncthreads();
  if (odd && s[threadIdx.x] >= liveLanes(threadIdx.x / 32))
    return;
  int *r = out + gid * NR;
  r[0] = (int)__ballot_sync(FULL, 1);
  r[1] = __any_sync(FULL, !odd);
  r[2] = __all_sync(FULL, odd);
  r[3] = __uni_sync(FULL, odd || lane % 2);
}

int main() {
  static int out[N * NR];
  for (int i = 0; i < N * NR; ++i)
    out[i] = SENT;
  int *dOut;
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dOut, out, sizeof out, cudaMemcpyHostToDevice);
  votes<<<BLOCKS, THREADS>>>(dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, odd = gid / THREADS % 2;
    int n = odd ? liveLanes(gid % THREADS / 32) : 32;
    int want[NR] = {(int)(n == 32 ? FULL : (1u << n) - 1), !odd, odd, odd};
    for (int k = 0; k < NR; ++k) {
      int w = lane < n ? want[k] : SENT;
      if (out[gid * NR + k] != w && ++errors <= 10)
        printf("%s thread %d (%d lanes live): got %#x, expected %#x\n",
               k == 0 ? "ballot" : k == 1 ? "any" : k == 2 ? "all" : "uni",
               gid, n, out[gid * NR + k], w);
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}
