// Per-thread local arrays live across barriers: (1) a register-blocked matrix
// multiply where each thread accumulates float acc[8] (8 rows of one column)
// over a loop of K tiles staged in shared memory, with two barriers per
// tile; (2) per-thread int bins[8] and float wsum[8] indexed by data-dependent
// and loop-dependent indices, updated between barriers in a loop over tiles.
// Integer-valued data, so the results are exact.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O2 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O2 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
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

#define TM 8
#define BN 64
#define BK 32

__global__ void matmulRegBlock(const float *A, const float *B, float *C, int M,
                               int K, int N) {
  __shared__ float As[TM][BK];
  __shared__ float Bs[BK][BN];
  int tx = threadIdx.x; // blockDim.x == BN
  int col = blockIdx.x * BN + tx;
  int row0 = blockIdx.y * TM;
  float acc[TM];
  for (int r = 0; r < TM; ++r)
    acc[r] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int idx = tx; idx < TM * BK; idx += BN) {
      int r = idx / BK, k = idx % BK;
      As[r][k] = (row0 + r < M && k0 + k < K) ? A[(row0 + r) * K + k0 + k] : 0.0f;
    }
    for (int k = 0; k < BK; ++k)
      Bs[k][tx] = (k0 + k < K && col < N) ? B[(k0 + k) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      float b = Bs[k][tx];
      for (int r = 0; r < TM; ++r)
        acc[r] += As[r][k] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r)
    if (row0 + r < M && col < N)
      C[(row0 + r) * N + col] = acc[r];
}

__global__ void tileBins(const int *data, int tiles, int *out) {
  __shared__ int tile[1024];
  int tid = threadIdx.x, n = blockDim.x;
  int bins[8];
  float wsum[8];
  for (int j = 0; j < 8; ++j) {
    bins[j] = 0;
    wsum[j] = 0.0f;
  }
  for (int t = 0; t < tiles; ++t) {
    tile[tid] = data[(blockIdx.x * tiles + t) * n + tid];
    __syncthreads();
    for (int j = 0; j < 8; ++j) {
      int v = tile[(tid + j * 31 + t) % n];
      bins[v & 7] += v;
      wsum[(j + t) & 7] += (float)(v >> 3);
    }
    __syncthreads();
  }
  int g = blockIdx.x * n + tid;
  for (int j = 0; j < 8; ++j) {
    out[g * 16 + j] = bins[j];
    out[g * 16 + 8 + j] = (int)wsum[(j + tid) & 7];
  }
}

int main() {
  int errors = 0;
  // (1)
  const int M = 45, K = 70, N = 150;
  float *hA = (float *)malloc(M * K * sizeof(float));
  float *hB = (float *)malloc(K * N * sizeof(float));
  float *hC = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; ++i)
    hA[i] = (float)((int)(lcg() % 11) - 5);
  for (int i = 0; i < K * N; ++i)
    hB[i] = (float)((int)(lcg() % 11) - 5);
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, K * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, hA, M * K * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, K * N * sizeof(float), cudaMemcpyHostToDevice));
  matmulRegBlock<<<dim3((N + BN - 1) / BN, (M + TM - 1) / TM), BN>>>(dA, dB, dC,
                                                                    M, K, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hC, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0;
      for (int k = 0; k < K; ++k)
        want += hA[i * K + k] * hB[k * N + j];
      if (hC[i * N + j] != want && ++errors <= 5)
        printf("matmulRegBlock: C[%d][%d] = %g, expected %g\n", i, j,
               hC[i * N + j], want);
    }

  // (2)
  const int blockSizes[] = {256, 96};
  for (int bs : blockSizes) {
    const int blocks = 6, tiles = 5;
    int n = bs * blocks * tiles;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 1000);
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, bs * blocks * 16 * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    tileBins<<<blocks, bs>>>(d, tiles, dOut);
    CUDA_CHECK(cudaGetLastError());
    int *got = (int *)malloc(bs * blocks * 16 * sizeof(int));
    CUDA_CHECK(cudaMemcpy(got, dOut, bs * blocks * 16 * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
      for (int tid = 0; tid < bs; ++tid) {
        int bins[8] = {0};
        float wsum[8] = {0};
        for (int t = 0; t < tiles; ++t)
          for (int j = 0; j < 8; ++j) {
            int v = h[(b * tiles + t) * bs + (tid + j * 31 + t) % bs];
            bins[v & 7] += v;
            wsum[(j + t) & 7] += (float)(v >> 3);
          }
        int g = b * bs + tid;
        for (int j = 0; j < 8; ++j) {
          if (got[g * 16 + j] != bins[j] && ++errors <= 5)
            printf("tileBins %d: thread %d bins[%d] = %d, expected %d\n", bs,
                   g, j, got[g * 16 + j], bins[j]);
          int w = (int)wsum[(j + tid) & 7];
          if (got[g * 16 + 8 + j] != w && ++errors <= 5)
            printf("tileBins %d: thread %d wsum[%d] = %d, expected %d\n", bs,
                   g, j, got[g * 16 + 8 + j], w);
        }
      }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
  }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  free(hA);
  free(hB);
  free(hC);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
