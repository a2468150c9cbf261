// Tiled matrix multiply whose tile size is the (square) block size chosen at
// launch: both tiles live in one extern __shared__ float array carved in two,
// sized with the third launch parameter (2 * T * T floats). T = 8, 16, 32 on
// matrices that are not multiples of T. Small-integer inputs: exact results.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O2 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O2 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
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

extern __shared__ float tiles[];

__global__ void matmulDyn(const float *A, const float *B, float *C, int M,
                          int K, int N) {
  int T = blockDim.x;
  float *As = tiles;
  float *Bs = tiles + T * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[ty * T + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty * T + tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += As[ty * T + k] * Bs[k * T + tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main() {
  const int M = 70, K = 45, N = 101;
  float *hA = (float *)malloc(M * K * sizeof(float));
  float *hB = (float *)malloc(K * N * sizeof(float));
  float *hC = (float *)malloc(M * N * sizeof(float));
  float *ref = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; ++i)
    hA[i] = (float)((int)(lcg() % 7) - 3);
  for (int i = 0; i < K * N; ++i)
    hB[i] = (float)((int)(lcg() % 7) - 3);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += hA[i * K + k] * hB[k * N + j];
      ref[i * N + j] = s;
    }
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, K * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, hA, M * K * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, K * N * sizeof(float), cudaMemcpyHostToDevice));
  int errors = 0;
  const int tileSizes[] = {8, 16, 32};
  for (int T : tileSizes) {
    CUDA_CHECK(cudaMemset(dC, 0, M * N * sizeof(float)));
    dim3 grid((N + T - 1) / T, (M + T - 1) / T);
    matmulDyn<<<grid, dim3(T, T), 2 * T * T * sizeof(float)>>>(dA, dB, dC, M, K,
                                                              N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hC, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M * N; ++i)
      if (hC[i] != ref[i] && ++errors <= 5)
        printf("T %d: C[%d][%d] = %g, expected %g\n", T, i / N, i % N, hC[i],
               ref[i]);
  }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  free(hA);
  free(hB);
  free(hC);
  free(ref);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
