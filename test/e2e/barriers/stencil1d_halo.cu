// 1-D stencil of radius 3 with the halo staged in shared memory: every thread
// loads its element, the first RADIUS threads also load the left and right
// halo (zero outside the array), one barrier, then each thread applies the
// 7-point weighted stencil from shared memory. Block sizes 256, 100, 1024 and
// 33, array length not a multiple of any of them. Integer data, exact check.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
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

#define RADIUS 3
#define MAXB 1024

__global__ void stencil1d(const int *in, int *out, int n) {
  __shared__ int s[MAXB + 2 * RADIUS];
  int lid = threadIdx.x + RADIUS;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  s[lid] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS;
    int right = g + blockDim.x;
    s[lid - RADIUS] = left >= 0 && left < n ? in[left] : 0;
    s[lid + blockDim.x] = right < n ? in[right] : 0;
  }
  __syncthreads();
  if (g < n) {
    int acc = 0;
    for (int k = -RADIUS; k <= RADIUS; ++k)
      acc += (k + RADIUS + 1) * s[lid + k];
    out[g] = acc;
  }
}

int main() {
  const int n = 100003;
  int *h = (int *)malloc(n * sizeof(int));
  int *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)(lcg() % 2001) - 1000;
  int *d, *dOut;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  int errors = 0;
  const int blocks[] = {256, 100, 1024, 33};
  for (int b : blocks) {
    CUDA_CHECK(cudaMemset(dOut, 0, n * sizeof(int)));
    stencil1d<<<(n + b - 1) / b, b>>>(d, dOut, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int want = 0;
      for (int k = -RADIUS; k <= RADIUS; ++k)
        if (i + k >= 0 && i + k < n)
          want += (k + RADIUS + 1) * h[i + k];
      if (got[i] != want && ++errors <= 5)
        printf("block %d: out[%d] = %d, expected %d\n", b, i, got[i], want);
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dOut));
  free(h);
  free(got);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
