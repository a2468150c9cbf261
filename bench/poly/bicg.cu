// BICG: the two matrix-vector products of the BiCG method, s = A^T r and
// q = A p, as PolyBench/GPU writes them: a thread per column of A walking
// it down, and a thread per row walking it along.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 4096
#endif

__global__ void columnProducts(const float *a, const float *r, float *s,
                               int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    s[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      s[j] += r[i] * a[i * n + j];
  }
}

__global__ void rowProducts(const float *a, const float *p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = 0.0f;
    for (int j = 0; j < n; ++j)
      q[i] += a[i * n + j] * p[j];
  }
}

int main() {
  const int n = SIZE;
  std::vector<float> a = makeUniform<float>((size_t)n * n, 451, 1.0);
  std::vector<float> r = makeUniform<float>(n, 452, 1.0);
  std::vector<float> p = makeUniform<float>(n, 453, 1.0);
  std::vector<float> s(n), q(n);
  float *dA, *dR, *dP, *dS, *dQ;
  cudaMalloc(&dA, a.size() * sizeof(float));
  for (float **vector : {&dR, &dP, &dS, &dQ})
    cudaMalloc(vector, n * sizeof(float));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dR, r.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dP, p.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  timeIt([&] {
    columnProducts<<<(n + 255) / 256, 256>>>(dA, dR, dS, n);
    rowProducts<<<(n + 255) / 256, 256>>>(dA, dP, dQ, n);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(s.data(), dS, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(q.data(), dQ, n * sizeof(float), cudaMemcpyDeviceToHost);
  printChecksum(checksum(s) + checksum(q));
  return 0;
}
