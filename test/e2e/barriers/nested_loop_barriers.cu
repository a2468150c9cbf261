// Nested loops with barriers at two depths: (1) an outer repetition loop
// (trip count from a kernel argument) around an inner Hillis-Steele scan
// loop (barriers in the inner loop) followed by a barrier in the outer loop
// after a per-thread update; (2) a triangular nest whose inner trip count
// depends on the outer index (i % 3 + 1), with barriers inside the inner
// loop and after it. The host simulates both. Block sizes 256, 100, 1024.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=loop-interchange -O2 %s -o %t.noxchg && %t.noxchg | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O2 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
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

__global__ void repeatedScan(const int *in, int *out, int reps) {
  __shared__ int s[1024];
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  s[tid] = in[g];
  __syncthreads();
  for (int rep = 0; rep < reps; ++rep) {
    for (int offset = 1; offset < n; offset <<= 1) {
      int t = tid >= offset ? s[tid - offset] : 0;
      __syncthreads();
      s[tid] += t;
      __syncthreads();
    }
    s[tid] = s[tid] % 1009 + rep;
    __syncthreads();
  }
  out[g] = s[tid];
}

__global__ void triangular(const int *in, int *out, int m) {
  __shared__ int s[1024];
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  s[tid] = in[g];
  int acc = 0;
  __syncthreads();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < i % 3 + 1; ++j) {
      int v = s[(tid + i + j) % n];
      __syncthreads();
      s[tid] = (v * 7 + j + s[tid]) % 10007;
      __syncthreads();
    }
    acc += s[n - 1 - tid];
    __syncthreads();
    if (tid == 0)
      s[0] ^= i;
    __syncthreads();
  }
  out[g] = acc * 3 + s[tid];
}

int main() {
  const int blockSizes[] = {256, 100, 1024};
  const int blocks = 4;
  int errors = 0;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    int *s = (int *)malloc(bs * sizeof(int));
    int *tmp = (int *)malloc(bs * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 1000);
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));

    const int reps = 4;
    repeatedScan<<<blocks, bs>>>(d, dOut, reps);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      for (int t = 0; t < bs; ++t)
        s[t] = h[b * bs + t];
      for (int rep = 0; rep < reps; ++rep) {
        for (int t = 1; t < bs; ++t)
          s[t] += s[t - 1];
        for (int t = 0; t < bs; ++t)
          s[t] = s[t] % 1009 + rep;
      }
      for (int t = 0; t < bs; ++t)
        if (got[b * bs + t] != s[t] && ++errors <= 5)
          printf("repeatedScan block %d: block %d thread %d = %d, expected "
                 "%d\n",
                 bs, b, t, got[b * bs + t], s[t]);
    }

    const int m = 10;
    triangular<<<blocks, bs>>>(d, dOut, m);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    int *acc = (int *)malloc(bs * sizeof(int));
    for (int b = 0; b < blocks; ++b) {
      for (int t = 0; t < bs; ++t) {
        s[t] = h[b * bs + t];
        acc[t] = 0;
      }
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < i % 3 + 1; ++j) {
          for (int t = 0; t < bs; ++t)
            tmp[t] = s[(t + i + j) % bs];
          for (int t = 0; t < bs; ++t)
            s[t] = (tmp[t] * 7 + j + s[t]) % 10007;
        }
        for (int t = 0; t < bs; ++t)
          acc[t] += s[bs - 1 - t];
        s[0] ^= i;
      }
      for (int t = 0; t < bs; ++t) {
        int want = acc[t] * 3 + s[t];
        if (got[b * bs + t] != want && ++errors <= 5)
          printf("triangular block %d: block %d thread %d = %d, expected %d\n",
                 bs, b, t, got[b * bs + t], want);
      }
    }
    free(acc);
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
    free(s);
    free(tmp);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
