// Every block has its own copy of shared memory: 520 blocks (a 40x13 grid)
// fill a shared array and a shared tag with values derived from their block
// id, then exchange values between threads over several rounds with
// barriers; every result depends on the block id, so blocks that saw another
// block's shared memory (blocks run concurrently on the CPU cores) would give
// wrong results. Block sizes 256 and 100.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O2 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
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

__global__ void perBlock(int *out, int rounds) {
  __shared__ int s[256];
  __shared__ int blockTag;
  int tid = threadIdx.x, n = blockDim.x;
  int b = blockIdx.x + gridDim.x * blockIdx.y;
  if (tid == 0)
    blockTag = b * 1000 + 7;
  s[tid] = b * n + tid;
  __syncthreads();
  int acc = blockTag;
  for (int r = 0; r < rounds; ++r) {
    int v = s[(tid + r + 1) % n];
    acc += v;
    __syncthreads();
    s[tid] = v ^ (b + r);
    __syncthreads();
  }
  out[b * n + tid] = acc + s[n - 1 - tid];
}

int main() {
  const dim3 grid(40, 13);
  const int blockSizes[] = {256, 100};
  const int rounds = 6;
  int errors = 0;
  for (int bs : blockSizes) {
    int nb = grid.x * grid.y, n = nb * bs;
    int *d;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMemset(d, 0, n * sizeof(int)));
    perBlock<<<grid, bs>>>(d, rounds);
    CUDA_CHECK(cudaGetLastError());
    int *got = (int *)malloc(n * sizeof(int));
    CUDA_CHECK(cudaMemcpy(got, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    int *s = (int *)malloc(bs * sizeof(int));
    int *v = (int *)malloc(bs * sizeof(int));
    int *acc = (int *)malloc(bs * sizeof(int));
    for (int b = 0; b < nb; ++b) {
      for (int t = 0; t < bs; ++t) {
        s[t] = b * bs + t;
        acc[t] = b * 1000 + 7;
      }
      for (int r = 0; r < rounds; ++r) {
        for (int t = 0; t < bs; ++t) {
          v[t] = s[(t + r + 1) % bs];
          acc[t] += v[t];
        }
        for (int t = 0; t < bs; ++t)
          s[t] = v[t] ^ (b + r);
      }
      for (int t = 0; t < bs; ++t) {
        int want = acc[t] + s[bs - 1 - t];
        if (got[b * bs + t] != want && ++errors <= 5)
          printf("block size %d: block %d thread %d = %d, expected %d\n", bs,
                 b, t, got[b * bs + t], want);
      }
    }
    CUDA_CHECK(cudaFree(d));
    free(got);
    free(s);
    free(v);
    free(acc);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
