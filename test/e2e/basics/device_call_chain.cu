// A chain of __device__ and __host__ __device__ helper functions (several
// levels deep, no recursion, some forced out of line), shared between the
// kernel and the host reference.
// RUN: %respec -O2 -g %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 -g %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 -g %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
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

// 32-bit integer hash (xorshift-multiply), usable on both sides.
__host__ __device__ unsigned hashU32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__host__ __device__ __noinline__ int clampInt(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__host__ __device__ int collatzSteps(unsigned v, int limit) {
  int steps = 0;
  while (v != 1 && steps < limit) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  return steps;
}

__device__ __noinline__ int level3(unsigned seed) {
  return clampInt(collatzSteps(seed % 10000 + 1, 500), 0, 200);
}

__device__ int level2(unsigned seed) { return level3(hashU32(seed)) * 2 + 1; }

__device__ __noinline__ int level1(int i) {
  int a = level2((unsigned)i);
  int b = level2((unsigned)i + 7919u);
  return a - b;
}

__global__ void chainKernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = level1(i);
}

// Host reference, written independently of the device-only helpers.
static int hostLevel2(unsigned seed) {
  return clampInt(collatzSteps(hashU32(seed) % 10000 + 1, 500), 0, 200) * 2 + 1;
}

int main() {
  const int n = 65537;
  int *h = (int *)malloc(n * sizeof(int));
  int *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  chainKernel<<<(n + 99) / 100, 100>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int e = hostLevel2((unsigned)i) - hostLevel2((unsigned)i + 7919u);
    if (h[i] != e) {
      printf("mismatch at %d: got %d, expected %d\n", i, h[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(d));
  free(h);
  printf("PASSED\n");
  return 0;
}
