// __reduce_*_sync after some lanes of each warp have returned: only the
// non-exited lanes of the mask are combined.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define BLOCKS 64
#define THREADS 64
#define N (BLOCKS * THREADS)
#define NR 7
#define SENT 0x5eed

__host__ __device__ int liveLanes(int warp) { return warp % 2 ? 1 : 16; }

__global__ void reductions(int *out) {
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
  r[0] = (int)__reduce_add_sync(FULL, 1u);
  r[1] = __reduce_min_sync(FULL, odd ? 100 + lane : 0);
  r[2] = __reduce_max_sync(FULL, odd ? -100 - lane : 0);
  r[3] = (int)__reduce_min_sync(FULL, odd ? 5u + lane : 0u);
  r[4] = (int)__reduce_and_sync(FULL, odd ? FULL : 0u);
  r[5] = (int)__reduce_or_sync(FULL, odd ? 1u : 0xff00u);
  r[6] = (int)__reduce_xor_sync(FULL, odd ? 1u << lane : 0x10000u);
}

int main() {
  static int out[N * NR];
  for (int i = 0; i < N * NR; ++i)
    out[i] = SENT;
  int *dOut;
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dOut, out, sizeof out, cudaMemcpyHostToDevice);
  reductions<<<BLOCKS, THREADS>>>(dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  static const char *names[NR] = {"add",    "min(int)", "max(int)", "min(unsigned)",
                                  "and",    "or",       "xor"};
  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, odd = gid / THREADS % 2;
    int n = odd ? liveLanes(gid % THREADS / 32) : 32;
    int want[NR];
    if (odd)
      want[0] = n, want[1] = 100, want[2] = -100, want[3] = 5, want[4] = -1,
      want[5] = 1, want[6] = (int)(n == 32 ? FULL : (1u << n) - 1);
    else
      want[0] = 32, want[1] = 0, want[2] = 0, want[3] = 0, want[4] = 0,
      want[5] = 0xff00, want[6] = 0;
    for (int k = 0; k < NR; ++k) {
      int w = lane < n ? want[k] : SENT;
      if (out[gid * NR + k] != w && ++errors <= 10)
        printf("%s thread %d (%d lanes live): got %#x, expected %#x\n",
               names[k], gid, n, out[gid * NR + k], w);
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}
