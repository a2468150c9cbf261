// Kernels defined in another translation unit and launched through host
// wrapper functions declared in a shared header; the main TU has a kernel
// of its own too. Compiled separately (-c) with -I and linked.
// RUN: %respec -O2 -I %S/Inputs -c %s -o %t.main.o
// RUN: %respec -O2 -I %S/Inputs -c %S/Inputs/vector_ops.cu -o %t.ops.o
// RUN: %respec %t.main.o %t.ops.o -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "vector_ops.h"

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

__global__ void iota(float *d, int n, int mod) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = (float)(i % mod);
}

int main() {
  const int n = 100000, chunk = 100;
  float *a, *b, *partials;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&partials, (n / chunk) * sizeof(float)));
  iota<<<(n + 255) / 256, 256>>>(a, n, 10);
  CUDA_CHECK(cudaGetLastError());
  iota<<<(n + 255) / 256, 256>>>(b, n, 7);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(launchScale(b, n, -0.5f, 0));
  CUDA_CHECK(launchPartialDots(a, b, partials, n, chunk));
  float h[n / chunk];
  CUDA_CHECK(cudaMemcpy(h, partials, sizeof(h), cudaMemcpyDeviceToHost));
  for (int c = 0; c < n / chunk; ++c) {
    float e = 0.0f;
    for (int i = c * chunk; i < (c + 1) * chunk; ++i)
      e += (float)(i % 10) * ((float)(i % 7) * -0.5f);
    if (h[c] != e) {
      printf("chunk %d: got %f, expected %f\n", c, h[c], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(partials));
  printf("PASSED\n");
  return 0;
}
