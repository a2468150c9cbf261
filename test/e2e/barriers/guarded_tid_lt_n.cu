// The correct idiom for partial blocks: threads with threadIdx.x >= n skip
// the work but still reach every barrier ("if (tid < n) { ... }
// __syncthreads();"). (1) The valid count differs per block (0, 1, blockDim
// and arbitrary values, read from an array): reverse/mix the valid prefix in
// three phases separated by barriers. (2) n is a kernel argument: a
// Hillis-Steele scan of the first n elements with the guard inside the loop.
// Outputs past the valid range must stay untouched.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
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

#define SENTINEL (-7777)

__global__ void reverseValid(const int *in, const int *counts, int *out) {
  __shared__ int s[1024];
  __shared__ int t[1024];
  int tid = threadIdx.x;
  int valid = counts[blockIdx.x];
  int base = blockIdx.x * blockDim.x;
  if (tid < valid)
    s[tid] = in[base + tid];
  __syncthreads();
  if (tid < valid)
    t[tid] = s[valid - 1 - tid] * 2 + s[(tid + 1) % valid];
  __syncthreads();
  if (tid < valid)
    s[tid] = t[tid] - t[0];
  __syncthreads();
  if (tid < valid)
    out[base + tid] = s[tid] + s[valid - 1];
}

__global__ void scanPrefix(const int *in, int *out, int n) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  const int *x = in + blockIdx.x * blockDim.x;
  if (tid < n)
    s[tid] = x[tid];
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    int v = 0;
    if (tid < n && tid >= offset)
      v = s[tid - offset];
    __syncthreads();
    if (tid < n)
      s[tid] += v;
    __syncthreads();
  }
  if (tid < n)
    out[blockIdx.x * blockDim.x + tid] = s[tid];
}

int main() {
  int errors = 0;
  const int blockSizes[] = {256, 1024, 130};
  const int blocks = 8;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    int *sentinels = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) {
      h[i] = (int)(lcg() % 1001) - 500;
      sentinels[i] = SENTINEL;
    }
    int counts[blocks] = {0, 1, bs, bs - 1, bs / 2, 3, (int)(lcg() % bs), 77 % bs};
    int *d, *dc, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dc, sizeof(counts)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dc, counts, sizeof(counts), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dOut, sentinels, n * sizeof(int), cudaMemcpyHostToDevice));
    reverseValid<<<blocks, bs>>>(d, dc, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      int valid = counts[b];
      const int *x = h + b * bs;
      for (int t = 0; t < bs; ++t) {
        int want = SENTINEL;
        if (t < valid) {
          int tt = x[valid - 1 - t] * 2 + x[(t + 1) % valid];
          int t0 = x[valid - 1] * 2 + x[1 % valid];
          int tl = x[0] * 2 + x[valid % valid];
          want = (tt - t0) + (tl - t0);
        }
        if (got[b * bs + t] != want && ++errors <= 5)
          printf("reverseValid block %d: block %d (valid %d) thread %d = %d, "
                 "expected %d\n",
                 bs, b, valid, t, got[b * bs + t], want);
      }
    }

    const int prefixes[] = {bs, bs - 3, 1, bs / 3};
    for (int p : prefixes) {
      CUDA_CHECK(cudaMemcpy(dOut, sentinels, n * sizeof(int), cudaMemcpyHostToDevice));
      scanPrefix<<<blocks, bs>>>(d, dOut, p);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
      for (int b = 0; b < blocks; ++b) {
        int run = 0;
        for (int t = 0; t < bs; ++t) {
          int want = SENTINEL;
          if (t < p) {
            run += h[b * bs + t];
            want = run;
          }
          if (got[b * bs + t] != want && ++errors <= 5)
            printf("scanPrefix block %d n %d: block %d thread %d = %d, "
                   "expected %d\n",
                   bs, p, b, t, got[b * bs + t], want);
        }
      }
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dc));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
    free(sentinels);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
