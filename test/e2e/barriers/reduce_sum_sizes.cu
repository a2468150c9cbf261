// Tree reduction in shared memory: per-block integer sums for block sizes
// 32..1024 (powers of two, halving stride from blockDim.x / 2) and for
// non-power-of-two block sizes 96, 100, 333, 1000, 1023 (the stride starts at
// the next power of two and a thread adds its partner only when the partner
// exists). The last block of every launch is partial: elements past n load 0.
// The host checks every block's sum.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O2 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
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

__global__ void sumPow2(const int *in, int n, int *partial) {
  __shared__ int s[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}

__global__ void sumAnySize(const int *in, int n, int *partial) {
  __shared__ int s[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  unsigned p = 1;
  while (p < blockDim.x)
    p <<= 1;
  for (unsigned stride = p / 2; stride > 0; stride >>= 1) {
    if (tid < stride && tid + stride < blockDim.x)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}

static int check(bool anySize, int block, const int *h, const int *d, int n,
                 int *dPartial, int *hPartial) {
  int grid = (n + block - 1) / block;
  CUDA_CHECK(cudaMemset(dPartial, 0xff, grid * sizeof(int)));
  if (anySize)
    sumAnySize<<<grid, block>>>(d, n, dPartial);
  else
    sumPow2<<<grid, block>>>(d, n, dPartial);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hPartial, dPartial, grid * sizeof(int),
                        cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int b = 0; b < grid; ++b) {
    int want = 0;
    for (int i = b * block; i < n && i < (b + 1) * block; ++i)
      want += h[i];
    if (hPartial[b] != want && ++errors <= 5)
      printf("%s block size %d: block %d sum %d, expected %d\n",
             anySize ? "sumAnySize" : "sumPow2", block, b, hPartial[b], want);
  }
  return errors;
}

int main() {
  const int n = 100003;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)(lcg() % 2001) - 1000;
  int *d, *dPartial;
  int *hPartial = (int *)malloc(n * sizeof(int));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dPartial, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));

  int errors = 0;
  const int pow2[] = {32, 64, 128, 256, 512, 1024};
  for (int b : pow2) {
    errors += check(false, b, h, d, n, dPartial, hPartial);
    errors += check(true, b, h, d, n, dPartial, hPartial);
  }
  const int other[] = {96, 100, 333, 1000, 1023};
  for (int b : other)
    errors += check(true, b, h, d, n, dPartial, hPartial);
  // A short array: a single partial block.
  errors += check(true, 333, h, d, 70, dPartial, hPartial);
  errors += check(false, 256, h, d, 70, dPartial, hPartial);

  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dPartial));
  free(h);
  free(hPartial);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
