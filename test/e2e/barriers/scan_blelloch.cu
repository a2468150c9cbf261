// Work-efficient (Blelloch) exclusive scan of a large array: each block of T
// threads scans 2*T elements in shared memory (up-sweep and down-sweep loops
// with a barrier per level) and writes its block total; the block totals are
// scanned recursively the same way, and a third kernel (which stages the
// block's offset in shared memory) adds them back. T = 512 and T = 128
// (three levels of recursion), n not a multiple of 2*T.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
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

__global__ void blellochBlock(const unsigned *in, unsigned *out,
                              unsigned *blockSums, int n) {
  __shared__ unsigned temp[2048];
  int tid = threadIdx.x;
  int m = 2 * blockDim.x; // power of two
  int base = blockIdx.x * m;
  temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) { // up-sweep
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    if (blockSums)
      blockSums[blockIdx.x] = temp[m - 1];
    temp[m - 1] = 0;
  }
  for (int d = 1; d < m; d *= 2) { // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      unsigned t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n)
    out[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n)
    out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void addBlockOffsets(unsigned *data, const unsigned *offsets,
                                int n) {
  __shared__ unsigned add;
  if (threadIdx.x == 0)
    add = offsets[blockIdx.x];
  __syncthreads();
  int base = blockIdx.x * 2 * blockDim.x;
  for (int k = threadIdx.x; k < 2 * (int)blockDim.x; k += blockDim.x)
    if (base + k < n)
      data[base + k] += add;
}

// Exclusive scan of in[0..n) into out (device pointers).
static void scanDevice(const unsigned *in, unsigned *out, int n, int T) {
  int perBlock = 2 * T;
  int blocks = (n + perBlock - 1) / perBlock;
  if (blocks == 1) {
    blellochBlock<<<1, T>>>(in, out, nullptr, n);
    CUDA_CHECK(cudaGetLastError());
    return;
  }
  unsigned *sums, *sumsScanned;
  CUDA_CHECK(cudaMalloc(&sums, blocks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&sumsScanned, blocks * sizeof(unsigned)));
  blellochBlock<<<blocks, T>>>(in, out, sums, n);
  CUDA_CHECK(cudaGetLastError());
  scanDevice(sums, sumsScanned, blocks, T);
  addBlockOffsets<<<blocks, T>>>(out, sumsScanned, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaFree(sums));
  CUDA_CHECK(cudaFree(sumsScanned));
}

int main() {
  const int n = 300001;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  unsigned *got = (unsigned *)malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    h[i] = lcg() % 10;
  unsigned *d, *dOut;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));

  int errors = 0;
  const int sizes[] = {n, 1000, 1};
  const int threads[] = {512, 128};
  for (int T : threads)
    for (int len : sizes) {
      CUDA_CHECK(cudaMemset(dOut, 0xff, n * sizeof(unsigned)));
      scanDevice(d, dOut, len, T);
      CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(unsigned),
                            cudaMemcpyDeviceToHost));
      unsigned run = 0;
      for (int i = 0; i < len; ++i) {
        if (got[i] != run && ++errors <= 5)
          printf("T %d n %d: out[%d] = %u, expected %u\n", T, len, i, got[i],
                 run);
        run += h[i];
      }
      for (int i = len; i < n && i < len + 4096; ++i)
        if (got[i] != 0xffffffffu && ++errors <= 5)
          printf("T %d n %d: out[%d] written past the end\n", T, len, i);
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
