// 64-bit indexing: indices, strides and loop bounds are size_t, and the
// values formed from them exceed 2^32, so any truncation to 32 bits shows.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O2 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cstdint>
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

// Writes, for every element, a 64-bit value derived from a logical index
// that starts at `base` (> 2^32) so the arithmetic must not truncate.
__global__ void fill64(uint64_t *out, size_t n, size_t base) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  size_t logical = base + i * (size_t)4096;
  out[i] = logical * 3u + (logical >> 33);
}

// Grid-stride loop whose stride and bounds are size_t.
__global__ void scaleStride(float *data, size_t n, float s) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    data[i] *= s;
}

int main() {
  const size_t n = (size_t)1 << 20;
  const size_t base = ((size_t)1 << 34) + 12345;
  uint64_t *h = (uint64_t *)malloc(n * sizeof(uint64_t));
  uint64_t *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(uint64_t)));
  unsigned grid = (unsigned)((n + 511) / 512);
  fill64<<<grid, 512>>>(d, n, base);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    size_t logical = base + i * (size_t)4096;
    uint64_t e = logical * 3u + (logical >> 33);
    if (h[i] != e) {
      printf("mismatch at %zu: got %llu, expected %llu\n", i,
             (unsigned long long)h[i], (unsigned long long)e);
      printf("FAILED\n");
      return 1;
    }
  }

  const size_t m = 700001;
  float *hf = (float *)malloc(m * sizeof(float));
  for (size_t i = 0; i < m; ++i)
    hf[i] = (float)(i % 1024);
  float *df;
  CUDA_CHECK(cudaMalloc(&df, m * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(df, hf, m * sizeof(float), cudaMemcpyHostToDevice));
  scaleStride<<<37, 128>>>(df, m, -0.5f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hf, df, m * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < m; ++i) {
    float e = (float)(i % 1024) * -0.5f;
    if (hf[i] != e) {
      printf("stride mismatch at %zu: got %f, expected %f\n", i, hf[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(df));
  free(h);
  free(hf);
  printf("PASSED\n");
  return 0;
}
