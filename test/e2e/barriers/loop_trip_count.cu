// Barriers inside for loops whose trip count is (1) a kernel argument
// (iterated integer smoothing on a ring held in shared memory, iters = 0, 1,
// 7, 33), (2) computed from blockDim (a chunked block scan that walks the
// (blockDim.x + 31) / 32 chunks one per iteration), and (3) a halving loop
// "for (active = blockDim.x; active > 1; active = (active + 1) / 2)" that
// reduces any block size. Block sizes 1024, 96, 250, 32 and 33.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O2 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O2 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
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

__global__ void ringSmooth(const int *in, int *out, int iters) {
  __shared__ int s[1024];
  int tid = threadIdx.x, n = blockDim.x;
  int g = blockIdx.x * n + tid;
  s[tid] = in[g];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    int l = s[(tid + n - 1) % n], r = s[(tid + 1) % n];
    int v = (3 * l + s[tid] + 5 * r + it) & 0xFFFF;
    __syncthreads();
    s[tid] = v;
    __syncthreads();
  }
  out[g] = s[tid];
}

__global__ void chunkScan(const int *in, int *out) {
  __shared__ int s[1024];
  int tid = threadIdx.x, n = blockDim.x;
  int g = blockIdx.x * n + tid;
  s[tid] = in[g];
  __syncthreads();
  int chunks = (n + 31) / 32;
  if (tid % 32 == 0)
    for (int j = tid + 1; j < tid + 32 && j < n; ++j)
      s[j] += s[j - 1];
  __syncthreads();
  for (int c = 1; c < chunks; ++c) {
    if (tid / 32 == c)
      s[tid] += s[c * 32 - 1];
    __syncthreads();
  }
  out[g] = s[tid];
}

__global__ void halvingSum(const int *in, int *out) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int active = blockDim.x; active > 1; active = (active + 1) / 2) {
    int half = (active + 1) / 2;
    if (tid < active / 2)
      s[tid] += s[tid + half];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  const int blockSizes[] = {1024, 96, 250, 32, 33};
  const int iterCounts[] = {0, 1, 7, 33};
  const int blocks = 5;
  int errors = 0;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    int *cur = (int *)malloc(n * sizeof(int));
    int *nxt = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 1000) - 300;
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));

    for (int iters : iterCounts) {
      ringSmooth<<<blocks, bs>>>(d, dOut, iters);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; ++i)
        cur[i] = h[i];
      for (int it = 0; it < iters; ++it) {
        for (int i = 0; i < n; ++i) {
          int b = i / bs, t = i % bs;
          int l = cur[b * bs + (t + bs - 1) % bs], r = cur[b * bs + (t + 1) % bs];
          nxt[i] = (3 * l + cur[i] + 5 * r + it) & 0xFFFF;
        }
        for (int i = 0; i < n; ++i)
          cur[i] = nxt[i];
      }
      for (int i = 0; i < n; ++i)
        if (got[i] != cur[i] && ++errors <= 5)
          printf("ringSmooth block %d iters %d: out[%d] = %d, expected %d\n",
                 bs, iters, i, got[i], cur[i]);
    }

    chunkScan<<<blocks, bs>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    int run = 0;
    for (int i = 0; i < n; ++i) {
      if (i % bs == 0)
        run = 0;
      run += h[i];
      if (got[i] != run && ++errors <= 5)
        printf("chunkScan block %d: out[%d] = %d, expected %d\n", bs, i,
               got[i], run);
    }

    halvingSum<<<blocks, bs>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      int want = 0;
      for (int t = 0; t < bs; ++t)
        want += h[b * bs + t];
      if (got[b] != want && ++errors <= 5)
        printf("halvingSum block %d: block %d = %d, expected %d\n", bs, b,
               got[b], want);
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
