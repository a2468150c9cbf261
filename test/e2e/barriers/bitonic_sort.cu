// Bitonic sort in shared memory: nested loops (size, stride) with a barrier
// per step. Kernel 1: each block sorts 2 * blockDim.x keys, every thread
// doing one compare-exchange per step (blocks of 512, 64, 1024 threads).
// Kernel 2: one thread per key, the thread with the lower index of each pair
// does the exchange and the others only reach the barrier (256 and 32
// threads). Each block sorts its own segment ascending; the host compares with
// std::sort of every segment. Keys have many duplicates.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
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
#include <algorithm>

__global__ void bitonicPairs(unsigned *keys) {
  __shared__ unsigned s[2048];
  unsigned tid = threadIdx.x, N = 2 * blockDim.x;
  unsigned *g = keys + blockIdx.x * N;
  s[tid] = g[tid];
  s[tid + blockDim.x] = g[tid + blockDim.x];
  for (unsigned size = 2; size <= N; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned i = 2 * stride * (tid / stride) + (tid % stride);
      unsigned j = i + stride;
      bool up = (i & size) == 0;
      unsigned a = s[i], b = s[j];
      if ((a > b) == up) {
        s[i] = b;
        s[j] = a;
      }
    }
  __syncthreads();
  g[tid] = s[tid];
  g[tid + blockDim.x] = s[tid + blockDim.x];
}

__global__ void bitonicPerElement(unsigned *keys) {
  __shared__ unsigned s[1024];
  unsigned tid = threadIdx.x, N = blockDim.x;
  unsigned *g = keys + blockIdx.x * N;
  s[tid] = g[tid];
  __syncthreads();
  for (unsigned size = 2; size <= N; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      unsigned partner = tid ^ stride;
      if (partner > tid) {
        bool up = (tid & size) == 0;
        unsigned a = s[tid], b = s[partner];
        if ((a > b) == up) {
          s[tid] = b;
          s[partner] = a;
        }
      }
      __syncthreads();
    }
  g[tid] = s[tid];
}

static int check(bool pairs, int threads, int blocks) {
  int per = pairs ? 2 * threads : threads;
  int n = per * blocks;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  unsigned *got = (unsigned *)malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    h[i] = lcg() % 1000;
  unsigned *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  if (pairs)
    bitonicPairs<<<blocks, threads>>>(d);
  else
    bitonicPerElement<<<blocks, threads>>>(d);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int b = 0; b < blocks; ++b)
    std::sort(h + b * per, h + (b + 1) * per);
  for (int i = 0; i < n; ++i)
    if (got[i] != h[i] && ++errors <= 5)
      printf("%s threads %d: key %d = %u, expected %u\n",
             pairs ? "bitonicPairs" : "bitonicPerElement", threads, i, got[i],
             h[i]);
  CUDA_CHECK(cudaFree(d));
  free(h);
  free(got);
  return errors;
}

int main() {
  int errors = 0;
  errors += check(true, 512, 6);
  errors += check(true, 64, 10);
  errors += check(true, 1024, 2);
  errors += check(false, 256, 8);
  errors += check(false, 32, 5);
  errors += check(false, 1024, 2);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
