// GEMA: C = A + B for a batch of small G x G matrices, in the register-cache
// style: one group of G threads per problem, thread j of the group holding
// column j of A and B in registers. Matrices are row-major, so the group's
// loads of one row are coalesced.
#ifndef GROUP
#define GROUP 16
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256

template <typename T, int G>
__global__ void gema(const T *A, const T *B, T *C, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  if (problem >= batch)
    return;
  size_t base = (size_t)problem * G * G;
  T a[G], b[G];
#pragma unroll
  for (int r = 0; r < G; ++r) {
    a[r] = A[base + r * G + lane];
    b[r] = B[base + r * G + lane];
  }
#pragma unroll
  for (int r = 0; r < G; ++r)
    C[base + r * G + lane] = a[r] + b[r];
}

int main() {
  const int G = GROUP;
  const size_t n = (size_t)BATCH * G * G, bytes = n * sizeof(Real);
  std::vector<Real> A = makeMatrices<Real>(G, 1), B = makeMatrices<Real>(G, 2),
                    C(n);
  Real *dA, *dB, *dC;
  cudaMalloc(&dA, bytes);
  cudaMalloc(&dB, bytes);
  cudaMalloc(&dC, bytes);
  cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice);
  int blocks = (BATCH * G + BLOCK - 1) / BLOCK;
  timeIt([&] {
    gema<Real, G><<<blocks, BLOCK>>>(dA, dB, dC, BATCH);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(C));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
