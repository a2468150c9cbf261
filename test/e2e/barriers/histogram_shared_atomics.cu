// Histogram with shared-memory atomics: each block clears a __shared__ int
// histogram (strided loop, so blocks smaller than the bin count work),
// barrier, grid-stride loop of atomicAdd on the shared bins, barrier, then
// merges its non-zero bins into the global histogram with atomicAdd. A second
// kernel keeps one histogram per block (no merge), so each block's result
// depends on its own data only. 256 and 1000 bins; block sizes 192, 1024, 64;
// skewed data so many threads hit the same bins.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O2 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
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

#define BINS 256
#define BINS_LARGE 1000

__global__ void histMerged(const unsigned char *data, int n, int *hist) {
  __shared__ int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&hist[b], local[b]);
}

// Block b histograms values[b * perBlock .. (b + 1) * perBlock).
__global__ void histPerBlock(const int *values, int perBlock, int *hist) {
  __shared__ int local[BINS_LARGE];
  for (int b = threadIdx.x; b < BINS_LARGE; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  const int *v = values + blockIdx.x * perBlock;
  for (int i = threadIdx.x; i < perBlock; i += blockDim.x)
    atomicAdd(&local[v[i] % BINS_LARGE], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS_LARGE; b += blockDim.x)
    hist[blockIdx.x * BINS_LARGE + b] = local[b];
}

int main() {
  const int n = 400000;
  unsigned char *h = (unsigned char *)malloc(n);
  for (int i = 0; i < n; ++i) {
    unsigned r = lcg();
    h[i] = (r & 3) == 0 ? (unsigned char)(r >> 8) : (unsigned char)((r >> 8) % 5);
  }
  int want[BINS] = {0};
  for (int i = 0; i < n; ++i)
    want[h[i]]++;
  unsigned char *d;
  int *dHist;
  CUDA_CHECK(cudaMalloc(&d, n));
  CUDA_CHECK(cudaMalloc(&dHist, BINS * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  int errors = 0;
  const int blocks[] = {192, 1024, 64};
  const int grids[] = {13, 4, 40};
  for (int c = 0; c < 3; ++c) {
    CUDA_CHECK(cudaMemset(dHist, 0, BINS * sizeof(int)));
    histMerged<<<grids[c], blocks[c]>>>(d, n, dHist);
    CUDA_CHECK(cudaGetLastError());
    int got[BINS];
    CUDA_CHECK(cudaMemcpy(got, dHist, sizeof(got), cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; ++b)
      if (got[b] != want[b] && ++errors <= 5)
        printf("histMerged block %d: bin %d = %d, expected %d\n", blocks[c], b,
               got[b], want[b]);
  }

  const int nb = 12, perBlock = 5000;
  int *hv = (int *)malloc(nb * perBlock * sizeof(int));
  for (int i = 0; i < nb * perBlock; ++i) {
    int b = i / perBlock;
    hv[i] = (int)(lcg() % (50 + 80 * b)) + 7 * b; // the range grows with b
  }
  int *dv, *dh;
  int *got = (int *)malloc(nb * BINS_LARGE * sizeof(int));
  int *ref = (int *)calloc(nb * BINS_LARGE, sizeof(int));
  for (int i = 0; i < nb * perBlock; ++i)
    ref[(i / perBlock) * BINS_LARGE + hv[i] % BINS_LARGE]++;
  CUDA_CHECK(cudaMalloc(&dv, nb * perBlock * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dh, nb * BINS_LARGE * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dv, hv, nb * perBlock * sizeof(int),
                        cudaMemcpyHostToDevice));
  const int blocks2[] = {256, 1000, 96};
  for (int bs : blocks2) {
    histPerBlock<<<nb, bs>>>(dv, perBlock, dh);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dh, nb * BINS_LARGE * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (int i = 0; i < nb * BINS_LARGE; ++i)
      if (got[i] != ref[i] && ++errors <= 5)
        printf("histPerBlock block size %d: block %d bin %d = %d, expected "
               "%d\n",
               bs, i / BINS_LARGE, i % BINS_LARGE, got[i], ref[i]);
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dHist));
  CUDA_CHECK(cudaFree(dv));
  CUDA_CHECK(cudaFree(dh));
  free(h);
  free(hv);
  free(got);
  free(ref);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
