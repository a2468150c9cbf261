// LDUS: LDU factorization with static pivoting (no row exchanges; the
// matrices are diagonally dominant) of a batch of small G x G matrices, in
// the register-cache style: one group of G threads per problem, thread i of
// the group holding row i in registers (column-major matrices: coalesced
// loads). At step k the pivot row is broadcast by shuffles from lane k; the
// rows below are eliminated and row k is divided by its pivot. The result
// is packed in place: L below the diagonal (unit diagonal implied), D on
// it, U above it (unit diagonal implied).
#ifndef GROUP
#define GROUP 16
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define FULL_MASK 0xffffffffu

template <typename T, int G>
__global__ void ldus(const T *A, T *LDU, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  // Every thread of a warp takes part in the shuffles: threads past the
  // batch work on the last problem and store nothing.
  bool active = problem < batch;
  size_t base = (size_t)(active ? problem : batch - 1) * G * G;
  T m[G]; // row `lane`
#pragma unroll
  for (int j = 0; j < G; ++j)
    m[j] = A[base + j * G + lane];

#pragma unroll
  for (int k = 0; k < G; ++k) {
    T pivot = __shfl_sync(FULL_MASK, m[k], k, G);
    T l = m[k] / pivot;
    if (lane > k)
      m[k] = l;
#pragma unroll
    for (int j = k + 1; j < G; ++j) {
      T akj = __shfl_sync(FULL_MASK, m[j], k, G);
      if (lane > k)
        m[j] -= l * akj;
      else if (lane == k)
        m[j] = akj / pivot;
    }
  }
  if (active)
#pragma unroll
    for (int j = 0; j < G; ++j)
      LDU[base + j * G + lane] = m[j];
}

int main() {
  const int G = GROUP;
  std::vector<Real> A = makeDominant<Real>(G), LDU(A.size());
  size_t bytes = A.size() * sizeof(Real);
  Real *dA, *dLDU;
  cudaMalloc(&dA, bytes);
  cudaMalloc(&dLDU, bytes);
  cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice);
  int blocks = (BATCH * G + BLOCK - 1) / BLOCK;
  timeIt([&] {
    ldus<Real, G><<<blocks, BLOCK>>>(dA, dLDU, BATCH);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(LDU.data(), dLDU, bytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(LDU));
  cudaFree(dA);
  cudaFree(dLDU);
  return 0;
}
