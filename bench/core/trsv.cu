// TRSV: solve L U x = b for a batch of small G x G systems whose factors
// are given packed in one matrix (unit lower L below the diagonal, U on and
// above it), by a forward then a backward triangular solve, in the
// register-cache style: one group of G threads per problem, thread i of the
// group holding row i of the factors and x_i in registers (column-major
// matrices: coalesced loads). Each solution element is broadcast by a
// shuffle from the lane that computed it.
#ifndef GROUP
#define GROUP 16
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define FULL_MASK 0xffffffffu

template <typename T, int G>
__global__ void trsv(const T *LU, const T *B, T *X, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  // Every thread of a warp takes part in the shuffles: threads past the
  // batch work on the last problem and store nothing.
  bool active = problem < batch;
  size_t p = active ? problem : batch - 1;
  T m[G]; // row `lane` of L and U
#pragma unroll
  for (int j = 0; j < G; ++j)
    m[j] = LU[p * G * G + j * G + lane];
  T x = B[p * G + lane];

  // L y = b: y_k is final once the rows above have been subtracted.
#pragma unroll
  for (int k = 0; k < G - 1; ++k) {
    T yk = __shfl_sync(FULL_MASK, x, k, G);
    if (lane > k)
      x -= m[k] * yk;
  }
  // U x = y, from the last row up.
#pragma unroll
  for (int k = G - 1; k >= 0; --k) {
    if (lane == k)
      x /= m[k];
    T xk = __shfl_sync(FULL_MASK, x, k, G);
    if (lane < k)
      x -= m[k] * xk;
  }
  if (active)
    X[p * G + lane] = x;
}

int main() {
  const int G = GROUP;
  std::vector<Real> LU = makeTrsvFactors<Real>(G);
  std::vector<Real> B = makeUniform<Real>((size_t)BATCH * G, 4, 1);
  std::vector<Real> X(B.size());
  size_t mBytes = LU.size() * sizeof(Real), vBytes = B.size() * sizeof(Real);
  Real *dLU, *dB, *dX;
  cudaMalloc(&dLU, mBytes);
  cudaMalloc(&dB, vBytes);
  cudaMalloc(&dX, vBytes);
  cudaMemcpy(dLU, LU.data(), mBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), vBytes, cudaMemcpyHostToDevice);
  int blocks = (BATCH * G + BLOCK - 1) / BLOCK;
  timeIt([&] {
    trsv<Real, G><<<blocks, BLOCK>>>(dLU, dB, dX, BATCH);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(X.data(), dX, vBytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(X));
  cudaFree(dLU);
  cudaFree(dB);
  cudaFree(dX);
  return 0;
}
