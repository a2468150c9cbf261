// __match_any_sync and __match_all_sync after some lanes of each warp have
// returned: only the non-exited lanes of the mask are compared and named.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define BLOCKS 64
#define THREADS 64
#define N (BLOCKS * THREADS)
#define NR 5
#define SENT 0x5eed

__host__ __device__ int liveLanes(int warp) { return warp % 2 ? 1 : 16; }

__global__ void match(int *out) {
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
  int pred = SENT;
  r[0] = (int)__match_any_sync(FULL, 0);
  r[1] = (int)__match_all_sync(FULL, 0, &pred);
  r[2] = pred != 0;
  r[3] = (int)__match_any_sync(FULL, 0ll);
  r[4] = (int)__match_any_sync(FULL, odd ? 7u : 7u + (lane & 1));
}

int main() {
  static int out[N * NR];
  for (int i = 0; i < N * NR; ++i)
    out[i] = SENT;
  int *dOut;
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dOut, out, sizeof out, cudaMemcpyHostToDevice);
  match<<<BLOCKS, THREADS>>>(dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, odd = gid / THREADS % 2;
    int n = odd ? liveLanes(gid % THREADS / 32) : 32;
    int live = (int)(n == 32 ? FULL : (1u << n) - 1);
    int want[NR] = {live, live, 1, live,
                    odd ? live : (int)(lane & 1 ? 0xaaaaaaaau : 0x55555555u)};
    for (int k = 0; k < NR; ++k) {
      int w = lane < n ? want[k] : SENT;
      if (out[gid * NR + k] != w && ++errors <= 10)
        printf("item %d thread %d (%d lanes live): got %#x, expected %#x\n", k,
               gid, n, out[gid * NR + k], w);
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}
