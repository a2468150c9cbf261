// Each thread writes its shared slot, barrier, reads its neighbour's slot,
// barrier, repeated in a loop: values travel around a ring (left neighbour
// twice, then right neighbour, and so on), and in a second kernel along an
// open chain with boundary values injected at both ends. Block sizes 1024,
// 250, 33; 10 and 25 iterations. The host simulates the same steps.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}

__global__ void shiftRing(const int *in, int *out, int iters) {
  __shared__ int s[1024];
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  int v = in[g];
  for (int it = 0; it < iters; ++it) {
    s[tid] = v;
    __syncthreads();
    v = (it % 3 == 2) ? s[(tid + 1) % n] : s[(tid + n - 1) % n];
    __syncthreads();
  }
  out[g] = v;
}

__global__ void shiftChain(const int *in, int *out, int iters) {
  __shared__ int s[1024];
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  int v = in[g];
  for (int it = 0; it < iters; ++it) {
    s[tid] = v;
    __syncthreads();
    if (it & 1)
      v = tid + 1 < n ? s[tid + 1] + 1 : -(int)blockIdx.x - it;
    else
      v = tid > 0 ? s[tid - 1] * 2 % 1000003 : 1000 + it;
    __syncthreads();
  }
  out[g] = v;
}

int main() {
  const int blockSizes[] = {1024, 250, 33};
  const int iterCounts[] = {10, 25};
  const int blocks = 4;
  int errors = 0;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    int *cur = (int *)malloc(n * sizeof(int));
    int *nxt = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 100000);
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int iters : iterCounts)
      for (int chain = 0; chain < 2; ++chain) {
        if (chain)
          shiftChain<<<blocks, bs>>>(d, dOut, iters);
        else
          shiftRing<<<blocks, bs>>>(d, dOut, iters);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i)
          cur[i] = h[i];
        for (int it = 0; it < iters; ++it) {
          for (int i = 0; i < n; ++i) {
            int b = i / bs, t = i % bs;
            const int *s = cur + b * bs;
            if (!chain)
              nxt[i] = (it % 3 == 2) ? s[(t + 1) % bs] : s[(t + bs - 1) % bs];
            else if (it & 1)
              nxt[i] = t + 1 < bs ? s[t + 1] + 1 : -b - it;
            else
              nxt[i] = t > 0 ? s[t - 1] * 2 % 1000003 : 1000 + it;
          }
          for (int i = 0; i < n; ++i)
            cur[i] = nxt[i];
        }
        for (int i = 0; i < n; ++i)
          if (got[i] != cur[i] && ++errors <= 5)
            printf("%s block %d iters %d: out[%d] = %d, expected %d\n",
                   chain ? "shiftChain" : "shiftRing", bs, iters, i, got[i],
                   cur[i]);
      }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
    free(cur);
    free(nxt);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
