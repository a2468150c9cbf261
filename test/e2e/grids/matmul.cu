// Naive dense matrix multiply C = A * B (one thread per output element, no
// shared memory) for non-square, non-multiple-of-block sizes, in float with
// small integer entries (exact) and in double with a tolerance.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=loop-interchange -O2 %s -o %t.noxchg && %t.noxchg | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

template <typename T>
__global__ void matmul(const T *A, const T *B, T *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  T acc = 0;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

template <typename T>
static bool runMatmul(int M, int N, int K, bool exact) {
  T *A = (T *)malloc(M * K * sizeof(T));
  T *B = (T *)malloc(K * N * sizeof(T));
  T *C = (T *)malloc(M * N * sizeof(T));
  for (int i = 0; i < M * K; ++i)
    A[i] = exact ? (T)(i % 7 - 3) : (T)sin(0.01 * i);
  for (int i = 0; i < K * N; ++i)
    B[i] = exact ? (T)(i % 5 - 2) : (T)cos(0.013 * i);
  T *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dB, K * N * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(dA, A, M * K * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, B, K * N * sizeof(T), cudaMemcpyHostToDevice));
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  matmul<T><<<grid, block>>>(dA, dB, dC, M, N, K);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(C, dC, M * N * sizeof(T), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int r = 0; r < M && ok; ++r)
    for (int c = 0; c < N; ++c) {
      double e = 0;
      for (int k = 0; k < K; ++k)
        e += (double)A[r * K + k] * (double)B[k * N + c];
      double got = (double)C[r * N + c];
      if (exact ? got != e : fabs(got - e) > 1e-9 * K) {
        printf("C[%d][%d] = %.17g, expected %.17g\n", r, c, got, e);
        ok = false;
        break;
      }
    }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  free(A);
  free(B);
  free(C);
  return ok;
}

int main() {
  if (!runMatmul<float>(123, 77, 201, true) ||
      !runMatmul<double>(100, 131, 64, false)) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
