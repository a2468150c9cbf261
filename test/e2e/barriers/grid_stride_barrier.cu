// Grid-stride loop whose body has barriers: the loop variable is the
// block's tile base, so the trip count is uniform within a block (but
// differs between blocks). Each iteration stages a tile in shared memory,
// reverses the valid part of the tile (the last tile is partial), reduces the
// tile, and accumulates the tile sums per block across iterations.
// n = 100003, 7 blocks of 512 and 384 threads, and 1 block of 1000 threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
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

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}

__global__ void tileReverse(const int *in, int *out, long long *blockTotals,
                            int n) {
  __shared__ int s[1024];
  __shared__ int red[1024];
  int tid = threadIdx.x, T = blockDim.x;
  long long total = 0;
  for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
    int valid = min(T, n - base);
    int v = tid < valid ? in[base + tid] : 0;
    s[tid] = v;
    red[tid] = v;
    __syncthreads();
    if (tid < valid)
      out[base + tid] = s[valid - 1 - tid] + base / T;
    for (int active = T; active > 1; active = (active + 1) / 2) {
      int half = (active + 1) / 2;
      if (tid < active / 2)
        red[tid] += red[tid + half];
      __syncthreads();
    }
    total += red[0];
    __syncthreads(); // red[0] and s are rewritten by the next iteration
  }
  if (tid == 0)
    blockTotals[blockIdx.x] = total;
}

int main() {
  const int n = 100003;
  int *h = (int *)malloc(n * sizeof(int));
  int *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)(lcg() % 2001) - 1000;
  int *d, *dOut;
  long long *dTot;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dTot, 16 * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  int errors = 0;
  const int grids[] = {7, 7, 1};
  const int blockSizes[] = {512, 384, 1000};
  for (int c = 0; c < 3; ++c) {
    int G = grids[c], T = blockSizes[c];
    CUDA_CHECK(cudaMemset(dOut, 0, n * sizeof(int)));
    tileReverse<<<G, T>>>(d, dOut, dTot, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long tot[16];
    CUDA_CHECK(cudaMemcpy(tot, dTot, G * sizeof(long long),
                          cudaMemcpyDeviceToHost));
    long long want[16] = {0};
    for (int base = 0; base < n; base += T) {
      int valid = n - base < T ? n - base : T;
      for (int t = 0; t < valid; ++t) {
        int w = h[base + valid - 1 - t] + base / T;
        if (got[base + t] != w && ++errors <= 5)
          printf("grid %d block %d: out[%d] = %d, expected %d\n", G, T,
                 base + t, got[base + t], w);
        want[(base / T) % G] += h[base + t];
      }
    }
    for (int b = 0; b < G; ++b)
      if (tot[b] != want[b] && ++errors <= 5)
        printf("grid %d block %d: total of block %d = %lld, expected %lld\n", G,
               T, b, tot[b], want[b]);
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dOut));
  CUDA_CHECK(cudaFree(dTot));
  free(h);
  free(got);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
