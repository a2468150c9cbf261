// Tiled matrix multiply C = A * B with 16x16 shared-memory tiles (2-D blocks
// of 16x16 threads, a loop over K tiles with two barriers per iteration),
// for float and double and matrix sizes that are not multiples of the tile
// (75x53 * 53x91, 130x97 * 97x47, 1x100 * 100x33, 16x16 * 16x16). Inputs are
// small integers, so every product is exact and compared exactly.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=loop-interchange -O2 %s -o %t.noxchg && %t.noxchg | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
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

#define TILE 16

template <typename T>
__global__ void matmulTiled(const T *A, const T *B, T *C, int M, int K,
                            int N) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  T acc = 0;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + threadIdx.x;
    int bk = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : T(0);
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : T(0);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

template <typename T> static int check(int M, int K, int N) {
  T *hA = (T *)malloc(M * K * sizeof(T));
  T *hB = (T *)malloc(K * N * sizeof(T));
  T *hC = (T *)malloc(M * N * sizeof(T));
  for (int i = 0; i < M * K; ++i)
    hA[i] = (T)((int)(lcg() % 9) - 4);
  for (int i = 0; i < K * N; ++i)
    hB[i] = (T)((int)(lcg() % 9) - 4);
  T *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dB, K * N * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(dA, hA, M * K * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, K * N * sizeof(T), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmulTiled<T><<<grid, block>>>(dA, dB, dC, M, K, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hC, dC, M * N * sizeof(T), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      T want = 0;
      for (int k = 0; k < K; ++k)
        want += hA[i * K + k] * hB[k * N + j];
      if (hC[i * N + j] != want && ++errors <= 5)
        printf("%s %dx%dx%d: C[%d][%d] = %g, expected %g\n",
               sizeof(T) == 4 ? "float" : "double", M, K, N, i, j,
               (double)hC[i * N + j], (double)want);
    }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  free(hA);
  free(hB);
  free(hC);
  return errors;
}

int main() {
  int errors = 0;
  errors += check<float>(75, 53, 91);
  errors += check<float>(130, 97, 47);
  errors += check<float>(1, 100, 33);
  errors += check<float>(16, 16, 16);
  errors += check<double>(75, 53, 91);
  errors += check<double>(33, 17, 65);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
