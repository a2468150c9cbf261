// Row-wise softmax, one block per row: a strided loop per thread, a shared
// max reduction, barrier, exponentials and a shared sum reduction, barrier,
// normalization; the reduction results are broadcast through shared memory.
// Block sizes 256, 128 and 1000 (guarded), row lengths 1000, 3001, 77.
// Compared with a host softmax with a relative tolerance.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=loop-interchange -O2 %s -o %t.noxchg && %t.noxchg | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
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
#include <cmath>

__global__ void softmax(const float *in, float *out, int len) {
  __shared__ float red[1024];
  __shared__ float rowMax, rowSum;
  const float *x = in + (size_t)blockIdx.x * len;
  float *y = out + (size_t)blockIdx.x * len;
  int tid = threadIdx.x;
  unsigned p = 1;
  while (p < blockDim.x)
    p <<= 1;
  float m = -INFINITY;
  for (int i = tid; i < len; i += blockDim.x)
    m = fmaxf(m, x[i]);
  red[tid] = m;
  __syncthreads();
  for (unsigned s = p / 2; s > 0; s >>= 1) {
    if (tid < s && tid + s < blockDim.x)
      red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  if (tid == 0)
    rowMax = red[0];
  __syncthreads();
  float mx = rowMax;
  float sum = 0.0f;
  for (int i = tid; i < len; i += blockDim.x) {
    float e = expf(x[i] - mx);
    y[i] = e;
    sum += e;
  }
  red[tid] = sum;
  __syncthreads();
  for (unsigned s = p / 2; s > 0; s >>= 1) {
    if (tid < s && tid + s < blockDim.x)
      red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    rowSum = red[0];
  __syncthreads();
  float inv = 1.0f / rowSum;
  for (int i = tid; i < len; i += blockDim.x)
    y[i] *= inv;
}

int main() {
  const int blockSizes[] = {256, 128, 1000};
  const int lens[] = {1000, 3001, 77};
  const int rows = 12;
  int errors = 0;
  for (int c = 0; c < 3; ++c) {
    int bs = blockSizes[c], len = lens[c], n = rows * len;
    float *h = (float *)malloc(n * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
      h[i] = ((float)(lcg() % 20000) - 10000.0f) / 1000.0f + (i / len) * 3.0f;
    float *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    softmax<<<rows, bs>>>(d, dOut, len);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r) {
      const float *x = h + r * len;
      double mx = x[0], sum = 0;
      for (int i = 1; i < len; ++i)
        mx = x[i] > mx ? x[i] : mx;
      for (int i = 0; i < len; ++i)
        sum += exp((double)x[i] - mx);
      double rowTotal = 0;
      for (int i = 0; i < len; ++i) {
        double want = exp((double)x[i] - mx) / sum;
        double g = got[r * len + i];
        rowTotal += g;
        if (!(fabs(g - want) <= 1e-5 * want + 1e-9) && ++errors <= 5)
          printf("block %d len %d: row %d element %d = %.9g, expected %.9g\n",
                 bs, len, r, i, g, want);
      }
      if (!(fabs(rowTotal - 1.0) <= 1e-4) && ++errors <= 5)
        printf("block %d len %d: row %d sums to %.9g\n", bs, len, r, rowTotal);
    }
    CUDA_CHECK(cudaFree(d));
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
