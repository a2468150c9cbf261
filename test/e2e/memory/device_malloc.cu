// Dynamic device memory: each thread malloc()s a scratch array in a
// kernel, fills and reduces it, and free()s it; a second kernel allocates
// per-block buffers in one launch that a later launch reads and frees.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O1 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O1 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
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

__global__ void scratchSum(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int len = 1 + i % 32;
  int *scratch = (int *)malloc(len * sizeof(int));
  if (scratch == nullptr) {
    out[i] = -1;
    return;
  }
  for (int k = 0; k < len; ++k)
    scratch[k] = i + k;
  int s = 0;
  for (int k = len - 1; k >= 0; --k)
    s += scratch[k];
  free(scratch);
  out[i] = s;
}

// Thread 0 of every block allocates; the pointers survive the launch.
__global__ void allocPerBlock(int **slots, int len) {
  if (threadIdx.x != 0)
    return;
  int *p = (int *)malloc(len * sizeof(int));
  if (p)
    for (int k = 0; k < len; ++k)
      p[k] = blockIdx.x * 1000 + k;
  slots[blockIdx.x] = p;
}

__global__ void readAndFree(int **slots, int len, long long *sums) {
  int *p = slots[blockIdx.x];
  if (threadIdx.x != 0)
    return;
  long long s = -1;
  if (p) {
    s = 0;
    for (int k = 0; k < len; ++k)
      s += p[k];
    free(p);
  }
  sums[blockIdx.x] = s;
}

int main() {
  const int n = 20000;
  int *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  scratchSum<<<(n + 127) / 128, 128>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
  int *h = (int *)malloc(n * sizeof(int));
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int len = 1 + i % 32;
    int e = len * i + len * (len - 1) / 2;
    if (h[i] != e) {
      printf("scratch sum at %d: got %d, expected %d\n", i, h[i], e);
      printf("FAILED\n");
      return 1;
    }
  }

  const int blocks = 50, len = 300;
  int **slots;
  long long *dsums;
  CUDA_CHECK(cudaMalloc(&slots, blocks * sizeof(int *)));
  CUDA_CHECK(cudaMalloc(&dsums, blocks * sizeof(long long)));
  allocPerBlock<<<blocks, 32>>>(slots, len);
  CUDA_CHECK(cudaGetLastError());
  readAndFree<<<blocks, 32>>>(slots, len, dsums);
  CUDA_CHECK(cudaGetLastError());
  long long sums[blocks];
  CUDA_CHECK(cudaMemcpy(sums, dsums, sizeof(sums), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    long long e = (long long)b * 1000 * len + (long long)len * (len - 1) / 2;
    if (sums[b] != e) {
      printf("block %d buffer sum %lld, expected %lld\n", b, sums[b], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(slots));
  CUDA_CHECK(cudaFree(dsums));
  free(h);
  printf("PASSED\n");
  return 0;
}
