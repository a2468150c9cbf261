// Histogram of byte values with global-memory atomicAdd, computed both with
// one thread per element and with a grid-stride loop over a small grid;
// bin counts must match the host exactly and sum to the input size. The
// bin count comes from the command line (-D).
// RUN: %respec -O1 -arch=sm_80 -DNUM_BINS=48 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O1 -arch=sm_80 -DNUM_BINS=48 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O1 -arch=sm_80 -DNUM_BINS=48 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#ifndef NUM_BINS
#define NUM_BINS 64
#endif

__global__ void histogramSimple(const unsigned char *data, int n,
                                unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i] % NUM_BINS], 1u);
}

__global__ void histogramStrided(const unsigned char *data, int n,
                                 unsigned *bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&bins[data[i] % NUM_BINS], 1u);
}

int main() {
  const int n = 1 << 20;
  unsigned char *h = (unsigned char *)malloc(n);
  unsigned state = 12345u;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    // skewed distribution: low bins are far more frequent
    unsigned r = state >> 24;
    h[i] = (unsigned char)((r * r) >> 8);
  }
  unsigned expected[NUM_BINS];
  memset(expected, 0, sizeof(expected));
  for (int i = 0; i < n; ++i)
    ++expected[h[i] % NUM_BINS];

  unsigned char *d;
  unsigned *dbins;
  CUDA_CHECK(cudaMalloc(&d, n));
  CUDA_CHECK(cudaMalloc(&dbins, NUM_BINS * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));

  for (int variant = 0; variant < 2; ++variant) {
    CUDA_CHECK(cudaMemset(dbins, 0, NUM_BINS * sizeof(unsigned)));
    if (variant == 0)
      histogramSimple<<<(n + 255) / 256, 256>>>(d, n, dbins);
    else
      histogramStrided<<<24, 160>>>(d, n, dbins);
    CUDA_CHECK(cudaGetLastError());
    unsigned bins[NUM_BINS];
    CUDA_CHECK(cudaMemcpy(bins, dbins, sizeof(bins), cudaMemcpyDeviceToHost));
    unsigned long long total = 0;
    for (int b = 0; b < NUM_BINS; ++b) {
      total += bins[b];
      if (bins[b] != expected[b]) {
        printf("variant %d bin %d: got %u, expected %u\n", variant, b, bins[b],
               expected[b]);
        printf("FAILED\n");
        return 1;
      }
    }
    if (total != (unsigned long long)n) {
      printf("variant %d: total %llu != %d\n", variant, total, n);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dbins));
  free(h);
  printf("PASSED\n");
  return 0;
}
