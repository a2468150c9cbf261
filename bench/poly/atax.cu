// ATAX: y = A^T (A x) for an n x n matrix, as PolyBench/GPU writes it: one
// thread per row for A x (each thread walks its row), one thread per
// column for A^T (A x) (threads of a warp read consecutive elements).
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 4096
#endif

__global__ void ataxRows(const float *a, const float *x, float *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
      sum += a[i * n + j] * x[j];
    tmp[i] = sum;
  }
}

__global__ void ataxColumns(const float *a, const float *tmp, float *y,
                            int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
      sum += a[i * n + j] * tmp[i];
    y[j] = sum;
  }
}

int main() {
  const int n = SIZE;
  std::vector<float> a = makeUniform<float>((size_t)n * n, 421, 1.0);
  std::vector<float> x = makeUniform<float>(n, 422, 1.0);
  std::vector<float> y(n);
  float *dA, *dX, *dTmp, *dY;
  cudaMalloc(&dA, a.size() * sizeof(float));
  cudaMalloc(&dX, n * sizeof(float));
  cudaMalloc(&dTmp, n * sizeof(float));
  cudaMalloc(&dY, n * sizeof(float));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dX, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  timeIt([&] {
    ataxRows<<<(n + 255) / 256, 256>>>(dA, dX, dTmp, n);
    ataxColumns<<<(n + 255) / 256, 256>>>(dA, dTmp, dY, n);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(y.data(), dY, n * sizeof(float), cudaMemcpyDeviceToHost);
  printChecksum(checksum(y));
  return 0;
}
