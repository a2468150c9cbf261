// GEMM: C = A B for dense row-major matrices (M x K times K x N), with
// 16x16 shared-memory tiles: each block computes a 16x16 tile of C, each
// thread one element, stepping along K one tile pair at a time.
#include "common.h"
#include <cuda_runtime.h>

#ifndef M_DIM
#define M_DIM 1024
#endif
#ifndef N_DIM
#define N_DIM 1024
#endif
#ifndef K_DIM
#define K_DIM 768
#endif
#define TILE 16

__global__ void gemmTiled(const float *A, const float *B, float *C, int m,
                          int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += TILE) {
    As[ty][tx] = row < m && k0 + tx < k ? A[(size_t)row * k + k0 + tx] : 0.0f;
    Bs[ty][tx] = k0 + ty < k && col < n ? B[(size_t)(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; ++kk)
      acc += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  if (row < m && col < n)
    C[(size_t)row * n + col] = acc;
}

int main() {
  const int m = M_DIM, n = N_DIM, k = K_DIM;
  std::vector<float> A = makeGemmMatrix((size_t)m * k, 221),
                     B = makeGemmMatrix((size_t)k * n, 222), C((size_t)m * n);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * sizeof(float));
  cudaMalloc(&dB, B.size() * sizeof(float));
  cudaMalloc(&dC, C.size() * sizeof(float));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  timeIt([&] {
    gemmTiled<<<grid, block>>>(dA, dB, dC, m, n, k);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printChecksum(checksum(C));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
