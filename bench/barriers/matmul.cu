// Dense matrix multiply with 16x16 shared-memory tiles.
#include "common.h"
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

int main() {
  const int n = 1024;
  float *A, *B, *C;
  cudaMallocManaged(&A, (long)n * n * sizeof(float));
  cudaMallocManaged(&B, (long)n * n * sizeof(float));
  cudaMallocManaged(&C, (long)n * n * sizeof(float));
  for (long i = 0; i < (long)n * n; ++i) {
    A[i] = benchInput(i);
    B[i] = benchInput(i + 1);
  }
  timeIt("matmul", 3, [&] {
    matmul<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(A, B, C, n);
    cudaDeviceSynchronize();
  });
  std::printf("checksum=%.1f\n", checksum(C, (long)n * n));
  return 0;
}
