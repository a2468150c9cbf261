// Threads out of range return early, *before* barriers:
//   if (threadIdx.x >= n) return; ... __syncthreads(); ...
// Strictly undefined behaviour in CUDA (a barrier in divergent control
// flow), but common in real code, and on NVIDIA hardware since Volta exited
// threads simply do not take part in later barriers: the remaining threads
// synchronize among themselves. respec intends to give the hardware's answer,
// which is what the host check computes: the active threads exchange values
// through shared memory and reduce them; exited threads write nothing.
// (1) n is a kernel argument (blocks of 256 with n = 200, 256, 1, 129 and
// blocks of 1024 with n = 1000); (2) n read per block from an array.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O2 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O2 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
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

#define SENTINEL (-99999)

__global__ void earlyExit(const int *in, int *out, int *sums, int n) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  if (tid >= n)
    return;
  int g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g];
  __syncthreads();
  int v = s[(tid + 1) % n] + 2 * s[n - 1 - tid];
  __syncthreads();
  s[tid] = v;
  __syncthreads();
  unsigned p = 1;
  while (p < (unsigned)n)
    p <<= 1;
  for (unsigned stride = p / 2; stride > 0; stride >>= 1) {
    if (tid < stride && tid + stride < (unsigned)n)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  out[g] = v;
  if (tid == 0)
    sums[blockIdx.x] = s[0];
}

__global__ void earlyExitPerBlock(const int *in, const int *counts, int *out) {
  __shared__ int s[512];
  int tid = threadIdx.x;
  int n = counts[blockIdx.x];
  if (tid >= n)
    return;
  int g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g];
  for (int round = 0; round < 3; ++round) {
    __syncthreads();
    int v = s[(tid + round + 1) % n];
    __syncthreads();
    s[tid] += v;
  }
  __syncthreads();
  out[g] = s[n - 1 - tid];
}

int main() {
  int errors = 0;
  const int blocks = 6;
  const int cfgBlock[] = {256, 256, 256, 256, 1024};
  const int cfgN[] = {200, 256, 1, 129, 1000};
  for (int c = 0; c < 5; ++c) {
    int bs = cfgBlock[c], n = cfgN[c], total = bs * blocks;
    int *h = (int *)malloc(total * sizeof(int));
    int *got = (int *)malloc(total * sizeof(int));
    for (int i = 0; i < total; ++i) {
      h[i] = (int)(lcg() % 1001) - 500;
      got[i] = SENTINEL;
    }
    int *d, *dOut, *dSums;
    CUDA_CHECK(cudaMalloc(&d, total * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, total * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSums, blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, total * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dOut, got, total * sizeof(int), cudaMemcpyHostToDevice));
    earlyExit<<<blocks, bs>>>(d, dOut, dSums, n);
    CUDA_CHECK(cudaGetLastError());
    int sums[blocks];
    CUDA_CHECK(cudaMemcpy(got, dOut, total * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sums, dSums, sizeof(sums), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      const int *x = h + b * bs;
      int sum = 0;
      for (int t = 0; t < bs; ++t) {
        int want = SENTINEL;
        if (t < n) {
          want = x[(t + 1) % n] + 2 * x[n - 1 - t];
          sum += want;
        }
        if (got[b * bs + t] != want && ++errors <= 5)
          printf("earlyExit block %d n %d: block %d thread %d = %d, expected "
                 "%d\n",
                 bs, n, b, t, got[b * bs + t], want);
      }
      if (sums[b] != sum && ++errors <= 5)
        printf("earlyExit block %d n %d: block %d sum %d, expected %d\n", bs,
               n, b, sums[b], sum);
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dSums));
    free(h);
    free(got);
  }

  {
    const int bs = 512, nb = 7, total = bs * nb;
    int counts[nb] = {512, 1, 511, 100, 257, 2, 33};
    int *h = (int *)malloc(total * sizeof(int));
    int *got = (int *)malloc(total * sizeof(int));
    for (int i = 0; i < total; ++i) {
      h[i] = (int)(lcg() % 1001) - 500;
      got[i] = SENTINEL;
    }
    int *d, *dc, *dOut;
    CUDA_CHECK(cudaMalloc(&d, total * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dc, sizeof(counts)));
    CUDA_CHECK(cudaMalloc(&dOut, total * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, total * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dc, counts, sizeof(counts), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dOut, got, total * sizeof(int), cudaMemcpyHostToDevice));
    earlyExitPerBlock<<<nb, bs>>>(d, dc, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, total * sizeof(int), cudaMemcpyDeviceToHost));
    int s[bs], v[bs];
    for (int b = 0; b < nb; ++b) {
      int n = counts[b];
      for (int t = 0; t < n; ++t)
        s[t] = h[b * bs + t];
      for (int round = 0; round < 3; ++round) {
        for (int t = 0; t < n; ++t)
          v[t] = s[(t + round + 1) % n];
        for (int t = 0; t < n; ++t)
          s[t] += v[t];
      }
      for (int t = 0; t < bs; ++t) {
        int want = t < n ? s[n - 1 - t] : SENTINEL;
        if (got[b * bs + t] != want && ++errors <= 5)
          printf("earlyExitPerBlock: block %d (n %d) thread %d = %d, expected "
                 "%d\n",
                 b, n, t, got[b * bs + t], want);
      }
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dc));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
