// Dynamic shared memory sized at launch (third launch parameter):
// (1) extern __shared__ float[] of blockDim.x elements, launched with two
//     different block sizes (256 and 1000) and so two different sizes;
// (2) one extern char[] buffer carved into a float array and an int array
//     whose length per thread is a kernel argument, the same kernel launched
//     with two different dynamic sizes;
// (3) extern __shared__ used together with static __shared__ arrays in one
//     kernel (the static arrays must not overlap the dynamic one);
// (4) extern __shared__ double[] in another kernel.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O2 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O2 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
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

extern __shared__ float dynF[];
extern __shared__ char dynBytes[];
extern __shared__ double dynD[];

__global__ void reverseBlock(const float *in, float *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  dynF[t] = in[g];
  __syncthreads();
  out[g] = dynF[blockDim.x - 1 - t];
}

__global__ void carved(const int *in, int *out, int perThread) {
  float *f = (float *)dynBytes;
  int *iv = (int *)(f + perThread * blockDim.x);
  int t = threadIdx.x, n = blockDim.x;
  int base = blockIdx.x * n * perThread;
  for (int k = 0; k < perThread; ++k) {
    f[k * n + t] = (float)in[base + k * n + t] * 0.5f;
    iv[k * n + t] = in[base + k * n + t] * 3;
  }
  __syncthreads();
  for (int k = 0; k < perThread; ++k) {
    int j = (k * n + t + 7) % (perThread * n);
    out[base + k * n + t] = (int)(f[j] * 2.0f) + iv[perThread * n - 1 - j];
  }
}

__global__ void mixedStaticDynamic(const float *in, float *out, int *counts) {
  __shared__ int bins[32];
  __shared__ float total;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t < 32)
    bins[t] = 0;
  if (t == 0)
    total = 0.0f;
  dynF[t] = in[g];
  __syncthreads();
  atomicAdd(&bins[((int)dynF[t]) & 31], 1);
  atomicAdd(&total, dynF[t]);
  __syncthreads();
  out[g] = dynF[(t + 1) % blockDim.x] + total;
  if (t < 32)
    counts[blockIdx.x * 32 + t] = bins[t];
}

__global__ void rotateDouble(const double *in, double *out, int shift) {
  int t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  dynD[t] = in[g];
  __syncthreads();
  out[g] = dynD[(t + shift) % n] - dynD[t];
}

int main() {
  int errors = 0;
  const int maxN = 8 * 1000 * 5;
  float *hf = (float *)malloc(maxN * sizeof(float));
  float *gf = (float *)malloc(maxN * sizeof(float));
  int *hi = (int *)malloc(maxN * sizeof(int));
  int *gi = (int *)malloc(maxN * sizeof(int));
  for (int i = 0; i < maxN; ++i) {
    hf[i] = (float)(lcg() % 64); // small integers: float sums are exact
    hi[i] = (int)(lcg() % 2001) - 1000;
  }
  float *df, *dfo;
  int *di, *dio;
  CUDA_CHECK(cudaMalloc(&df, maxN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dfo, maxN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&di, maxN * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dio, maxN * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(df, hf, maxN * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(di, hi, maxN * sizeof(int), cudaMemcpyHostToDevice));

  // (1)
  const int sizes1[] = {256, 1000};
  for (int n : sizes1) {
    reverseBlock<<<8, n, n * sizeof(float)>>>(df, dfo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(gf, dfo, 8 * n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8 * n; ++i) {
      float want = hf[(i / n) * n + n - 1 - i % n];
      if (gf[i] != want && ++errors <= 5)
        printf("reverseBlock %d: out[%d] = %g, expected %g\n", n, i, gf[i], want);
    }
  }

  // (2)
  const int per[] = {2, 5};
  for (int p : per) {
    int n = 192, blocks = 6;
    size_t bytes = (size_t)p * n * (sizeof(float) + sizeof(int));
    carved<<<blocks, n, bytes>>>(di, dio, p);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(gi, dio, blocks * n * p * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
      for (int k = 0; k < p; ++k)
        for (int t = 0; t < n; ++t) {
          int base = b * n * p;
          int j = (k * n + t + 7) % (p * n);
          int want = hi[base + j] + hi[base + p * n - 1 - j] * 3;
          int got = gi[base + k * n + t];
          if (got != want && ++errors <= 5)
            printf("carved perThread %d: block %d slot %d = %d, expected %d\n",
                   p, b, k * n + t, got, want);
        }
  }

  // (3)
  {
    int n = 160, blocks = 7;
    int *dc;
    CUDA_CHECK(cudaMalloc(&dc, blocks * 32 * sizeof(int)));
    mixedStaticDynamic<<<blocks, n, n * sizeof(float)>>>(df, dfo, dc);
    CUDA_CHECK(cudaGetLastError());
    int gc[7 * 32];
    CUDA_CHECK(cudaMemcpy(gc, dc, sizeof(gc), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gf, dfo, blocks * n * sizeof(float),
                          cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      float total = 0;
      int bins[32] = {0};
      for (int t = 0; t < n; ++t) {
        total += hf[b * n + t];
        bins[((int)hf[b * n + t]) & 31]++;
      }
      for (int t = 0; t < n; ++t) {
        float want = hf[b * n + (t + 1) % n] + total;
        if (gf[b * n + t] != want && ++errors <= 5)
          printf("mixedStaticDynamic: block %d thread %d = %g, expected %g\n",
                 b, t, gf[b * n + t], want);
      }
      for (int k = 0; k < 32; ++k)
        if (gc[b * 32 + k] != bins[k] && ++errors <= 5)
          printf("mixedStaticDynamic: block %d bin %d = %d, expected %d\n", b,
                 k, gc[b * 32 + k], bins[k]);
    }
    CUDA_CHECK(cudaFree(dc));
  }

  // (4)
  {
    int n = 300, blocks = 5;
    double *hd = (double *)malloc(n * blocks * sizeof(double));
    double *gd = (double *)malloc(n * blocks * sizeof(double));
    for (int i = 0; i < n * blocks; ++i)
      hd[i] = (double)(lcg() % 1000000) * 0.125;
    double *dd, *ddo;
    CUDA_CHECK(cudaMalloc(&dd, n * blocks * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&ddo, n * blocks * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dd, hd, n * blocks * sizeof(double),
                          cudaMemcpyHostToDevice));
    rotateDouble<<<blocks, n, n * sizeof(double)>>>(dd, ddo, 17);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(gd, ddo, n * blocks * sizeof(double),
                          cudaMemcpyDeviceToHost));
    for (int i = 0; i < n * blocks; ++i) {
      int b = i / n, t = i % n;
      double want = hd[b * n + (t + 17) % n] - hd[i];
      if (gd[i] != want && ++errors <= 5)
        printf("rotateDouble: out[%d] = %g, expected %g\n", i, gd[i], want);
    }
    CUDA_CHECK(cudaFree(dd));
    CUDA_CHECK(cudaFree(ddo));
    free(hd);
    free(gd);
  }

  CUDA_CHECK(cudaFree(df));
  CUDA_CHECK(cudaFree(dfo));
  CUDA_CHECK(cudaFree(di));
  CUDA_CHECK(cudaFree(dio));
  free(hf);
  free(gf);
  free(hi);
  free(gi);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
