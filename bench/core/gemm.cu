// GEMM: C = A B for a batch of small G x G matrices, in the register-cache
// style: one group of G threads per problem, thread j of the group holding
// column j of A, B and C in registers (row-major matrices: coalesced loads).
// Outer-product form: for each k, column k of A is broadcast from lane k by
// shuffles and lane j adds A(:, k) B(k, j) to its column of C.
#ifndef GROUP
#define GROUP 8
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define FULL_MASK 0xffffffffu

template <typename T, int G>
__global__ void gemm(const T *A, const T *B, T *C, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  // Every thread of a warp takes part in the shuffles: threads past the
  // batch work on the last problem and store nothing.
  bool active = problem < batch;
  size_t base = (size_t)(active ? problem : batch - 1) * G * G;
  T a[G], b[G], c[G];
#pragma unroll
  for (int r = 0; r < G; ++r) {
    a[r] = A[base + r * G + lane];
    b[r] = B[base + r * G + lane];
    c[r] = 0;
  }
#pragma unroll
  for (int k = 0; k < G; ++k)
#pragma unroll
    for (int r = 0; r < G; ++r) {
      T ark = __shfl_sync(FULL_MASK, a[r], k, G); // A(r, k), from lane k
      c[r] += ark * b[k];
    }
  if (active)
#pragma unroll
    for (int r = 0; r < G; ++r)
      C[base + r * G + lane] = c[r];
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
    gemm<Real, G><<<blocks, BLOCK>>>(dA, dB, dC, BATCH);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(C));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
