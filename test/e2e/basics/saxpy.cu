// SAXPY over a size that is not a multiple of the block size, so the last
// block is only partially used and the bounds check matters.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O2 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
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

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000003;
  const float a = 2.5f;
  float *hx = (float *)malloc(n * sizeof(float));
  float *hy = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  // Small integers and a = 2.5 keep every result exactly representable.
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 1000);
    hy[i] = (float)(i % 77) - 30.0f;
  }

  float *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));

  const int block = 256;
  const int grid = (n + block - 1) / block;
  saxpy<<<grid, block>>>(n, a, dx, dy);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out, dy, n * sizeof(float), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    float expected = a * hx[i] + hy[i];
    if (out[i] != expected) {
      printf("mismatch at %d: got %f, expected %f\n", i, out[i], expected);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  free(hx);
  free(hy);
  free(out);
  printf("PASSED\n");
  return 0;
}
